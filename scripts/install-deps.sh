#!/usr/bin/env bash
# Installs the system libraries the package links against, when they are missing.
# Debian/Ubuntu: libxml2-dev, libexpat1-dev, libsqlite3-dev, libpq-dev (PostgreSQL's client library,
# for a shared stats store), libssl-dev (OpenSSL's libcrypto, for SHA-256), zlib1g-dev (the feed
# server's gzip bodies) and pkg-config (SwiftPM reads the
# libraries' flags through pkg-config); and, for `bench run --counter instructions` (instruction
# counts that repeat exactly, used by scripts/ci-regression.sh and one test), valgrind, binutils
# (objcopy, nm); wrk, for the test that loads `bench serve` while a run measures. On macOS, Homebrew's libxml2 and expat work the same way
# (instruction counts are Linux-only).
#
#   scripts/install-deps.sh [DEBIAN_PACKAGE ...]
#
# Arguments name further Debian packages to install the same way, such as the tools that only CI
# uses (.ci/run passes the ShellCheck package); they are ignored on macOS.
set -euo pipefail

needed=(libxml2-dev libexpat1-dev libsqlite3-dev libpq-dev libssl-dev zlib1g-dev pkg-config valgrind binutils wrk "$@")

if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for pkg in "${needed[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        echo "install-deps: all present (${needed[*]})"
        exit 0
    fi
    echo "install-deps: installing ${missing[*]}"
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
elif command -v brew >/dev/null 2>&1; then
    brew list libxml2 >/dev/null 2>&1 || brew install libxml2
    brew list expat >/dev/null 2>&1 || brew install expat
    brew list pkg-config >/dev/null 2>&1 || brew install pkg-config
    brew list libpq >/dev/null 2>&1 || brew install libpq
    brew list openssl@3 >/dev/null 2>&1 || brew install openssl@3
    brew list zlib >/dev/null 2>&1 || brew install zlib
else
    echo "install-deps: no apt or brew here; install libxml2, expat, sqlite3, libpq, OpenSSL, zlib (headers) and pkg-config by hand" >&2
    exit 1
fi
