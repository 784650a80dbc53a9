#!/usr/bin/env bash
# `swift build -c release` linked as statically as this platform allows, plus any further `swift build` arguments
# (the Makefile's build and dist, and bench/run.sh, build with it).
# Linux: the Swift runtime and Foundation (--static-swift-stdlib), and every C library that ships a static archive.
# For each pkg-config module a copy of its .pc file in .build/static-libs/pkgconfig points `libdir` at
# .build/static-libs ($STATIC_LIBS_DIR), which holds the module's archive (Debian: libyaml.a, libsqlite3.a, libzstd.a), or a link to
# its shared library when there is none (Debian's simdjson and libqrencode). SwiftPM reads those .pc files first (PKG_CONFIG_PATH),
# so the linker finds the archives before the system's shared libraries. libstdc++, libgcc and glibc stay shared.
# macOS: a plain release build (the system has the Swift runtime; Homebrew's libraries stay shared).
set -euo pipefail
if [ "$(uname -s)" != Linux ]; then exec "${SWIFT:-swift}" build -c release "$@"; fi
dir="${STATIC_LIBS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build/static-libs}"
mkdir -p "$dir/pkgconfig"
for entry in yaml-0.1:yaml sqlite3:sqlite3 libzstd:zstd simdjson:simdjson libqrencode:qrencode; do
    module="${entry%%:*}" lib="${entry##*:}" found=""
    for libdir in "$(pkg-config --variable=libdir "$module")" "/usr/lib/$(uname -m)-linux-gnu" /usr/lib /usr/local/lib; do
        for candidate in "$libdir/lib$lib.a" "$libdir/lib$lib.so"; do
            if [ -z "$found" ] && [ -f "$candidate" ]; then found="$candidate"; fi
        done
    done
    if [ -z "$found" ]; then echo "release-build: no lib$lib.a or lib$lib.so for $module" >&2; exit 1; fi
    ln -sf "$found" "$dir/"
    sed "s|^libdir=.*|libdir=$dir|" "$(pkg-config --variable=pcfiledir "$module")/$module.pc" >"$dir/pkgconfig/$module.pc"
done
PKG_CONFIG_PATH="$dir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" exec "${SWIFT:-swift}" build -c release --static-swift-stdlib "$@"
