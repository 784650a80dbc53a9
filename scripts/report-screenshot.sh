#!/usr/bin/env bash
# Makes docs/report.png: the page of `unprompt-scan report` on the tests' golden corpus (Tests/Golden/corpus: five
# weeks of Claude Code and Codex logs, work hours, Codex rate limits), at a fixed moment, with Claude Code's status
# line readings recorded, photographed whole by headless Chromium (scripts/browser-check.py).
# Usage: scripts/report-screenshot.sh [BINARY]   (default: `swift build`, then .build/debug/unprompt-scan)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-}"
if [ -z "$bin" ]; then
    swift build --package-path "$root" >/dev/null
    bin="$root/.build/debug/unprompt-scan"
fi
chromium="${UNPROMPT_CHROMIUM:-$(command -v chromium-headless-shell || command -v chromium || true)}"
if [ -z "$chromium" ]; then
    echo "report-screenshot: no Chromium: install chromium-headless-shell (scripts/install-deps.sh), or set UNPROMPT_CHROMIUM" >&2
    exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export UNPROMPT_NOW=2026-03-10T11:30:30Z TZ=UTC HOME="$work/home" UNPROMPT_READERS_DIR="$root/readers"
export CLAUDE_CONFIG_DIR="$root/Tests/Golden/corpus/claude" CODEX_HOME="$root/Tests/Golden/corpus/codex"
store=(--store "$work/usage.sqlite" --tz UTC)
"$bin" "${store[@]}" --config "$root/Tests/Golden/corpus/config.yaml" >/dev/null
echo '{"rate_limits":{"five_hour":{"used_percentage":23.5,"resets_at":1773154800},"seven_day":{"used_percentage":41,"resets_at":1773446400}}}' \
    | "$bin" statusline "${store[@]}" >/dev/null
"$bin" report --no-scan "${store[@]}" --config "$root/Tests/Golden/corpus/config.yaml" --out "$work/report.html" >/dev/null
python3 "$root/scripts/browser-check.py" --chromium "$chromium" --url "file://$work/report.html" --only-screenshot \
    --screenshot "$root/docs/report.png" --width 1200 --height 900
echo "wrote docs/report.png"
