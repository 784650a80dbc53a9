#!/usr/bin/env bash
# Installs what the build and the tests need when it is missing: pkg-config, the libyaml, SQLite, simdjson, zstd and
# libqrencode development files (the build), Python 3 with its sqlite3 module (the tests' corpus generator and
# checkers), tmux (the real-terminal tests, skipped without it) and a headless Chromium (the page's browser test,
# scripts/browser-check.py): Debian's chromium-headless-shell.
# Debian/Ubuntu use apt-get (as root, or through sudo); macOS uses Homebrew (Chromium: see README.md).
set -euo pipefail

modules=(yaml-0.1 sqlite3 simdjson libzstd libqrencode)
missing=0
command -v pkg-config >/dev/null 2>&1 || missing=1
if [ "$missing" = 0 ]; then
  for m in "${modules[@]}"; do pkg-config --exists "$m" || missing=1; done
fi
python3 -c 'import sqlite3' >/dev/null 2>&1 || missing=1
command -v tmux >/dev/null 2>&1 || missing=1
browser=0
if [ "$(uname -s)" = Linux ] && ! command -v chromium-headless-shell >/dev/null 2>&1 && ! command -v chromium >/dev/null 2>&1; then
  browser=1
fi
[ "$missing" = 0 ] && [ "$browser" = 0 ] && exit 0

case "$(uname -s)" in
  Linux)
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    if [ "$missing" = 1 ]; then
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        pkg-config libyaml-dev libsqlite3-dev libsimdjson-dev libzstd-dev libqrencode-dev python3 tmux
    fi
    # Only the browser test needs it; where the distribution has no such package the test says it is skipped.
    if [ "$browser" = 1 ]; then
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium-headless-shell \
        || echo "install-deps: no chromium-headless-shell package here; the browser test will be skipped" >&2
    fi
    ;;
  Darwin)
    brew install pkg-config libyaml sqlite simdjson zstd qrencode python3 tmux
    ;;
  *)
    echo "install pkg-config, libyaml, sqlite3, simdjson, zstd and libqrencode development files, Python 3 and tmux, then retry" >&2
    exit 1
    ;;
esac
