#!/usr/bin/env bash
# Instructions per dispatch of a void "scroll tick", counted by valgrind's callgrind, for the
# benchmark's variants (a release build, so measured from a separate module, as users call it).
#
# Usage:
#   scripts/callgrind.sh [VARIANTS] [TARGET COUNTS]   prints instructions per dispatch
#       e.g. scripts/callgrind.sh "fastdelegates-weak handwritten-weak-var" "1 4 16"
#   scripts/callgrind.sh --publish   measures the published variants at N = 4 and 16, fits
#       fixed + per-target instructions, and writes them to docs/callgrind.tsv and to the
#       marked section of docs/benchmarks.md, with the first-responder query of the variants
#       that answer it, and the lifecycle scenario's instructions per cycle at N = 1 and 4
#       (make bench runs it)
#   scripts/callgrind.sh --check     measures fastdelegates-weak at N = 4 and 16 and fails when
#       its per-target instructions exceed the figure in docs/callgrind.tsv by more than
#       CALLGRIND_TOLERANCE (default 1.10, i.e. 10 %) (make callgrind-check, part of make test)
#
# Each figure is (instructions of 11,000 dispatches - instructions of 1,000) / 10,000, so set-up
# and process start cancel out. Fixed + per-target come from N = 4 and N = 16:
# per target = (I16 - I4) / 12, fixed = I4 - 4 * per target.
#
# The lifecycle scenario (issue 53) counts cycles, not dispatches: create the dispatcher, add N
# listeners, send one message, destroy; each figure is (instructions of 1,100 cycles - of 100) /
# 1,000 (a cycle costs up to a few hundred thousand instructions).
#
# Environment: CALLGRIND_SCENARIO, what the print mode counts: tick (default), first (the
# non-void first-responder query) or lifecycle (instructions per cycle, e.g.
# CALLGRIND_SCENARIO=lifecycle scripts/callgrind.sh "$LIFECYCLE" "1 4"); CALLGRIND_SCRATCH, the build's scratch path (default .build); CALLGRIND_BIN, an
# already built fastdelegates-bench to measure as it is (no build: make callgrind-check passes
# the binary release-tests built); CALLGRIND_BUILD_FLAGS, extra `swift build` flags;
# CALLGRIND_ARGS, extra arguments of the benchmark, e.g. `--shift-code fastdelegates-weak=2` to
# count another copy of a variant's loop (every copy runs the same instructions).
# Needs valgrind: apt-get install -y valgrind (exit code 2 without it).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=print
case "${1:-}" in
--publish) MODE=publish; shift ;;
--check) MODE=check; shift ;;
-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac

# The published variants: every library variant, the hand-written forwarder that the proxy
# replaces, the two zeroing floors and the two references (concurrent-proxy: @DelegateProxy(concurrent: true)).
PUBLISHED="fastdelegates-weak fastdelegates-strong fastdelegates-weak-reference concurrent-weak concurrent-proxy handwritten-concurrent-forwarder fastdelegates-proxy fastdelegates-proxy-sparse handwritten-forwarder zeroing-floor unowned-safe strong-array handwritten-weak-var"
case $MODE in
print) VARIANTS="${1:-fastdelegates-weak fastdelegates-weak-reference fastdelegates-strong handwritten-weak-var strong-array}"; COUNTS="${2:-1 4 16}" ;;
publish) VARIANTS="${1:-$PUBLISHED}"; COUNTS="4 16" ;;
check) VARIANTS="fastdelegates-weak"; COUNTS="4 16" ;;
esac
SCENARIO=tick
[ "$MODE" = print ] && SCENARIO="${CALLGRIND_SCENARIO:-tick}"
# The variants of the published first-responder table (the floors answer no query).
FIRST_VARIANTS="fastdelegates-weak fastdelegates-strong concurrent-weak concurrent-proxy handwritten-concurrent-forwarder fastdelegates-proxy fastdelegates-proxy-sparse handwritten-forwarder handwritten-weak-var strong-array"
# The lifecycle scenario's variants, the hand-written forwarder (the ratio's reference) first.
LIFECYCLE_VARIANTS="handwritten-forwarder-lifecycle naive-weak-multicast-lifecycle fastdelegates-lifecycle concurrent-lifecycle fastdelegates-proxy-lifecycle fastdelegates-proxy8-lifecycle foundation-proxy-lifecycle"
TSV=docs/callgrind.tsv
REPORT=docs/benchmarks.md
TOLERANCE="${CALLGRIND_TOLERANCE:-1.10}"

