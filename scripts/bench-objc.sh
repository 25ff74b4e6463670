#!/usr/bin/env bash
# The Objective-C multicaster's benchmark (Tests/ObjCBridge/Bench/FDBench.m), optimized (-O2, no
# DEBUG), on both runtimes of make objc-tests, in one run: ns per scroll tick of a direct message
# send, the hand-written peers an app writes without a library (a forwarder to one `__weak`
# delegate, through its instance variable and through `self.delegate`: Bench/FDBenchPeers.m,
# compiled with ARC on libobjc2; a plain `assign` delegate on GCC's runtime, which has no weak
# references), the proxy's typed path with 1, 4 and 16 listeners, its forwardInvocation: path,
# and a hand-written MDC-style multiplexer with 1, 4 and 16 observers, every row's call count
# verified.
#
# - gcc: GCC's runtime under GNUstep, the library's manual retain/release branch (gcc -O2).
# - arc: libobjc2 (/opt/objc-arc), the library's Apple branch compiled -fobjc-arc
#   -fobjc-arc-exceptions -DFD_APPLE_RUNTIME=1 (clang -O2); FDBench.m itself without ARC.
#   Skipped, saying so, when the runtime is not installed.
#
# Prints each table and the ratios the multicaster is held to (GCC's runtime: typed path at
# N = 1 ≤ 3× a direct send, at N = 4 ≤ 1× the multiplexer; libobjc2: ≤ 2× and ≤ 0.5×), with
# the hand-written forwarder's own ratio to a direct send (on libobjc2, the floor of any design
# that holds its listener weakly) and the typed path's ratio to it.
# --publish also writes the marked Objective-C section of docs/benchmarks.md (`make bench`, which
# rewrites the page, keeps it: Markdown.keptSections).
# SAMPLES (default 15) timed batches per row; SCALE (default 1000000) calls per batch.
# Usage: scripts/bench-objc.sh [--publish]   (make bench-objc)
#        scripts/bench-objc.sh --callgrind    instructions per tick instead of time, counted by
#            valgrind's callgrind, for the direct send, the hand-written peers, the typed path
#            at N = 1 and 4 and the multiplexer at N = 4, on both runtimes: (instructions of 11,000 ticks - of 1,000) / 10,000,
#            so that set-up cancels out; the binary is stripped first (valgrind cannot read the
#            toolchain's DWARF 5). Prints only; nothing is written.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/objc-build.sh
objc_require_gnustep
objc_require_ffi
REPORT=docs/benchmarks.md
OUT="${OBJC_BUILD:-.build-objc}/bench"
mkdir -p "$OUT"

bench_leg() {
    local leg="$1" build="$OUT/$1" peer_flags=()
    if [ "$leg" = gcc ]; then objc_use_gcc; else objc_use_arc; OBJC_LIBRARY_FLAGS+=(-fobjc-arc-exceptions); peer_flags=(-fobjc-arc); fi
    objc_archive "$build" -O2 -DNDEBUG
    # The hand-written peers: an app's own code, so with ARC where the runtime has it.
    "$OBJC_CC" "${OBJC_FLAGS[@]}" ${peer_flags[@]+"${peer_flags[@]}"} -O2 -DNDEBUG \
        -c Tests/ObjCBridge/Bench/FDBenchPeers.m -o "$build/FDBenchPeers.o"
    OBJC_PROGRAM_OBJECTS=("$build/FDBenchPeers.o")
    objc_program "$build" Tests/ObjCBridge/Bench/FDBench.m "$build/FDBench" -O2 -DNDEBUG
    OBJC_PROGRAM_OBJECTS=()
    if [ "$MODE" = --callgrind ]; then
        callgrind_leg "$leg" "$build"
        return
    fi
    "$build/FDBench" "${SAMPLES:-15}" "${SCALE:-1000000}" >"$OUT/results-$leg.tsv"
}

