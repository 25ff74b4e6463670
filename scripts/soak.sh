#!/usr/bin/env bash
# Soak: runs the concurrency hammer, the differential tests with fresh seeds and the C core's
# fuzzer for SOAK_MINUTES (default 10) in all, then prints operations per second and peak memory
# of each. Not part of `make test`. Usage: make soak [SOAK_MINUTES=N] [FASTDELEGATES_SEED=S]
#
# Time: 40% hammer, 30% differential, 30% fuzzer (the builds before are not counted).
#  - Hammer: Tests/FastDelegatesTests/Concurrent/ConcurrentStressTests (four threads sending,
#    mutating and letting targets die) under ThreadSanitizer, for the whole share in one process
#    (FASTDELEGATES_STRESS_SECONDS); its resident memory is sampled every 5 s.
#  - Differential: ChainDifferentialTests, every chain against one model (under ThreadSanitizer)
#    again and again with fresh seeds (FASTDELEGATES_SEED), until the share is used up.
#  - Fuzzer: Fuzz/run.sh (ASan, UBSan, LeakSanitizer, libFuzzer) for the share.
#
# Fails on: any failed test or divergence (the seed is printed; rerun with FASTDELEGATES_SEED),
# any sanitizer report, a fuzzer crash, or memory growth beyond these bounds:
#  - hammer: the highest resident size sampled in the last quarter of its run may exceed the
#    highest of its first quarter by at most 25% + 64 MiB (a leak per send or per mutation grows
#    without bound; sanitizer shadow and allocator caches level off);
#  - differential: no run's peak may exceed the first run's by more than 25% + 64 MiB;
#  - fuzzer: libFuzzer's -rss_limit_mb=1024 (it stops with an error beyond it).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MINUTES="${SOAK_MINUTES:-10}"
case "$MINUTES" in (''|*[!0-9]*) echo "soak: SOAK_MINUTES must be a whole number" >&2; exit 2;; esac
TOTAL=$((MINUTES * 60))
HAMMER=$((TOTAL * 40 / 100)); DIFF=$((TOTAL * 30 / 100)); FUZZ=$((TOTAL - HAMMER - DIFF))
SEED="${FASTDELEGATES_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
LOGS="$ROOT/.build-soak"
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log "$LOGS"/*.rss
SCRATCH=.build-tsan
FAILED=0
fail() { echo "soak: FAILED: $*" >&2; FAILED=1; }

echo "soak: ${MINUTES} min: hammer ${HAMMER}s, differential ${DIFF}s, fuzzer ${FUZZ}s; first seed ${SEED}"
echo "soak: building the tests under ThreadSanitizer (not timed)"
# SwiftPM 6.3 fails a second build of a sanitizer scratch path with "unknown build description";
# without its cached build description it builds incrementally as it should.
rm -f "$SCRATCH/debug.yaml" "$SCRATCH/plugin-tools.yaml" "$SCRATCH/debug/description.json"
if ! swift build --build-tests --sanitize=thread --scratch-path "$SCRATCH" >"$LOGS/build.log" 2>&1; then
    tail -30 "$LOGS/build.log"; echo "soak: build failed" >&2; exit 1
fi

export FASTDELEGATES_SOAK=1 FASTDELEGATES_TEST_SCALE=sanitizer
export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
# The test binary itself (`swift test --skip-build` on that scratch path meets the same bug).
SWIFT_TEST=("$ROOT/$SCRATCH/debug/FastDelegatesPackageTests.xctest" --testing-library swift-testing)

# The peak resident size (KiB) /usr/bin/time -v reported in a log.
peak_kib() { awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$1" | tail -1; }
sanitizer_reports() { grep -E "WARNING: ThreadSanitizer|ERROR: (Address|Leak|Thread)Sanitizer|runtime error:" "$@" | head -5; }
within_bound() { # within_bound LATER_KIB EARLIER_KIB: LATER <= 1.25 * EARLIER + 64 MiB
    [ "$1" -le $(( $2 * 125 / 100 + 65536 )) ]
}

# MARK: Hammer
echo "soak: hammer for ${HAMMER}s"
hammer_seconds=$((HAMMER > 20 ? HAMMER - 10 : 10))
start=$(date +%s)
FASTDELEGATES_SEED="$SEED" FASTDELEGATES_STRESS_SECONDS="$hammer_seconds" \
    /usr/bin/time -v "${SWIFT_TEST[@]}" --filter "ConcurrentStressTests" >"$LOGS/hammer.log" 2>&1 &
runner=$!
# Sample the test process's resident size.
while kill -0 "$runner" 2>/dev/null; do
    # The newest match is the test binary itself (not /usr/bin/time or timeout, which name it too).
    pid="$(pgrep -n -f "$ROOT/$SCRATCH/.*PackageTests" || true)"
    if [ -n "$pid" ]; then
        rss="$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)"
        [ -n "$rss" ] && echo "$(( $(date +%s) - start )) $rss" >>"$LOGS/hammer.rss"
    fi
    sleep 5
done
wait "$runner"; status=$?
elapsed=$(( $(date +%s) - start ))
[ "$status" -eq 0 ] || fail "hammer (exit $status; see $LOGS/hammer.log)"
reports="$(sanitizer_reports "$LOGS/hammer.log")"; [ -z "$reports" ] || fail "hammer sanitizer report: $reports"
sends=$(awk '/soak: hammer/ { s += $4 } END { print s + 0 }' "$LOGS/hammer.log")
mutations=$(awk '/soak: hammer/ { s += $6 } END { print s + 0 }' "$LOGS/hammer.log")
deaths=$(awk '/soak: hammer/ { s += $8 } END { print s + 0 }' "$LOGS/hammer.log")
hammer_peak=$(peak_kib "$LOGS/hammer.log")
if [ -s "$LOGS/hammer.rss" ]; then
    last=$(tail -1 "$LOGS/hammer.rss" | cut -d' ' -f1)
    early=$(awk -v q=$((last / 4)) '$1 <= q && $2 > m { m = $2 } END { print m + 0 }' "$LOGS/hammer.rss")
    late=$(awk -v q=$((last * 3 / 4)) '$1 >= q && $2 > m { m = $2 } END { print m + 0 }' "$LOGS/hammer.rss")
    echo "soak: hammer resident size: first quarter up to ${early} KiB, last quarter up to ${late} KiB"
    within_bound "$late" "$early" || fail "hammer memory grew from ${early} KiB to ${late} KiB"
fi
echo "soak: hammer: ${sends} sends, ${mutations} mutations, ${deaths} short-lived targets in ${elapsed}s" \
    "($(( sends / (hammer_seconds > 0 ? hammer_seconds : 1) )) sends/s, $(( mutations / (hammer_seconds > 0 ? hammer_seconds : 1) )) mutations/s);" \
    "peak ${hammer_peak:-?} KiB"

# MARK: Differential
echo "soak: differential tests with fresh seeds for ${DIFF}s"
start=$(date +%s); runs=0; operations=0; first_peak=""; diff_peak=0
while [ $(( $(date +%s) - start )) -lt "$DIFF" ]; do
    seed=$(( SEED + 1000 + runs * 16 ))
    log="$LOGS/differential-$runs.log"
    remaining=$(( DIFF - ($(date +%s) - start) ))
    # The run in progress when the share ends is cut short; its finished seeds still count.
    FASTDELEGATES_SEED="$seed" /usr/bin/time -v timeout --signal=TERM "$remaining" "${SWIFT_TEST[@]}" \
        --filter "FastDelegatesTests\.ChainDifferentialTests" >"$log" 2>&1
    status=$?
    cut=0
    [ "$status" -eq 124 ] && cut=1
    [ "$status" -eq 0 ] || [ "$cut" -eq 1 ] || { fail "differential, FASTDELEGATES_SEED=$seed (exit $status; see $log)"; break; }
    reports="$(sanitizer_reports "$log")"; [ -z "$reports" ] || { fail "differential sanitizer report: $reports"; break; }
    operations=$(( operations + $(awk '/soak: differential .* seed/ { s += $(NF - 1) } END { print s + 0 }' "$log") ))
    peak=$(peak_kib "$log")
    first_peak="${first_peak:-$peak}"
    [ "$peak" -gt "$diff_peak" ] && diff_peak=$peak
    within_bound "$peak" "$first_peak" || fail "differential run $runs peaked at ${peak} KiB, the first at ${first_peak} KiB"
    runs=$((runs + 1))
    [ "$cut" -eq 0 ] || break
done
elapsed=$(( $(date +%s) - start ))
echo "soak: differential: ${runs} runs, the last maybe cut short (seeds from $(( SEED + 1000 )), step 16), ${operations} operations in ${elapsed}s" \
    "($(( operations / (elapsed > 0 ? elapsed : 1) )) operations/s); peak ${diff_peak} KiB"

# MARK: Fuzzer
echo "soak: fuzzer for ${FUZZ}s"
CDT_FUZZ_FLAGS="-rss_limit_mb=1024 ${CDT_FUZZ_FLAGS:-}" /usr/bin/time -v Fuzz/run.sh "$FUZZ" >"$LOGS/fuzz.log" 2>&1
status=$?
[ "$status" -eq 0 ] || fail "fuzzer (exit $status; see $LOGS/fuzz.log and Fuzz/artifacts/)"
executions=$(awk '/^executions:/ { print $2 }' "$LOGS/fuzz.log")
echo "soak: fuzzer: ${executions:-0} inputs in ${FUZZ}s ($(( ${executions:-0} / (FUZZ > 0 ? FUZZ : 1) )) inputs/s); peak $(peak_kib "$LOGS/fuzz.log") KiB"

if [ "$FAILED" -ne 0 ]; then
    echo "soak: FAILED (logs in $LOGS)" >&2
    exit 1
fi
echo "soak: OK (logs in $LOGS)"