if ! command -v valgrind >/dev/null; then
    echo "callgrind.sh: valgrind is not installed; install it with: apt-get install -y valgrind" >&2
    exit 2
fi
if [ "$MODE" = check ] && [ ! -f "$TSV" ]; then
    echo "callgrind.sh: $TSV is missing; write it with scripts/callgrind.sh --publish" >&2
    exit 1
fi

SCRATCH="${CALLGRIND_SCRATCH:-.build}"
if [ -n "${CALLGRIND_BIN:-}" ]; then
    BIN="$CALLGRIND_BIN"
    [ -x "$BIN" ] || { echo "callgrind.sh: $BIN is not an executable" >&2; exit 1; }
else
    # SwiftPM 6.3 fails a second build of a scratch path with "unknown build description" while
    # its cached description is there; without it the build is incremental as it should be.
    rm -f "$SCRATCH/release.yaml" "$SCRATCH/plugin-tools.yaml" "$SCRATCH/release/description.json"
    # shellcheck disable=SC2086 # CALLGRIND_BUILD_FLAGS is a list of flags
    swift build -c release --scratch-path "$SCRATCH" ${CALLGRIND_BUILD_FLAGS:-} --product fastdelegates-bench >/dev/null
    # Not `swift build --show-bin-path`: with SwiftPM 6.3 a second invocation in between makes the
    # next build of the scratch path fail ("unknown build description").
    BIN="$SCRATCH/release/fastdelegates-bench"
fi
# valgrind 3.19 cannot read the toolchain's DWARF 5; instruction counts need no debug info.
STRIPPED="$(dirname "$BIN")/fastdelegates-bench.stripped.$$" # beside it, for its $ORIGIN libraries
OUT="$(mktemp -d)"
trap 'rm -rf "$STRIPPED" "$OUT"' EXIT
cp "$BIN" "$STRIPPED" && strip -g "$STRIPPED"

