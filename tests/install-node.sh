#!/bin/sh
# The js/wasm tests run under node (go_js_wasm_exec). Installs Debian's
# nodejs when node is missing; never skips: without node and apt-get it fails
# and says why.
set -eu
if command -v node >/dev/null 2>&1; then
	echo "node: $(command -v node) ($(node --version))"
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "node is missing and apt-get is not available: install Node.js 18 or newer" >&2
	exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
		echo "node is missing and installing it needs root: run 'apt-get install -y nodejs' as root" >&2
		exit 1
	fi
fi
echo "node: installing Debian's nodejs with apt-get"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs >/dev/null
node --version
