#!/usr/bin/env bash
# Benchmark of `unprompt-scan` against the peer `aiburn` (see bench/README.md): the dry run, a cold scan into a new
# store, a rescan with nothing new, one line appended to a large history, the watch's latency and idle CPU.
#
# Correctness first (exact totals against the corpus generator's expected_totals.json, for the dry run and for
# every store), then wall time (hyperfine, warm page cache, ours and aiburn in the same invocation) and peak RSS
# (GNU time -v). It ends with one table of every goal (DESIGN.md, "Performance budget") and a scaling table.
# Goals are printed as information; the script fails only on a correctness mismatch or a tool failure.
#
# Environment overrides:
#   BENCH_LARGE   1: also generate (once) and measure the 3 GB Claude tree   (default: 0)
#   BENCH_BUILD   SwiftPM scratch path for the release build (default: /tmp/unprompt-bench-build)
#   BENCH_DATA    corpora and results                     (default: bench-data/ at the repo root)
#   BENCH_RUNS    hyperfine runs per command              (default: 15)
#   BENCH_WARMUP  hyperfine warm-up runs per command      (default: 3)
#   BENCH_ROUNDS  split the runs over this many hyperfine invocations with the order swapped each time
#                 (default: $BENCH_RUNS, alternating the two commands run by run; 1 = one invocation)
#   AIBURN_SPEC   pip requirement for the peer            (default: aiburn)
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GENERATOR="$REPO_ROOT/bench/corpus"
LARGE="${BENCH_LARGE:-0}"
BENCH_BUILD="${BENCH_BUILD:-/tmp/unprompt-bench-build}"
DATA="${BENCH_DATA:-$REPO_ROOT/bench-data}"
RUNS="${BENCH_RUNS:-15}"
WARMUP="${BENCH_WARMUP:-3}"
ROUNDS="${BENCH_ROUNDS:-$RUNS}"
AIBURN_SPEC="${AIBURN_SPEC:-aiburn}"
PEER="$REPO_ROOT/.peer"
AIBURN="$PEER/bin/aiburn"
REPORT="$REPO_ROOT/bench/report.py"
RESULTS="$DATA/results"

# The same build as `make run` (scripts/release-build.sh: on Linux the Swift runtime and the C libraries that have
# an archive are linked in), in its own scratch path.
release_build() { STATIC_LIBS_DIR="$BENCH_BUILD/static-libs" bash "$REPO_ROOT/scripts/release-build.sh" "$@"; }

RATIO_GOAL=0.6
RSS_GOAL_MB=40