instructions() { # dispatches variant N -> total instructions of the run (of $SCENARIO)
    # shellcheck disable=SC2086 # CALLGRIND_ARGS is a list of arguments
    valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" "$STRIPPED" \
        --profile "$1" --filter "$SCENARIO/$2" --targets "$3" ${CALLGRIND_ARGS:-} 2>&1 >/dev/null | awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}
per_dispatch() { # variant N -> instructions per dispatch (per cycle: lifecycle), one decimal
    local small large small_count=1000 large_count=11000
    if [ "$SCENARIO" = lifecycle ]; then small_count=100; large_count=1100; fi
    small=$(instructions "$small_count" "$1" "$2")
    large=$(instructions "$large_count" "$1" "$2")
    if [ -z "$small" ] || [ -z "$large" ]; then
        echo "callgrind.sh: no count for $1 N=$2 (unknown variant, or the run failed)" >&2
        exit 1
    fi
    awk -v s="$small" -v l="$large" -v d="$((large_count - small_count))" 'BEGIN { printf "%.1f", (l - s) / d }'
}

if [ "$MODE" = print ]; then
    printf "%-28s %4s %14s\n" variant N "instr/dispatch"
    for variant in $VARIANTS; do
        for n in $COUNTS; do
            printf "%-28s %4s %14s\n" "$variant" "$n" "$(per_dispatch "$variant" "$n")"
        done
    done
    exit 0
fi

# N = 4 and 16 of each variant, with the fit: variant, I4, I16, fixed, per target.
printf "%-28s %10s %10s %8s %11s\n" variant "N = 4" "N = 16" fixed "per target"
: >"$OUT/fit"
for variant in $VARIANTS; do
    i4=$(per_dispatch "$variant" 4)
    i16=$(per_dispatch "$variant" 16)
    read -r fixed per < <(awk -v a="$i4" -v b="$i16" 'BEGIN { p = (b - a) / 12; printf "%.1f %.1f\n", a - 4 * p, p }')
    printf "%-28s %10s %10s %8s %11s\n" "$variant" "$i4" "$i16" "$fixed" "$per"
    printf "%s\t%s\t%s\t%s\t%s\n" "$variant" "$i4" "$i16" "$fixed" "$per" >>"$OUT/fit"
done

if [ "$MODE" = check ]; then
    read -r _ _ _ fixed per <"$OUT/fit"
    committed=$(awk -F'\t' '$1 == "fastdelegates-weak" { print $5 }' "$TSV")
    [ -n "$committed" ] || { echo "callgrind.sh: no fastdelegates-weak row in $TSV" >&2; exit 1; }
    limit=$(awk -v c="$committed" -v t="$TOLERANCE" 'BEGIN { printf "%.1f", c * t }')
    if awk -v p="$per" -v l="$limit" 'BEGIN { exit !(p > l) }'; then
        echo "callgrind-check: FAILED: fastdelegates-weak costs $per instructions per target, above $limit" \
            "($TOLERANCE x the committed $committed in $TSV)" >&2
        exit 1
    fi
    echo "callgrind-check: fastdelegates-weak $per instructions per target (fixed $fixed);" \
        "committed $committed, limit $limit ($TOLERANCE x)"
    exit 0
fi

# --publish: the first-responder query too (N = 4 and 16; it stops at the first responder).
SCENARIO=first
: >"$OUT/first"
for variant in $FIRST_VARIANTS; do
    printf "%s\t%s\t%s\n" "$variant" "$(per_dispatch "$variant" 4)" "$(per_dispatch "$variant" 16)" >>"$OUT/first"
done

# --publish: the proxy's bars at N = 1 too (issue 32): the proxy within 5 instructions of the inline
# send, and listeners that implement no requirement (fastdelegates-proxy-sparse: 3 of them before
# each of the N implementing ones) costing at most 5 instructions each at steady state.
SCENARIO=tick
: >"$OUT/bars"
for variant in fastdelegates-weak fastdelegates-proxy fastdelegates-proxy-sparse; do
    printf "%s\t%s\t%s\t%s\n" "$variant" "$(per_dispatch "$variant" 1)" "$(per_dispatch "$variant" 4)" \
        "$(per_dispatch "$variant" 16)" >>"$OUT/bars"
done

# --publish: the lifecycle scenario (issue 53), instructions per create, add, send once, destroy
# cycle at N = 1 and 4.
SCENARIO=lifecycle
: >"$OUT/lifecycle"
for variant in $LIFECYCLE_VARIANTS; do
    printf "%s\t%s\t%s\n" "$variant" "$(per_dispatch "$variant" 1)" "$(per_dispatch "$variant" 4)" >>"$OUT/lifecycle"
done

# The committed figures (read by --check) and the section of the report.
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git status --porcelain -uno -- Sources include Package.swift 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes)"
fi
swift_version="$(swift --version 2>/dev/null | head -n 1)"
valgrind_version="$(valgrind --version)"
{
    printf "# variant\tN=4\tN=16\tfixed\tper_target\t(instructions per void dispatch; scripts/callgrind.sh --publish, commit %s)\n" "$commit"
    cat "$OUT/fit"
    printf "# lifecycle variant\tN=1\tN=4\t(instructions per create, add N listeners, send once, destroy cycle)\n"
    cat "$OUT/lifecycle"
} >"$TSV"
python3 - "$REPORT" "$OUT/fit" "$OUT/first" "$OUT/bars" "$commit" "$swift_version" "$valgrind_version" "$OUT/lifecycle" <<'PY'
import sys

report, fit, first, bars, commit, swift, valgrind, lifecycle = sys.argv[1:]
lifecycle_rows = [line.rstrip("\n").split("\t") for line in open(lifecycle) if line.strip()]
bar_rows = {line.split("\t")[0]: [float(x) for x in line.rstrip("\n").split("\t")[1:]] for line in open(bars) if line.strip()}
rows = [line.rstrip("\n").split("\t") for line in open(fit) if line.strip()]
first_rows = [line.rstrip("\n").split("\t") for line in open(first) if line.strip()]
by_name = {r[0]: r for r in rows}
BEGIN = "<!-- callgrind:begin (scripts/callgrind.sh --publish writes this section; do not edit) -->"
END = "<!-- callgrind:end -->"


