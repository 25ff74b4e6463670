#!/usr/bin/env bash
# Builds the CDispatchTable libFuzzer harness and runs it for SECONDS (default 60).
# Usage: Fuzz/run.sh [SECONDS]   (extra libFuzzer flags via CDT_FUZZ_FLAGS, e.g. "-jobs=2 -workers=2")
# Exits non-zero if the build fails or the fuzzer finds a crash/divergence.
set -euo pipefail

# Prefer the Swift toolchain's clang (ships the fuzzer runtime), then any clang on PATH.
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh" run.sh "${1:-60}" \
    /opt/swift/usr/bin/clang clang clang-21 clang-19 clang-18 clang-17 clang-16 clang-15 clang-14

BUILD="$FUZZ_DIR/build"
WORK_CORPUS="$FUZZ_DIR/corpus-work"      # generated corpus: git-ignored
ARTIFACTS="$FUZZ_DIR/artifacts"          # crash reproducers: git-ignored
mkdir -p "$BUILD" "$WORK_CORPUS" "$ARTIFACTS"

echo "run.sh: building with $CC"
"$CC" -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -Wall -Wextra -Werror -Iinclude "${EXTRA[@]}" \
    "$FUZZ_DIR/cdt_fuzz.c" "${CORE_SOURCES[@]}" \
    "${LIBS[@]}" -o "$BUILD/cdt_fuzz"

LOG="$BUILD/fuzz.log"
echo "run.sh: fuzzing for ${SECONDS_TO_RUN}s (log: $LOG)"
set +e
# The seeds in corpus/ are read-only inputs; new inputs go to corpus-work/.
# -timeout guards against a hang; the outer timeout guarantees SECONDS+60 overall.
timeout --signal=KILL "$((SECONDS_TO_RUN + 45))" \
    "$BUILD/cdt_fuzz" -max_total_time="$SECONDS_TO_RUN" -print_final_stats=1 -timeout=10 \
    -max_len=4096 -artifact_prefix="$ARTIFACTS/" ${CDT_FUZZ_FLAGS:-} \
    "$WORK_CORPUS" "$FUZZ_DIR/corpus" >"$LOG" 2>&1
STATUS=$?
set -e

grep -E "CHECK FAILED|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY|Test unit written|^  [a-z]" "$LOG" | head -40 || true
EXECS="$( { grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOG" || true; } | awk '{s += $2} END {print s + 0}')"
if [ "$EXECS" = "0" ]; then
    # -fork mode prints no final stats; take the last progress line ("#N: ...").
    EXECS="$( { grep -oE '^#[0-9]+' "$LOG" || true; } | tail -1 | tr -d '#')"
    EXECS="${EXECS:-0}"
fi
echo "executions: $EXECS"
if [ "$STATUS" -ne 0 ]; then
    echo "run.sh: FAILED (fuzzer exit status $STATUS); see $LOG and $ARTIFACTS/" >&2
    exit 1
fi
echo "run.sh: OK, no crash or divergence in ${SECONDS_TO_RUN}s"
