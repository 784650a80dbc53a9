#!/usr/bin/env bash
# dist-archive.sh DIR NAME: packs DIR/NAME into DIR/NAME.tar.gz and writes DIR/NAME.tar.gz.sha256. With GNU tar
# the archive is reproducible: names sorted, owner 0, every time set to the commit's.
set -euo pipefail
cd "$1"
name="$2"
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
    stamp="$(git log -1 --format=%ct 2>/dev/null || echo 0)"
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -cf - "$name" | gzip -n >"$name.tar.gz"
else
    tar -cf - "$name" | gzip -n >"$name.tar.gz"
fi
if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$name.tar.gz" >"$name.tar.gz.sha256"
else
    shasum -a 256 "$name.tar.gz" >"$name.tar.gz.sha256"
fi
cat "$name.tar.gz.sha256"