say() { printf '\n== %s\n' "$*"; }
die() { printf '\nbench: FAILED: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- 1. tools
say "1. tools"
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
fi
APT_UPDATED=0
apt_install() {
    command -v apt-get >/dev/null 2>&1 || die "missing $*, and no apt-get to install it"
    if [ "$APT_UPDATED" = 0 ]; then
        $SUDO apt-get update -q || die "apt-get update"
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "$@" || die "apt-get install $*"
}

missing=()
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
[ -x /usr/bin/time ] || missing+=(time)          # GNU time; `time` alone is the shell keyword
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
# venv needs ensurepip, which Debian ships separately.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || apt_install python3-venv
# Build dependencies of the package (system libraries found through pkg-config), as `make deps` installs them.
bash "$REPO_ROOT/scripts/install-deps.sh" || die "installing the build libraries (scripts/install-deps.sh)"
command -v swift >/dev/null 2>&1 || die "no swift toolchain on PATH (install one from swift.org; apt has none)"

if [ ! -x "$AIBURN" ]; then
    echo "installing the peer into $PEER: pip install $AIBURN_SPEC"
    rm -rf "$PEER"
    python3 -m venv "$PEER" || die "python3 -m venv $PEER"
    "$PEER/bin/pip" install -q "$AIBURN_SPEC" || die "pip install $AIBURN_SPEC"
fi
[ -x "$AIBURN" ] || die "no $AIBURN after installing"
if command -v git >/dev/null 2>&1 && git -C "$REPO_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$REPO_ROOT" check-ignore -q .peer/ || echo "warning: .peer is not ignored by git"
    git -C "$REPO_ROOT" check-ignore -q bench-data/ || echo "warning: bench-data is not ignored by git"
fi
AIBURN_VERSION="$("$PEER/bin/pip" show aiburn 2>/dev/null | sed -n 's/^Version: //p')"
HYPERFINE_VERSION="$(hyperfine --version | awk '{print $2}')"
echo "hyperfine $HYPERFINE_VERSION, aiburn ${AIBURN_VERSION:-?}, $(swift --version 2>/dev/null | head -1)"

# ---------------------------------------------------------------- 2. corpora
say "2. corpora in $DATA"
[ -f "$GENERATOR/__main__.py" ] || die "no corpus generator in $GENERATOR"
mkdir -p "$DATA" "$RESULTS"

# A tree is complete when its stamp (generator checksum + arguments) matches: it is written only after the
# generator succeeded, and the tree is built under NAME.tmp and renamed into place.
GENERATOR_SUM="$(cat "$GENERATOR"/*.py | sha256sum | awk '{print $1}')"
gen_pids=()
gen_names=()
generate() {  # NAME TOOL ARGS...
    local name="$1"
    local dir="$DATA/$name"
    local stamp="$GENERATOR_SUM bench/corpus ${*:2}"
    shift
    if [ -f "$dir/.bench-complete" ] && [ -f "$dir/expected_totals.json" ] \
        && [ "$(cat "$dir/.bench-complete")" = "$stamp" ]; then
        echo "$name: present ($(du -sm "$dir" | awk '{print $1}') MB), kept"
        return 0
    fi
    echo "$name: generating (bench/corpus $*) …"
    rm -rf "$dir.tmp"
    (
        python3 "$GENERATOR" "$1" --root "$dir.tmp" "${@:2}" >"$DATA/$name.gen.log" 2>&1 \
            && printf '%s' "$stamp" >"$dir.tmp/.bench-complete" \
            && rm -rf "$dir" && mv "$dir.tmp" "$dir"
    ) &
    gen_pids+=($!)
    gen_names+=("$name")
}
gen_started=$SECONDS
generate claude-300 claude --size-mb 300 --days 30 --seed 300
generate codex-300 codex --size-mb 300 --days 30 --seed 300
generate claude-30 claude --size-mb 30 --days 30 --seed 30
# The 3 GB tree is opt-in (about a minute to write, 3 GB of disk, kept like the others once written).
if [ "$LARGE" = 1 ]; then generate claude-3000 claude --size-mb 3072 --days 30 --seed 3000; fi
for i in "${!gen_pids[@]}"; do
    wait "${gen_pids[$i]}" || die "generating ${gen_names[$i]} (see $DATA/${gen_names[$i]}.gen.log)"
done
if [ "${#gen_pids[@]}" -gt 0 ]; then echo "generated in $((SECONDS - gen_started)) s"; fi
CLAUDE300="$DATA/claude-300"
CODEX300="$DATA/codex-300"
CLAUDE30="$DATA/claude-30"

# ---------------------------------------------------------------- 3. build
say "3. release build (scratch path $BENCH_BUILD)"
build_started=$SECONDS
# Others may edit the checkout while we build; SwiftPM then stops with "was modified during the build".
# Try again a few times in that case only.
for attempt in 1 2 3 4; do
    if release_build --package-path "$REPO_ROOT" --scratch-path "$BENCH_BUILD" >"$RESULTS/build.log" 2>&1; then
        break
    fi
    if [ "$attempt" -lt 4 ] && grep -q 'modified during the build' "$RESULTS/build.log"; then
        echo "sources changed during the build; building again"
        sleep 5
        continue
    fi
    tail -n 40 "$RESULTS/build.log"
    die "swift build (log: $RESULTS/build.log)"
done
tail -n 1 "$RESULTS/build.log"
echo "built in $((SECONDS - build_started)) s"
BIN="$(release_build --package-path "$REPO_ROOT" --scratch-path "$BENCH_BUILD" --show-bin-path)/unprompt-scan"
[ -x "$BIN" ] || die "no binary at $BIN"
echo "binary: $BIN"

# Test the checkout's descriptors only, never a personal ~/.config/unprompt/readers.
export UNPROMPT_READERS_DIR="$REPO_ROOT/readers"
export XDG_CONFIG_HOME="$DATA/.empty-config"
mkdir -p "$XDG_CONFIG_HOME"

ours_cmd() {  # KIND ROOT -> argv of our dry-run
    local reader=claude-code
    [ "$1" = codex ] && reader=codex
    printf '%s\n' "$BIN" --dry-run --reader "$reader" --root "$2" --json
}
# aiburn reads CLAUDE_CONFIG_DIR / CODEX_HOME; callers set them (peer_env).
peer_args() {  # KIND
    if [ "$1" = codex ]; then printf '%s\n' monthly --codex --json; else printf '%s\n' monthly --claude --json; fi
}
peer_env() {  # KIND ROOT
    if [ "$1" = codex ]; then echo "CODEX_HOME=$2"; else echo "CLAUDE_CONFIG_DIR=$2"; fi
}

# ---------------------------------------------------------------- 4. correctness
say "4. correctness (exact, against expected_totals.json)"
mismatch=0
check() {  # NAME KIND ROOT
    local name="$1" kind="$2" root="$3"
    local -a cmd peer
    mapfile -t cmd < <(ours_cmd "$kind" "$root")
    mapfile -t peer < <(peer_args "$kind")
    echo "$name:"
    "${cmd[@]}" >"$RESULTS/ours-$name.json" || die "unprompt-scan exited $? on $name"
    env "$(peer_env "$kind" "$root")" "$AIBURN" "${peer[@]}" >"$RESULTS/aiburn-$name.json" \
        || die "aiburn exited $? on $name"
    python3 "$REPORT" check "$kind" "$RESULTS/ours-$name.json" "$root/expected_totals.json" \
        "$RESULTS/aiburn-$name.json" || mismatch=1
}
check claude-300 claude "$CLAUDE300"
check codex-300 codex "$CODEX300"
check claude-30 claude "$CLAUDE30"
if [ "$LARGE" = 1 ]; then check claude-3000 claude "$DATA/claude-3000"; fi
[ "$mismatch" = 0 ] || die "totals differ from expected_totals.json (our JSON is in $RESULTS/ours-*.json)"

# ---------------------------------------------------------------- 5. speed
say "5. wall time (hyperfine -N --warmup $WARMUP --runs $RUNS, rounds $ROUNDS, warm page cache)"
# Share of CPU time used by anything during one second, from /proc/stat (we are idle meanwhile).
cpu_busy_pct() {
    local -a a b
    read -r -a a < <(head -1 /proc/stat)
    sleep 1
    read -r -a b < <(head -1 /proc/stat)
    python3 -c 'import sys
a = [int(x) for x in sys.argv[1].split()]; b = [int(x) for x in sys.argv[2].split()]
d = [y - x for x, y in zip(a, b)]; idle = d[3] + d[4]; total = sum(d[:8]) or 1
print(round(100 * (total - idle) / total))' "${a[*]:1}" "${b[*]:1}"
}
BUSY_BEFORE="$(cpu_busy_pct)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, CPU busy before timing: $BUSY_BEFORE %"
if [ "$BUSY_BEFORE" -gt 15 ]; then
    echo "warning: other processes are using the CPU; wall times will be noisy (the ratio less so)"
fi
q() { local out="" a; for a in "$@"; do out+="$(printf '%q' "$a") "; done; printf '%s' "${out% }"; }
declare -A SPEED
speed() {  # NAME KIND ROOT
    local name="$1" kind="$2" root="$3" r
    local -a cmd peer exports=()
    mapfile -t cmd < <(ours_cmd "$kind" "$root")
    mapfile -t peer < <(peer_args "$kind")
    local ours_q peer_q
    ours_q="$(q "${cmd[@]}")"
    peer_q="$(q "$AIBURN" "${peer[@]}")"
    # Warm the page cache: every file once, then each command once.
    find "$root" -type f -name '*.jsonl' -exec cat {} + >/dev/null
    "${cmd[@]}" >/dev/null || die "unprompt-scan on $name"
    env "$(peer_env "$kind" "$root")" "$AIBURN" "${peer[@]}" >/dev/null || die "aiburn on $name"
    rm -f "$RESULTS/hyperfine-$name".*json
    # Both commands in one invocation. aiburn's variable is set for the whole invocation (ours ignores it, as
    # --root is given), so neither command pays for an `env` wrapper. hyperfine runs all runs of the first
    # command, then all of the second; BENCH_ROUNDS > 1 repeats the invocation with the order swapped each
    # time and pools the times, which alternates the commands more finely on a noisy machine.
    if [ "$ROUNDS" -le 1 ]; then
        env "$(peer_env "$kind" "$root")" hyperfine -N --warmup "$WARMUP" --runs "$RUNS" --style basic \
            --export-json "$RESULTS/hyperfine-$name.json" -n ours "$ours_q" -n aiburn "$peer_q" \
            || die "hyperfine on $name"
        exports=("$RESULTS/hyperfine-$name.json")
    else
        local per=$(( (RUNS + ROUNDS - 1) / ROUNDS )) warm
        echo "$name: $ROUNDS hyperfine rounds of $per run(s) per command, order swapped every round"
        for ((r = 1; r <= ROUNDS; r++)); do
            warm=0; [ "$r" = 1 ] && warm="$WARMUP"
            local -a order=(-n ours "$ours_q" -n aiburn "$peer_q")
            [ $((r % 2)) = 0 ] && order=(-n aiburn "$peer_q" -n ours "$ours_q")
            env "$(peer_env "$kind" "$root")" hyperfine -N --warmup "$warm" --runs "$per" --style none \
                --export-json "$RESULTS/hyperfine-$name.r$r.json" "${order[@]}" >/dev/null \
                || die "hyperfine on $name (round $r)"
            exports+=("$RESULTS/hyperfine-$name.r$r.json")
        done
    fi
    SPEED[$name]="$(python3 "$REPORT" hyperfine "${exports[@]}")" || die "reading the hyperfine exports of $name"
    local -a v
    read -r -a v <<<"${SPEED[$name]}"
    printf '%s pooled: ours mean %.3f s ± %.3f (median %.3f, min %.3f, %d runs); aiburn mean %.3f s ± %.3f (median %.3f, min %.3f, %d runs)\n' \
        "$name" "${v[@]}"
}
speed claude-300 claude "$CLAUDE300"
speed codex-300 codex "$CODEX300"
speed claude-30 claude "$CLAUDE30"
# The 3 GB tree: 3 runs each (about 2 s a run here, more for aiburn).
if [ "$LARGE" = 1 ]; then RUNS=3 WARMUP=1 ROUNDS=3 speed claude-3000 claude "$DATA/claude-3000"; fi
BUSY_AFTER="$(cpu_busy_pct)"
echo "CPU busy after timing: $BUSY_AFTER %"

# ---------------------------------------------------------------- 6. peak RSS
say "6. peak RSS (GNU time -v, median of 3)"
declare -A RSS_OURS RSS_PEER
rss() {  # NAME KIND ROOT
    local name="$1" kind="$2" root="$3" i
    local -a cmd peer files_ours=() files_peer=()
    mapfile -t cmd < <(ours_cmd "$kind" "$root")
    mapfile -t peer < <(peer_args "$kind")
    for i in 1 2 3; do
        /usr/bin/time -v -o "$RESULTS/time-ours-$name.$i.txt" "${cmd[@]}" >/dev/null \
            || die "unprompt-scan under time -v on $name"
        env "$(peer_env "$kind" "$root")" /usr/bin/time -v -o "$RESULTS/time-aiburn-$name.$i.txt" \
            "$AIBURN" "${peer[@]}" >/dev/null || die "aiburn under time -v on $name"
        files_ours+=("$RESULTS/time-ours-$name.$i.txt")
        files_peer+=("$RESULTS/time-aiburn-$name.$i.txt")
    done
    RSS_OURS[$name]="$(python3 "$REPORT" rss "${files_ours[@]}")" || die "parsing time -v output"
    RSS_PEER[$name]="$(python3 "$REPORT" rss "${files_peer[@]}")" || die "parsing time -v output"
    printf '%-11s ours %7.1f MB   aiburn %7.1f MB\n' "$name" \
        "$(awk "BEGIN{print ${RSS_OURS[$name]}/1024}")" "$(awk "BEGIN{print ${RSS_PEER[$name]}/1024}")"
}
rss claude-300 claude "$CLAUDE300"
rss codex-300 codex "$CODEX300"
rss claude-30 claude "$CLAUDE30"
if [ "$LARGE" = 1 ]; then rss claude-3000 claude "$DATA/claude-3000"; fi

# ---------------------------------------------------------------- 7. summary
say "7. summary"
row() {  # NAME -> results/row-NAME.json
    local name="$1"
    python3 - "$name" "${SPEED[$name]:-}" "${RSS_OURS[$name]:-}" "${RSS_PEER[$name]:-}" \
        >"$RESULTS/row-$name.json" <<'PY'
import json, sys
name, speed, ro, rp = sys.argv[1:]
v = [float(x) for x in speed.split()] if speed else [None] * 10
mo, mp = v[0], v[5]
print(json.dumps({
    "tree": name,
    "ours_mean_s": mo, "aiburn_mean_s": mp,
    "ratio": (mo / mp) if mo is not None and mp else None,
    "ours_rss_mb": (float(ro) / 1024) if ro else None, "aiburn_rss_mb": (float(rp) / 1024) if rp else None,
    "ours_stddev_s": v[1], "ours_median_s": v[2], "ours_min_s": v[3],
    "aiburn_stddev_s": v[6], "aiburn_median_s": v[7], "aiburn_min_s": v[8],
    "ratio_of_medians": (v[2] / v[7]) if speed and v[7] else None,
    "runs_per_command": int(v[4]) if speed else None,
    "ours_rss_kib": int(ro) if ro else None, "aiburn_rss_kib": int(rp) if rp else None,
}))
PY
}
row claude-300
row codex-300
row claude-30
SUMMARY_ROWS=("$RESULTS/row-claude-300.json" "$RESULTS/row-codex-300.json" "$RESULTS/row-claude-30.json")
if [ "$LARGE" = 1 ]; then row claude-3000; SUMMARY_ROWS+=("$RESULTS/row-claude-3000.json"); fi
commit="unknown"
dirty=""
if command -v git >/dev/null 2>&1 && git -C "$REPO_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    commit="$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    [ -z "$(git -C "$REPO_ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty="+dirty"
fi
python3 - "$RESULTS/meta.json" <<PY
import json, sys
json.dump({
    "date_utc": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
    "commit": "$commit$dirty",
    "cores": $(nproc),
    "load_average": "$(cut -d' ' -f1-3 /proc/loadavg)",
    "cpu_busy_pct_before_timing": $BUSY_BEFORE, "cpu_busy_pct_after_timing": $BUSY_AFTER,
    "hyperfine": "$HYPERFINE_VERSION", "runs": $RUNS, "warmup": $WARMUP, "rounds": $ROUNDS,
    "aiburn": "${AIBURN_VERSION:-unknown}",
    "goals": {"ratio_max": $RATIO_GOAL, "rss_mb_max": $RSS_GOAL_MB},
    "trees": {
        "claude-300": "bench/corpus claude --size-mb 300 --days 30 --seed 300",
        "codex-300": "bench/corpus codex --size-mb 300 --days 30 --seed 300",
        "claude-30": "bench/corpus claude --size-mb 30 --days 30 --seed 30",
        "claude-3000": "bench/corpus claude --size-mb 3072 --days 30 --seed 3000 (BENCH_LARGE=1 only)",
    },
    "correctness": "ok",
}, open(sys.argv[1], "w"), indent=1)
PY
python3 "$REPORT" summary "$DATA/summary.json" "$RESULTS/meta.json" "${SUMMARY_ROWS[@]}"

# ---------------------------------------------------------------- 8. the store
# A cold scan into a new store against aiburn (same hyperfine invocation, alternating), the store's totals
# checked exactly, the cold scan's peak RSS, and a rescan with nothing new (stat only): the whole process
# (hyperfine) and the scan itself (as the scan reports it: what a long-running `watch` pays for a rescan).
say "8. scanning into the store"
scan_env() {  # KIND ROOT -> the environment of a scan of ROOT (and of nothing else on this machine)
    local var=CLAUDE_CONFIG_DIR
    [ "$1" = codex ] && var=CODEX_HOME
    printf '%s\n' "HOME=$DATA/.empty-home" "$var=$2"
}
store_bench() {  # NAME KIND ROOT COLD-RUNS
    local name="$1" kind="$2" root="$3" cold_runs="$4" r
    local store="$DATA/store-$name.sqlite"
    local -a peer envs exports=()
    mapfile -t peer < <(peer_args "$kind")
    mapfile -t envs < <(scan_env "$kind" "$root")
    local scan_q peer_q
    scan_q="$(q env "${envs[@]}" "$BIN" --store "$store")"
    peer_q="$(q env "${envs[1]}" "$AIBURN" "${peer[@]}")"
    mkdir -p "$DATA/.empty-home"
    rm -f "$RESULTS/hyperfine-store-cold-$name".*json
    for ((r = 1; r <= cold_runs; r++)); do
        local -a order=(-n cold-scan "$scan_q" -n aiburn "$peer_q")
        [ $((r % 2)) = 0 ] && order=(-n aiburn "$peer_q" -n cold-scan "$scan_q")
        hyperfine -N --warmup 0 --runs 1 --style none --prepare "rm -f $store $store-wal $store-shm" \
            --export-json "$RESULTS/hyperfine-store-cold-$name.r$r.json" "${order[@]}" >/dev/null \
            || die "hyperfine (cold scan) on $name, round $r"
        exports+=("$RESULTS/hyperfine-store-cold-$name.r$r.json")
    done
    rm -f "$store" "$store-wal" "$store-shm"
    /usr/bin/time -v -o "$RESULTS/time-store-cold-$name.txt" env "${envs[@]}" \
        "$BIN" --store "$store" >/dev/null || die "cold scan under time -v on $name"
    python3 "$REPORT" store-check "$store" "$root/expected_totals.json" || die "store totals on $name"
    hyperfine -N --warmup 3 --runs 30 --style none --export-json "$RESULTS/hyperfine-store-rescan-$name.json" \
        -n rescan "$scan_q" >/dev/null || die "hyperfine (rescan) on $name"
    local i
    for i in $(seq 10); do
        env "${envs[@]}" "$BIN" --store "$store" --json
    done >"$RESULTS/store-rescan-inprocess-$name.jsonl" || die "rescan on $name"
    python3 "$REPORT" store-row "$name" "$(find "$root" -name '*.jsonl' | wc -l)" "$RESULTS/time-store-cold-$name.txt" \
        "$RESULTS/hyperfine-store-rescan-$name.json" "$RESULTS/store-rescan-inprocess-$name.jsonl" "${exports[@]}" \
        >"$RESULTS/store-row-$name.json" || die "store summary of $name"
}
COLD_RUNS="${BENCH_COLD_RUNS:-10}"
store_bench claude-300 claude "$CLAUDE300" "$COLD_RUNS"
store_bench codex-300 codex "$CODEX300" "$COLD_RUNS"
store_bench claude-30 claude "$CLAUDE30" "$COLD_RUNS"
STORE_ROWS=("$RESULTS/store-row-claude-300.json" "$RESULTS/store-row-codex-300.json" "$RESULTS/store-row-claude-30.json")
if [ "$LARGE" = 1 ]; then
    store_bench claude-3000 claude "$DATA/claude-3000" 3
    STORE_ROWS+=("$RESULTS/store-row-claude-3000.json")
fi
python3 "$REPORT" store-summary "$DATA/store-summary.json" "${STORE_ROWS[@]}"

# ---------------------------------------------------------------- 8b. the status line
# `statusline` as Claude Code runs it, each time its status line is drawn: on a copy of the claude-300 store, the
# clock 10 minutes after its last quarter-hour (milliseconds, as UNPROMPT_NOW takes them), Claude Code's payload on
# stdin with the readings already recorded (nothing new). hyperfine 1.15 has no --input, so the command runs
# through the shell, whose own start-up hyperfine measures and subtracts. Goal: at most 10 ms for the whole process.
say "8b. statusline with nothing new (goal: at most 10 ms)"
STATUS_STORE="$DATA/store-statusline.sqlite"
rm -f "$STATUS_STORE" "$STATUS_STORE-wal" "$STATUS_STORE-shm"
cp "$DATA/store-claude-300.sqlite" "$STATUS_STORE"
NOW_MS="$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT max(quarter) FROM buckets").fetchone()[0] * 900000 + 600000)' "$STATUS_STORE")" \
    || die "reading the store's last quarter-hour"
