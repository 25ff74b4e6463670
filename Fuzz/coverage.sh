#!/usr/bin/env bash
# Line and branch coverage of the C core reached by the fuzzer in SECONDS (default 60).
# Usage: Fuzz/coverage.sh [SECONDS]
#
# Builds the harness with source-based coverage (-fprofile-instr-generate -fcoverage-mapping,
# libFuzzer, no sanitizers so more inputs run per second), fuzzes from a fresh copy of the
# committed seeds in Fuzz/corpus (never from corpus-work/, so two runs of the same length are
# comparable), then prints llvm-cov's per-file line and branch summary for
# Sources/CDispatchTable. The annotated sources (uncovered lines and branches marked) go to
# Fuzz/build-coverage/coverage.txt. Exits non-zero if the fuzzer finds a crash.
set -euo pipefail

# clang, llvm-profdata and llvm-cov must come from one LLVM: take them from the same directory.
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh" coverage.sh "${1:-60}" /opt/swift/usr/bin/clang clang
TOOLS="$(dirname "$CC")"
PROFDATA="$TOOLS/llvm-profdata"; COV="$TOOLS/llvm-cov"
[ -x "$PROFDATA" ] && [ -x "$COV" ] || { echo "coverage.sh: llvm-profdata/llvm-cov not next to $CC" >&2; exit 2; }

BUILD="$FUZZ_DIR/build-coverage"
rm -rf "$BUILD"
mkdir -p "$BUILD/corpus" "$BUILD/artifacts"
cp "$FUZZ_DIR"/corpus/* "$BUILD/corpus/"

echo "coverage.sh: building with $CC"
"$CC" -std=c11 -O1 -g -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
    -Wall -Wextra -Werror -Iinclude "${EXTRA[@]}" \
    "$FUZZ_DIR/cdt_fuzz.c" "${CORE_SOURCES[@]}" "${LIBS[@]}" -o "$BUILD/cdt_fuzz_cov"

echo "coverage.sh: fuzzing for ${SECONDS_TO_RUN}s"
set +e
LLVM_PROFILE_FILE="$BUILD/fuzz-%p.profraw" timeout --signal=KILL "$((SECONDS_TO_RUN + 45))" \
    "$BUILD/cdt_fuzz_cov" -max_total_time="$SECONDS_TO_RUN" -print_final_stats=1 -timeout=10 -max_len=4096 \
    -artifact_prefix="$BUILD/artifacts/" "$BUILD/corpus" >"$BUILD/fuzz.log" 2>&1
STATUS=$?
set -e
grep -o 'stat::number_of_executed_units: *[0-9]*' "$BUILD/fuzz.log" | awk '{print "executions: " $2}' || true
if [ "$STATUS" -ne 0 ]; then
    grep -E "CHECK FAILED|ERROR|SUMMARY" "$BUILD/fuzz.log" | head -20 || true
    echo "coverage.sh: fuzzer exit status $STATUS; see $BUILD/fuzz.log" >&2
    exit 1
fi

"$PROFDATA" merge -sparse "$BUILD"/fuzz-*.profraw -o "$BUILD/fuzz.profdata"
"$COV" report "$BUILD/cdt_fuzz_cov" -instr-profile="$BUILD/fuzz.profdata" -show-branch-summary \
    -show-region-summary=false -show-instantiation-summary=false "${CORE_SOURCES[@]}" | tee "$BUILD/summary.txt"
"$COV" show "$BUILD/cdt_fuzz_cov" -instr-profile="$BUILD/fuzz.profdata" -show-branches=count \
    -show-line-counts-or-regions "${CORE_SOURCES[@]}" >"$BUILD/coverage.txt"
echo "coverage.sh: annotated sources in $BUILD/coverage.txt"
