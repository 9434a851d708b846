#!/bin/sh
# Installs Debian's chromium for the end-to-end tests when it is missing.
# It never skips: without a browser and without apt-get it fails and says why.
set -eu
for c in "${RETRYLAB_CHROMIUM:-}" chromium chromium-browser; do
	if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
		echo "chromium: $(command -v "$c") ($("$c" --version 2>/dev/null || echo unknown version))"
		exit 0
	fi
done
if ! command -v apt-get >/dev/null 2>&1; then
	echo "chromium is missing and apt-get is not available: install Chromium and set RETRYLAB_CHROMIUM=/path/to/chromium" >&2
	exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
		echo "chromium is missing and installing it needs root: run 'apt-get install -y chromium' as root" >&2
		exit 1
	fi
fi
echo "chromium: installing Debian's chromium with apt-get"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
command -v chromium
chromium --version