# Instructions per tick of each row (FDBench --only), printed as a table.
callgrind_leg() {
    local leg="$1" build="$2" binary="$2/FDBench.stripped" peer row variant n low high per direct=""
    local -A count
    strip -o "$binary" "$build/FDBench"
    peer=handwritten-weak
    [ "$leg" = gcc ] && peer=handwritten-assign
    echo "$leg: instructions per tick (callgrind)"
    echo "| path | N | instructions | × direct send |"
    echo "|---|---:|---:|---:|"
    for row in direct-send:1 "$peer:1" "$peer-property:1" typed-path:1 typed-path:4 mdc-multiplexer:4; do
        variant="${row%:*}"
        n="${row#*:}"
        low="$(callgrind_count "$binary" "$variant" "$n" 1000)"
        high="$(callgrind_count "$binary" "$variant" "$n" 11000)"
        per=$(((high - low) / 10000))
        count[$row]="$per"
        [ -n "$direct" ] || direct="$per"
        echo "| $variant | $n | $per | $(ratio "$per" "$direct")× |"
    done
    echo "typed path, N = 1 / $peer: $(ratio "${count[typed-path:1]}" "${count[$peer:1]}")×;" \
        "typed path, N = 4 / multiplexer, N = 4: $(ratio "${count[typed-path:4]}" "${count[mdc-multiplexer:4]}")×"
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}

callgrind_count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" --only "$2" "$3" "$4" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

MODE="${1:-}"
if [ "$MODE" = --callgrind ]; then
    if ! command -v valgrind >/dev/null 2>&1; then
        echo "bench-objc --callgrind: valgrind is not installed (apt-get install -y valgrind)" >&2
        exit 2
    fi
    bench_leg gcc
    if objc_arc_available; then bench_leg arc; else echo "bench-objc: libobjc2 leg skipped: not installed" >&2; fi
    exit 0
fi

cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
machine="${cpu:-unknown CPU}, $(nproc) logical cores, load average $(cut -d ' ' -f 1 /proc/loadavg) at the start"
bench_leg gcc
base="$(dpkg-query -W -f='${Version}' libgnustep-base-dev 2>/dev/null || echo unknown)"
gcc_runtime="GNUstep Base (Debian libgnustep-base-dev $base) on GCC $(gcc -dumpfullversion)'s libobjc (gobjc): the library's manual retain/release branch, no weak references; gcc -O2"
arc_runtime=""
rm -f "$OUT/results-arc.tsv"
if objc_arc_available; then
    bench_leg arc
    pc_version() { sed -n 's/^Version: //p' "$OBJC_ARC_PREFIX/lib/pkgconfig/$1.pc" 2>/dev/null || echo unknown; }
    arc_runtime="libobjc2 $(pc_version libobjc) with GNUstep Base $(pc_version gnustep-base) ($OBJC_ARC_PREFIX): the library's Apple branch, -fobjc-arc -fobjc-arc-exceptions -DFD_APPLE_RUNTIME=1, $("$OBJC_CC" --version | head -n 1 | sed 's/ (.*)//') -O2; FDBench.m without ARC"
else
    echo "bench-objc: libobjc2 leg skipped: the clang-ARC runtime is not installed at $OBJC_ARC_PREFIX (run $(objc_arc_installer))" >&2
fi

commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git status --porcelain -uno -- Sources include Tests/ObjCBridge 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes)"
fi

python3 - "$OUT" "$REPORT" "${1:-}" "$commit" "$gcc_runtime" "$arc_runtime" "$machine" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${SAMPLES:-15}" <<'PY'
import os
import sys

out, report, mode, commit, gcc_runtime, arc_runtime, machine, date, samples = sys.argv[1:]
BEGIN = "<!-- objc:begin (scripts/bench-objc.sh --publish writes this section; do not edit) -->"
END = "<!-- objc:end -->"
described = {
    "direct-send": "a direct message send to one listener (the floor)",
    "handwritten-weak": "what an app writes by hand, compiled with ARC: a forwarder whose `__weak id<P>` instance "
    "variable holds one delegate, `[_delegate scrollViewDidScroll:s]` (a weak load and retain, the send, a release); "
    "the floor of any design that holds its listener weakly",
    "handwritten-weak-property": "the same through a synthesized `weak` property, `[self.delegate scrollViewDidScroll:s]`",
    "handwritten-assign": "GCC's runtime has no weak references: the pre-ARC hand-written forwarder, a plain `assign` "
    "delegate pointer (not weak: a dead delegate is a dangling pointer)",
    "handwritten-assign-property": "the same through a synthesized `assign` property, `self.delegate`",
    "typed-path": "the proxy's typed IMP: the C core's span for the selector, a send per listener",
    "forward-invocation": "the proxy's `forwardInvocation:` path (a four-object method; an `NSInvocation` per call)",
    "mdc-multiplexer": "hand-written, one method per selector, weak `NSPointerArray`, `respondsToSelector:` per observer per call (MDC style)",
}
legs = [("gcc", "GCC's runtime (GNUstep)", gcc_runtime, 3.0, 1.0),
        ("arc", "libobjc2, ARC (the Apple branch)", arc_runtime, 2.0, 0.5)]
