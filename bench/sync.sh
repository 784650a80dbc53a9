#!/usr/bin/env bash
# Benchmark of merging a sync folder (issue 16's goal: 30 devices x one year of exports merge in <= 200 ms).
#
# bench/exports.py writes the folder once (kept in $BENCH_DATA/exports-30, stamped like the corpora). Three timings
# of `unprompt-scan sync --no-scan`, each on a fresh copy of the folder (hyperfine's --prepare, not timed): into a
# new store (every export read and checked, all 30 imported: a new device's first sync); again with nothing new
# (only the headers read); and with one device's export newer and the 29 others imported already (a device that
# keeps in step: one export read and imported). Before the timing, one such sync is checked exactly: every device imported, with the tokens and the sequence number the
# generator worked out (expected.json), and `devices --json` showing the same. The goal is printed for
# information; the script fails only on a wrong total or a failed command.
#
# Usage: bench/sync.sh BINARY        (bench/run.sh runs it with its release build; or alone with any build)
# Environment: BENCH_DATA (default bench-data/), BENCH_SYNC_RUNS (hyperfine runs, default 15).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:?usage: bench/sync.sh BINARY}"
DATA="${BENCH_DATA:-$REPO_ROOT/bench-data}"
RUNS="${BENCH_SYNC_RUNS:-15}"
RESULTS="$DATA/results"
FOLDER="$DATA/exports-30"
WORK="$DATA/sync-work"
GOAL_MS=200

die() { printf '\nbench: FAILED: %s\n' "$*" >&2; exit 1; }
mkdir -p "$DATA" "$RESULTS"

stamp="$(sha256sum "$REPO_ROOT/bench/exports.py" | awk '{print $1}') --devices 30 --days 365 --seed 16 --version 5"
if [ -f "$FOLDER/.bench-complete" ] && [ "$(cat "$FOLDER/.bench-complete")" = "$stamp" ]; then
    echo "exports-30: present, kept"
else
    echo "exports-30: generating (bench/exports.py --devices 30 --days 365 --seed 16 --version 5) …"
    rm -rf "$FOLDER.tmp"
    python3 "$REPO_ROOT/bench/exports.py" --root "$FOLDER.tmp" --devices 30 --days 365 --seed 16 --version 5 \
        || die "bench/exports.py"
    printf '%s' "$stamp" >"$FOLDER.tmp/.bench-complete"
    rm -rf "$FOLDER" && mv "$FOLDER.tmp" "$FOLDER"
fi

# One sync's surroundings: an empty home and settings (nothing of this machine), the checkout's readers.
export HOME="$DATA/.empty-home" XDG_CONFIG_HOME="$DATA/.empty-config" UNPROMPT_READERS_DIR="$REPO_ROOT/readers"
mkdir -p "$HOME" "$XDG_CONFIG_HOME"
# hyperfine -N runs --prepare without a shell too: the preparation is a script.
prepare_script="$DATA/sync-prepare.sh"
printf '%s\n' "rm -rf '$WORK' && mkdir -p '$WORK' && cp -r '$FOLDER' '$WORK/folder'" \
    "rm -f '$WORK/folder/expected.json' '$WORK/folder/.bench-complete'" >"$prepare_script"
prepare="bash $prepare_script"
sync_cmd=("$BIN" sync --no-scan --dir "$WORK/folder" --store "$WORK/store.sqlite" --json)

# Correctness first.
$prepare
"${sync_cmd[@]}" >"$RESULTS/sync-30.json" || die "unprompt-scan sync exited $?"
"$BIN" devices --store "$WORK/store.sqlite" --json >"$RESULTS/devices-30.json" || die "unprompt-scan devices exited $?"
python3 - "$FOLDER/expected.json" "$RESULTS/sync-30.json" "$RESULTS/devices-30.json" <<'PY' || die "the merge's totals"
import json, sys
expected = json.load(open(sys.argv[1]))
sync = json.load(open(sys.argv[2]))
devices = {d["id"]: d for d in json.load(open(sys.argv[3]))["devices"]}
imported = {d["device"]: d for d in sync["imported"]}
bad = []
if sync["refused"]:
    bad.append("refused: %s" % sync["refused"])
for ident, e in expected.items():
    got = imported.get(ident)
    if got is None or got["tokens"] != e["tokens"] or got["sequence"] != e["sequence"] or got["label"] != e["label"]:
        bad.append("%s: imported %s, expected %s" % (e["label"], got, e))
    if devices.get(ident, {}).get("tokens") != e["tokens"]:
        bad.append("%s: devices shows %s tokens, expected %d" % (e["label"], devices.get(ident), e["tokens"]))
if len(imported) != len(expected):
    bad.append("imported %d devices, expected %d" % (len(imported), len(expected)))
for line in bad:
    print("  " + line)
if bad:
    sys.exit(1)
rows = sum(e["rows"] for e in expected.values())
tokens = sum(e["tokens"] for e in expected.values())
print("merge exact: %d devices, %d bucket rows, %d tokens; the sync's own time %.1f ms" % (
    len(expected), rows, tokens, sync["milliseconds"]))
PY

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
hyperfine -N --warmup 1 --runs "$RUNS" --style basic --prepare "$prepare" \
    --export-json "$RESULTS/hyperfine-sync-30.json" -n sync-30 "$(printf '%q ' "${sync_cmd[@]}")" \
    || die "hyperfine on the sync"
