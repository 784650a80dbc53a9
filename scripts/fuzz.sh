#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer target (Fuzz/, a package of its own) with the fuzzer and AddressSanitizer, seeds
# its corpus from the bundled readers and every fixture case, and fuzzes for FUZZ_SECONDS (default 600). A crash, a
# hang (FUZZ_TIMEOUT seconds for one input) or memory past FUZZ_RSS_MB fails the run, and leaves the input that
# caused it in .build/fuzz/ (replay it: .build/fuzz/UnpromptFuzz FILE). Inputs that reached new code are kept in
# .build/fuzz/corpus for the next run.
# FUZZ_SEED=N (not 0) and FUZZ_RUNS=N make a run repeatable: the same mutations in the same order, with Swift's
# hashing made deterministic and addresses fixed too, stopping after N inputs (or FUZZ_SECONDS, whichever comes first). CI runs so (on a
# corpus of its own, emptied first), so that its verdict is the code's and not the dice's; a plain `make fuzz` explores anew each time.
# Only Linux's toolchain links libFuzzer into Swift; elsewhere the run is skipped, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-600}"
if [ "$(uname -s)" != Linux ]; then
    echo "make fuzz: skipped: libFuzzer for Swift (-sanitize=fuzzer) is linked by the Linux toolchain only" >&2
    exit 0
fi
out=.build/fuzz
mkdir -p "$out/corpus"
# -enable-testing: the harness reaches the readers through `@testable import`, in an optimized build. The cached
# build manifest would miss a source file added to the main package (a dependency here), so it is made afresh.
${SWIFT:-swift} build -c release --package-path Fuzz --build-path "$out/build" --disable-build-manifest-caching \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing
binary="$out/build/release/UnpromptFuzz"
ln -sf "build/release/UnpromptFuzz" "$out/UnpromptFuzz"

# Seeds: each descriptor after a `yaml` line; each fixture file that is not a database, after its reader's id;
# sync exports after an `export` line.
rm -rf "$out/seeds" && mkdir -p "$out/seeds"
for file in readers/*.yaml; do
    { echo yaml; cat "$file"; } > "$out/seeds/yaml-$(basename "$file" .yaml)"
done
count=0
while IFS= read -r -d '' file; do
    reader="${file#Fixtures/}" && reader="${reader%%/*}"
    [ -f "readers/$reader.yaml" ] || continue
    [ "$(head -c 15 "$file")" = "SQLite format 3" ] && continue
    count=$((count + 1))
    { echo "$reader"; head -c 262144 "$file"; } > "$out/seeds/$reader-$count"
done < <(find Fixtures -type f ! -name expected.json ! -name README.md ! -name KNOWN-ISSUES -print0 | sort -z)
# Small sync exports of the merge benchmark's generator, after an `export` line: two of version 5 (days packed,
# each row's fields present) and two of version 4 (every field packed), which are still read.
rm -rf "$out/export-seeds"
for version in 5 4; do
    python3 bench/exports.py --root "$out/export-seeds/$version" --devices 2 --days 4 --seed 1 --version "$version" 2>/dev/null
    for file in "$out/export-seeds/$version"/*.export; do
        { echo export; cat "$file"; } > "$out/seeds/export-$version-$(basename "$file" .export)"
    done
done

# The bundled readers are compiled once, into a global that lives as long as the process. LeakSanitizer reports
# parts of it as lost because Swift keeps an enum's case in the spare bits of a class reference it holds, which hides
# the pointer from its scan; allocations of that one load are left out, and every input's own are still checked.
# Foundation's `_CFRegularExpressionCreate` (swift-corelibs-foundation, CFRegularExpression.c) copies a pattern longer
# than 256 UTF-16 units into a buffer it frees only when the pattern is refused: each such regex compiled leaks
# twice its length, once, outside this code. A descriptor's regexes are compiled once per load.
printf 'leak:UnpromptFuzz7readers\nleak:_CFRegularExpressionCreate\n' > "$out/lsan-suppressions"
seed="${FUZZ_SEED:-0}"
corpus="$out/corpus"
# Addresses reach the mutations too (libFuzzer keeps the operands of the comparisons it sees, pointers among them):
# a repeatable run also turns address randomization off, where the system lets it.
fixed=()
if [ "$seed" != 0 ]; then
    export SWIFT_DETERMINISTIC_HASHING=1
    corpus="$out/corpus-seed-$seed" && rm -rf "$corpus" && mkdir -p "$corpus"
    if setarch "$(uname -m)" -R true 2>/dev/null; then
        fixed=(setarch "$(uname -m)" -R)
    else
        echo "make fuzz: address randomization cannot be turned off here (setarch -R): the run may differ from another" >&2
    fi
fi
LSAN_OPTIONS="suppressions=$out/lsan-suppressions${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
UNPROMPT_FUZZ_READERS=readers "${fixed[@]}" "$binary" "$corpus" "$out/seeds" \
    -seed="$seed" -runs="${FUZZ_RUNS:--1}" -reload=0 \
    -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -max_len=262144 -artifact_prefix="$out/" -print_final_stats=1