PAYLOAD="$RESULTS/statusline-payload.json"
python3 -c 'import json, sys
now = int(sys.argv[1]) // 1000
print(json.dumps({"session_id": "bench", "transcript_path": "/bench/x.jsonl", "cwd": "/bench", "model": {"id": "claude-sonnet-4-5"},
    "rate_limits": {"five_hour": {"used_percentage": 42, "resets_at": now + 7200},
                    "seven_day": {"used_percentage": 18, "resets_at": now + 300000}}}))' "$NOW_MS" >"$PAYLOAD"
UNPROMPT_NOW="$NOW_MS" "$BIN" statusline --store "$STATUS_STORE" <"$PAYLOAD" || die "statusline"
UNPROMPT_NOW="$NOW_MS" hyperfine --warmup 5 --runs 60 --style basic --export-json "$RESULTS/hyperfine-statusline.json" \
    -n statusline "$(q "$BIN" statusline --store "$STATUS_STORE") < $(q "$PAYLOAD")" || die "hyperfine (statusline)"
python3 "$REPORT" statusline "$DATA/statusline-summary.json" "$RESULTS/hyperfine-statusline.json" || die "statusline summary"

# ---------------------------------------------------------------- 9. one line appended, and the watch
# One record appended to the largest history (3 GB with BENCH_LARGE=1, else 300 MB), then a plain scan of its store:
# the whole process, as a statusline or a hook would run it. Then `watch` on the 300 MB store: how long an appended
# line takes to reach the store, and how much CPU the watch uses while nothing changes. The appended records go to
# a file of their own, removed afterwards, so the trees stay as generated.
say "9. one line appended, and the watch"
APPEND_TREE=claude-300
[ "$LARGE" = 1 ] && APPEND_TREE=claude-3000
APPEND_DIRS=("$DATA/$APPEND_TREE/projects/-bench-append" "$CLAUDE300/projects/-bench-watch")
trap 'rm -rf "${APPEND_DIRS[@]}"' EXIT
mkdir -p "${APPEND_DIRS[@]}"
mapfile -t envs < <(scan_env claude "$DATA/$APPEND_TREE")
hyperfine -N --warmup 1 --runs 20 --style none \
    --prepare "python3 $REPORT append-record ${APPEND_DIRS[0]}/append.jsonl" \
    --export-json "$RESULTS/hyperfine-append-$APPEND_TREE.json" \
    -n append "$(q env "${envs[@]}" "$BIN" --store "$DATA/store-$APPEND_TREE.sqlite")" >/dev/null \
    || die "hyperfine (one line appended) on $APPEND_TREE"
