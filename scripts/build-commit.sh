#!/bin/sh
# Writes OUT, the Swift file naming the commit REPO is at (see Plugins/BuildCommit): `unknown` outside a git
# checkout, `+dirty` when tracked files differ from it. OUT is left alone when it already says the same.
repo="$1" out="$2"
commit="$(git -C "$repo" --no-optional-locks rev-parse --short=12 HEAD 2>/dev/null)" || commit=unknown
if [ "$commit" != unknown ] && [ -n "$(git -C "$repo" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit+dirty"
fi
text="let buildCommit = \"$commit\""
if [ -f "$out" ] && [ "$(cat "$out")" = "$text" ]; then exit 0; fi
mkdir -p "$(dirname "$out")"
printf '%s\n' "$text" >"$out"