def ratio(row, floor, column):
    base = by_name.get(floor)
    if base is None or float(base[column]) <= 0:
        return "–"
    return f"{float(row[column]) / float(base[column]):.2f}×"


def diff(row, floor, column):
    base = by_name.get(floor)
    if base is None:
        return "–"
    return f"{float(row[column]) - float(base[column]):+.1f}"


lines = [
    BEGIN,
    "",
    "## Instructions per dispatch (callgrind)",
    "",
    "Instructions of one void tick dispatch, counted by valgrind's callgrind (exact and repeatable, "
    "unlike the timings): `scripts/callgrind.sh --publish`, run by `make bench`, on the release "
    "build of commit " + commit + ", " + swift + ", " + valgrind + ". Each count is (11,000 dispatches "
    "− 1,000) / 10,000; fixed + per target is fitted from N = 4 and N = 16. `zeroing-floor` is what "
    "a memory-safe zeroing call needs from the Swift runtime (`swift_tryRetain`, the call, "
    "`swift_release`, on targets kept by `swift_unownedRetain`); `unowned-safe` is a Swift "
    "`unowned let` array.",
    "",
    "| variant | N = 4 | N = 16 | fixed | per target | per target × zeroing-floor | fixed − zeroing-floor's "
    "| per target × strong-array |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
]
for r in rows:
    lines.append(
        f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {ratio(r, 'zeroing-floor', 4)} "
        f"| {diff(r, 'zeroing-floor', 3)} | {ratio(r, 'strong-array', 4)} |"
    )
lines += [
    "",
    "The non-void first-responder query (`send` of a message with an answer, which stops at the "
    "first live responder), instructions per query, counted the same way:",
    "",
    "| variant | N = 4 | N = 16 |",
    "|---|---:|---:|",
]
lines += [f"| {r[0]} | {r[1]} | {r[2]} |" for r in first_rows]
weak, proxy, sparse = (bar_rows.get(v) for v in ("fastdelegates-weak", "fastdelegates-proxy", "fastdelegates-proxy-sparse"))
if weak and proxy and sparse:
    lines += [
        "",
        "The proxy's bars, instructions per void tick dispatch at N = 1, 4 and 16: a `@DelegateProxy` "
        "proxy against the same send written inline (bar: at most +5), and `fastdelegates-proxy-sparse` "
        "(the proxy with 3N more listeners that implement no requirement, each learnt after one send) "
        "against `fastdelegates-proxy`, per listener that implements nothing (bar: at most 5):",
        "",
        "| N | fastdelegates-weak | fastdelegates-proxy | proxy − weak | fastdelegates-proxy-sparse "
        "| (sparse − proxy) / 3N |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for i, n in enumerate((1, 4, 16)):
        lines.append(
            f"| {n} | {weak[i]:.1f} | {proxy[i]:.1f} | {proxy[i] - weak[i]:+.1f} | {sparse[i]:.1f} "
            f"| {(sparse[i] - proxy[i]) / (3 * n):+.2f} |"
        )
if lifecycle_rows:
    reference = lifecycle_rows[0]
    lines += [
        "",
        "The lifecycle scenario (issue 53): instructions per cycle (create the dispatcher, add N "
        "listeners, send one message, destroy), (1,100 cycles − 100) / 1,000, and the ratio to "
        f"`{reference[0]}`, a final class with one `weak var` per listener. Heap bytes and blocks "
        "per live instance: the lifecycle section above.",
        "",
        "| variant | N = 1 | × hand-written | N = 4 | × hand-written |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in lifecycle_rows:
        cells = []
        for column in (1, 2):
            base = float(reference[column])
            cells += [r[column], f"{float(r[column]) / base:.1f}×" if base > 0 else "–"]
        lines.append(f"| {r[0]} | " + " | ".join(cells) + " |")
lines += ["", END]
section = "\n".join(lines) + "\n"

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, "scripts")
from report_section import place

place(report, BEGIN, END, section)
PY
echo "wrote $TSV and the callgrind section of $REPORT"