mapfile -t envs < <(scan_env claude "$CLAUDE300")
python3 "$REPORT" watch-latency "$RESULTS/watch.json" 10 "${APPEND_DIRS[1]}/append.jsonl" -- \
    env "${envs[@]}" "$BIN" watch --store "$DATA/store-claude-300.sqlite" --json || die "watch latency"
rm -rf "${APPEND_DIRS[@]}"
python3 - "$RESULTS/extra.json" "$APPEND_TREE" "$RESULTS/hyperfine-append-$APPEND_TREE.json" "$RESULTS/watch.json" <<'PY'
import json, sys
out, tree, append, watch = sys.argv[1:]
a = json.load(open(append))["results"][0]
w = json.load(open(watch))
json.dump({"append_tree": tree, "append_median_ms": a["median"] * 1000, "append_mean_ms": a["mean"] * 1000,
           "watch_median_ms": w["median_ms"], "watch_idle_cpu_ms_per_s": w["idle_cpu_ms_per_s"]},
          open(out, "w"), indent=1)
PY

# ---------------------------------------------------------------- 10. merging a sync folder (issue 16)
# 30 devices x one year of exports (bench/exports.py), merged into a new store, checked exactly, then timed.
say "10. merging a sync folder"
BENCH_DATA="$DATA" bash "$REPO_ROOT/bench/sync.sh" "$BIN" || die "the sync folder benchmark"

# ---------------------------------------------------------------- 11. every goal in one table
say "11. goals"
BUSY_END="$(cpu_busy_pct)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), CPU busy now: $BUSY_END % (before the timing: $BUSY_BEFORE %)"
python3 "$REPORT" goals "$DATA/goals.json" "$DATA/summary.json" "$DATA/store-summary.json" "$RESULTS/extra.json"
