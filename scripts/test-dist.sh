#!/usr/bin/env bash
# test-dist.sh TARBALL: installs a release tarball (make dist) into a temporary prefix as a user would, and uses it
# from another folder with a clean environment: `--version`; the installed data is what it reads (a reader, the
# price table's date and the water method's version changed in the prefix show up); and a scan of a generated
# Claude corpus into a new store holds exactly the generator's totals.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d "${TMPDIR:-/tmp}/unprompt-dist-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "test-dist: FAILED: $*" >&2; exit 1; }

(cd "$(dirname "$tarball")" && { sha256sum -c "$(basename "$tarball").sha256" 2>/dev/null \
    || shasum -a 256 -c "$(basename "$tarball").sha256"; }) >/dev/null || fail "SHA-256 of $(basename "$tarball")"
prefix="$work/prefix"
mkdir -p "$prefix" "$work/home"
tar -xzf "$tarball" -C "$prefix" --strip-components=1
[ -f "$prefix/LICENSE" ] && [ -f "$prefix/README.md" ] || fail "no LICENSE or README.md in the tarball"
cd "$work"
run() { env -i HOME="$work/home" PATH="$prefix/bin:/usr/bin:/bin" TZ=UTC "$@"; }

version="$(run unprompt-scan --version)" || fail "--version exited $?"
echo "$version"
echo "$version" | grep -Eq '^unprompt-scan [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]{12}(\+dirty)?\)$' || fail "no version and commit"
echo "$version" | grep -q '^price table [0-9]\{4\}-' || fail "no price table date"
echo "$version" | grep -q '^water method ' || fail "no water method"

shipped="$(ls "$repo"/readers/*.yaml | wc -l)"
listed="$(run unprompt-scan readers list --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["readers"]))')"
[ "$listed" = "$shipped" ] || fail "readers list shows $listed readers, the tarball ships $shipped"
share="$prefix/share/unprompt-scan"
rm "$share/readers/zed.yaml"
run unprompt-scan readers list | grep -q '^zed ' && fail "readers list still shows zed after its file was removed from the prefix"
sed -i.orig 's/"date": "[0-9-]*"/"date": "2000-01-02"/' "$share/pricing/manifest.json"
sed -i.orig 's/"version": "\([^"]*\)"/"version": "\1 (prefix copy)"/' "$share/water/water-method-v1.json"
rm -f "$share"/*/*.orig
changed="$(run unprompt-scan --version)"
echo "$changed" | grep -q '^price table 2000-01-02' || fail "the price table is not read from the prefix"
echo "$changed" | grep -q '(prefix copy)' || fail "the water method is not read from the prefix"

python3 "$repo/bench/corpus" claude --root "$work/claude" --size-mb 2 --seed 10 --dense >/dev/null
run CLAUDE_CONFIG_DIR="$work/claude" unprompt-scan --store "$work/store.sqlite" --json >/dev/null || fail "the scan exited $?"
python3 "$repo/bench/report.py" store-check "$work/store.sqlite" "$work/claude/expected_totals.json" \
    || fail "store totals differ from the generator's"
echo "test-dist: ok ($(basename "$tarball"), installed into a temporary prefix)"