lines = [
    BEGIN,
    "",
    "## Objective-C multicaster",
    "",
    f"`FDDelegateMulticaster` (the `FastDelegatesObjC` product) timed by `make bench-objc` "
    f"(scripts/bench-objc.sh, Tests/ObjCBridge/Bench/FDBench.m) on {date}, commit {commit}, {machine}, "
    f"on both runtimes of `make objc-tests`, one after the other. Each row: the median of {samples} timed "
    f"batches, interleaved round-robin with the other rows of its runtime; ns per scroll tick (one "
    f"`scrollViewDidScroll:` to N listeners); each row's listener call count equals the calls made "
    f"(checksum). Apple's runtime will differ: compare the ratios.",
    "",
]
printed = []
for leg, title, runtime, target_direct, target_mdc in legs:
    path = os.path.join(out, f"results-{leg}.tsv")
    lines += [f"### {title}", ""]
    if not runtime or not os.path.exists(path):
        lines += ["Not run: the runtime was not installed.", ""]
        continue
    rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
    ns = {(r[0], int(r[1])): float(r[2]) for r in rows}
    direct = ns[("direct-send", 1)]
    typed_vs_direct = ns[("typed-path", 1)] / direct
    typed_vs_mdc = ns[("typed-path", 4)] / ns[("mdc-multiplexer", 4)]
    peer = "handwritten-weak" if ("handwritten-weak", 1) in ns else "handwritten-assign"
    peer_vs_direct = ns[(peer, 1)] / direct
    typed_vs_peer = ns[("typed-path", 1)] / ns[(peer, 1)]
    table = [
        f"Runtime: {runtime}.",
        "",
        "| path | N | ns per call | × direct send | calls counted (verified) |",
        "|---|---:|---:|---:|---:|",
    ]
    for variant, n, median, checksum in rows:
        table.append(f"| {variant} | {n} | {float(median):.2f} | {float(median) / direct:.2f}× | {checksum} |")
    table += [
        "",
        "| ratio | measured | target |",
        "|---|---:|---:|",
        f"| typed path, N = 1 / direct send | {typed_vs_direct:.2f}× | ≤ {target_direct:g}× |",
        f"| typed path, N = 4 / hand-written multiplexer, N = 4 | {typed_vs_mdc:.2f}× | ≤ {target_mdc:g}× |",
        f"| `{peer}` (hand-written forwarder) / direct send | {peer_vs_direct:.2f}× | |",
        f"| typed path, N = 1 / `{peer}` | {typed_vs_peer:.2f}× | |",
        "",
    ]
    if peer == "handwritten-weak" and peer_vs_direct > target_direct:
        table += [
            f"The hand-written `__weak` forwarder, which any design that holds its listener weakly pays at "
            f"least, takes {peer_vs_direct:.2f}× a direct send here: the ≤ {target_direct:g}× target for the "
            f"typed path at N = 1 is below that floor on this runtime (each `__weak` load is "
            f"`objc_loadWeakRetained`, which takes libobjc2's global weak-reference lock, then a release).",
            "",
        ]
    lines += table
    printed += [f"{title}:"] + table[2:]
lines += [f"- `{v}`: {d}." for v, d in described.items()]
lines += ["", END]
section = "\n".join(lines) + "\n"
print("\n".join(printed))
if mode != "--publish":
    sys.exit(0)
sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, "scripts")
from report_section import place

place(report, BEGIN, END, section, after=("<!-- callgrind:end -->",))
print(f"wrote the Objective-C section of {report}")
PY