# Syncing again with nothing new (the common case): only each export's header is read, none imported.
$prepare && "${sync_cmd[@]}" >/dev/null || die "unprompt-scan sync"
hyperfine -N --warmup 1 --runs "$RUNS" --style basic --export-json "$RESULTS/hyperfine-sync-30-again.json" \
    -n sync-30-again "$(printf '%q ' "${sync_cmd[@]}")" || die "hyperfine on the sync again"
# One device exported again (its sequence one larger) into a folder whose 29 others are imported already: the
# sync of a device that keeps in step. The store with all 30 imported is kept aside and copied back each run.
cp "$WORK/store.sqlite" "$DATA/sync-store-30.sqlite"
first="$(ls "$FOLDER"/unprompt-*.export | head -1)"
python3 - "$first" "$DATA/sync-next.export" <<'PY' || die "writing the newer export"
import json, struct, subprocess, sys
data = open(sys.argv[1], "rb").read()
size = struct.unpack("<I", data[4:8])[0]
content = subprocess.run(["zstd", "-d", "-q", "-c"], input=data[8 + size:], stdout=subprocess.PIPE, check=True).stdout
# From version 4 the JSON part ends at the first newline, and the packed days follow it unchanged.
part, newline, packed = content.partition(b"\n")
document = json.loads(part)
document["sequence"] += 1
document["exportedAt"] += 60000
text = json.dumps(document, separators=(",", ":")).encode() + newline + packed
frame = subprocess.run(["zstd", "-q", "-6", "--check", "--stream-size=%d" % len(text), "-c"], input=text,
                       stdout=subprocess.PIPE, check=True).stdout
header = json.dumps({"format": "unprompt-sync", "version": document["version"], "device": document["device"]["id"],
                     "sequence": document["sequence"], "bytes": len(frame)}, separators=(",", ":")).encode()
open(sys.argv[2], "wb").write(struct.pack("<II", 0x184D2A50, len(header)) + header + frame)
PY
printf '%s\n' "bash $prepare_script" "cp '$DATA/sync-store-30.sqlite' '$WORK/store.sqlite'" \
    "cp '$DATA/sync-next.export' '$WORK/folder/$(basename "$first")'" >"$DATA/sync-prepare-one.sh"
bash "$DATA/sync-prepare-one.sh" && "${sync_cmd[@]}" >"$RESULTS/sync-30-one.json" || die "unprompt-scan sync (one newer)"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d["imported"]) == 1 and d["unchanged"] == 29 else 1)' \
    "$RESULTS/sync-30-one.json" || die "the sync of one newer export imported other than that one"
hyperfine -N --warmup 1 --runs "$RUNS" --style basic --prepare "bash $DATA/sync-prepare-one.sh" \
    --export-json "$RESULTS/hyperfine-sync-30-one.json" -n sync-30-one "$(printf '%q ' "${sync_cmd[@]}")" \
    || die "hyperfine on the sync of one newer export"
# The sync's own time (what `milliseconds` reports: listing, reading, checking, exporting, importing), per run.
for _ in $(seq 5); do $prepare && "${sync_cmd[@]}"; done >"$RESULTS/sync-30-inprocess.jsonl" \
    || die "unprompt-scan sync"
python3 - "$RESULTS/hyperfine-sync-30.json" "$RESULTS/sync-30-inprocess.jsonl" "$GOAL_MS" "$DATA/sync-summary.json" <<'PY'
import json, statistics, sys
times = json.load(open(sys.argv[1]))["results"][0]["times"]
again = json.load(open(sys.argv[1].replace(".json", "-again.json")))["results"][0]["times"]
one = json.load(open(sys.argv[1].replace(".json", "-one.json")))["results"][0]["times"]
inprocess = [json.loads(line)["milliseconds"] for line in open(sys.argv[2]) if line.strip()]
goal = float(sys.argv[3])
summary = {
    "devices": 30, "days": 365,
    "wall_mean_ms": statistics.mean(times) * 1000, "wall_median_ms": statistics.median(times) * 1000,
    "wall_min_ms": min(times) * 1000, "runs": len(times), "again_wall_median_ms": statistics.median(again) * 1000,
    "one_newer_wall_median_ms": statistics.median(one) * 1000,
    "inprocess_median_ms": statistics.median(inprocess), "inprocess_min_ms": min(inprocess),
    "goal_ms": goal,
}
json.dump(summary, open(sys.argv[4], "w"), indent=1)
print("30 devices x 365 days: wall median %.0f ms (min %.0f, mean %.0f, %d runs); the sync's own median %.0f ms"
      " (min %.0f); goal <= %.0f ms: %s" % (
          summary["wall_median_ms"], summary["wall_min_ms"], summary["wall_mean_ms"], len(times),
          summary["inprocess_median_ms"], summary["inprocess_min_ms"], goal,
          "met" if summary["wall_median_ms"] <= goal else "not met"))
print("again, with nothing new: wall median %.0f ms; one device newer (29 unchanged): wall median %.0f ms;"
      " goal <= %.0f ms: %s" % (summary["again_wall_median_ms"], summary["one_newer_wall_median_ms"], goal,
                              "met" if max(summary["again_wall_median_ms"], summary["one_newer_wall_median_ms"]) <= goal
                              else "not met"))
PY
