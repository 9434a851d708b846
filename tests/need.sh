#!/bin/sh
# need.sh PACKAGE COMMAND...: make sure one of the COMMANDs exists, installing
# Debian's PACKAGE with apt-get when none does. The tests never skip for a
# missing tool: without it and without apt-get this fails and says why.
set -eu
pkg=$1
shift
for c in "$@"; do
	if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
		v=$("$c" --version 2>/dev/null | head -n 1 || true)
		echo "$pkg: $(command -v "$c") (${v:-version unknown})"
		exit 0
	fi
done
if ! command -v apt-get >/dev/null 2>&1; then
	# RETRYLAB_CHROMIUM and RETRYLAB_FIREFOX name a browser: no use for another package.
	elsewhere=""
	if [ "$pkg" = chromium ]; then elsewhere=" (or set RETRYLAB_CHROMIUM for a browser elsewhere)"; fi
	if [ "$pkg" = firefox-esr ]; then elsewhere=" (or set RETRYLAB_FIREFOX for a browser elsewhere)"; fi
	echo "$pkg is missing and apt-get is not available: install it$elsewhere" >&2
	exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
		echo "$pkg is missing and installing it needs root: run 'apt-get install -y $pkg' as root" >&2
		exit 1
	fi
fi
echo "$pkg: installing Debian's $pkg with apt-get"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$pkg" >/dev/null
for c in "$@"; do
	if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
		echo "$pkg: installed $(command -v "$c")"
		exit 0
	fi
done
echo "$pkg was installed but none of $* is on PATH" >&2
exit 1
