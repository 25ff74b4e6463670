#!/usr/bin/env bash
# Instructions per dispatch of a void "scroll tick", counted by valgrind's callgrind, for the
# benchmark's variants (a release build, so measured from a separate module, as users call it).
# Usage: scripts/callgrind.sh [VARIANTS] [TARGET COUNTS]
#   e.g. scripts/callgrind.sh "fastdelegates-weak handwritten-weak-var" "1 4 16"
# Each figure is (instructions of 11,000 dispatches - instructions of 1,000) / 10,000, so set-up
# and process start cancel out. Needs valgrind (apt-get install -y valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
VARIANTS="${1:-fastdelegates-weak fastdelegates-weak-reference fastdelegates-strong handwritten-weak-var strong-array}"
COUNTS="${2:-1 4 16}"
command -v valgrind >/dev/null || { echo "callgrind.sh: install valgrind first" >&2; exit 2; }
swift build -c release --product fastdelegates-bench >/dev/null
BIN="$(swift build -c release --show-bin-path)/fastdelegates-bench"
# valgrind 3.19 cannot read the toolchain's DWARF 5; instruction counts need no debug info.
STRIPPED="$(dirname "$BIN")/fastdelegates-bench.stripped" # beside it, for its $ORIGIN libraries
trap 'rm -f "$STRIPPED" callgrind.out.fd.*' EXIT
cp "$BIN" "$STRIPPED" && strip -g "$STRIPPED"
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="callgrind.out.fd.$$" "$STRIPPED" \
        --profile "$1" --filter "tick/$2" --targets "$3" 2>&1 >/dev/null | awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}
printf "%-26s %4s %14s\n" variant N "instr/dispatch"
for variant in $VARIANTS; do
    for n in $COUNTS; do
        small=$(instructions 1000 "$variant" "$n")
        large=$(instructions 11000 "$variant" "$n")
        printf "%-26s %4s %14s\n" "$variant" "$n" "$(( (large - small) / 10000 ))"
    done
done
