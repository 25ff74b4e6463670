#!/usr/bin/env bash
# The Objective-C multicaster's benchmark on GNUstep (Tests/ObjCBridge/Bench/FDBench.m), optimized
# (-O2, no DEBUG), in one run: ns per scroll tick of a direct message send, the proxy's typed
# path with 1, 4 and 16 listeners, its forwardInvocation: path, and a hand-written MDC-style
# multiplexer with 1, 4 and 16 observers, every row's call count verified. Prints the table and
# the two ratios the issue sets targets for (typed path at N = 1 over a direct send: at most 3×;
# typed path over the multiplexer at N = 4: at most 1×).
#
# --publish also writes the marked Objective-C section of docs/benchmarks.md (`make bench`, which
# rewrites the page, keeps it: Markdown.keptSections).
# SAMPLES (default 15) timed batches per row; SCALE (default 1000000) calls per batch.
# Usage: scripts/bench-objc.sh [--publish]   (make bench-objc)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/objc-build.sh
objc_require_gnustep
objc_require_ffi
objc_use_gcc
BUILD="${OBJC_BUILD:-.build-objc}/bench"
REPORT=docs/benchmarks.md
objc_archive "$BUILD" -O2 -DNDEBUG
objc_program "$BUILD" Tests/ObjCBridge/Bench/FDBench.m "$BUILD/FDBench" -O2 -DNDEBUG
"$BUILD/FDBench" "${SAMPLES:-15}" "${SCALE:-1000000}" >"$BUILD/results.tsv"

commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git status --porcelain -uno -- Sources include Tests/ObjCBridge 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes)"
fi
base="$(dpkg-query -W -f='${Version}' libgnustep-base-dev 2>/dev/null || echo unknown)"
runtime="GNUstep Base (Debian libgnustep-base-dev $base) on GCC $(gcc -dumpfullversion)'s libobjc (gobjc): manual retain/release, no weak references"
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
machine="${cpu:-unknown CPU}, $(nproc) logical cores, load average $(cut -d ' ' -f 1 /proc/loadavg) at the start"

python3 - "$BUILD/results.tsv" "$REPORT" "${1:-}" "$commit" "$runtime" "$machine" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${SAMPLES:-15}" <<'PY'
import sys

results, report, mode, commit, runtime, machine, date, samples = sys.argv[1:]
rows = [line.rstrip("\n").split("\t") for line in open(results) if line.strip()]
ns = {(r[0], int(r[1])): float(r[2]) for r in rows}
direct = ns[("direct-send", 1)]
typed_vs_direct = ns[("typed-path", 1)] / direct
typed_vs_mdc = ns[("typed-path", 4)] / ns[("mdc-multiplexer", 4)]
BEGIN = "<!-- objc:begin (scripts/bench-objc.sh --publish writes this section; do not edit) -->"
END = "<!-- objc:end -->"
described = {
    "direct-send": "a direct message send to one listener (the floor)",
    "typed-path": "the proxy's typed IMP: the C core's span for the selector, a send per listener",
    "forward-invocation": "the proxy's `forwardInvocation:` path (a four-object method; an `NSInvocation` per call)",
    "mdc-multiplexer": "hand-written, one method per selector, weak `NSPointerArray`, `respondsToSelector:` per observer per call (MDC style)",
}
lines = [
    BEGIN,
    "",
    "## Objective-C multicaster (GNUstep)",
    "",
    f"`FDDelegateMulticaster` (the `FastDelegatesObjC` product) timed by `make bench-objc` "
    f"(scripts/bench-objc.sh, Tests/ObjCBridge/Bench/FDBench.m) on {date}, commit {commit}, {machine}. "
    f"Runtime: {runtime}; gcc -O2. One run: each row's median of {samples} timed batches, interleaved "
    f"round-robin; ns per scroll tick (one `scrollViewDidScroll:` to N listeners); each row's "
    f"listener call count equals the calls made (checksum). Apple's runtime (objc_msgSend, ARC, "
    f"weak loads) will differ: compare the ratios.",
    "",
    "| path | N | ns per call | × direct send | calls counted (verified) |",
    "|---|---:|---:|---:|---:|",
]
for variant, n, median, checksum in rows:
    lines.append(f"| {variant} | {n} | {float(median):.2f} | {float(median) / direct:.2f}× | {checksum} |")
lines += [
    "",
    "| ratio | measured | target |",
    "|---|---:|---:|",
    f"| typed path, N = 1 / direct send | {typed_vs_direct:.2f}× | ≤ 3× |",
    f"| typed path, N = 4 / hand-written multiplexer, N = 4 | {typed_vs_mdc:.2f}× | ≤ 1× |",
    "",
]
lines += [f"- `{v}`: {d}." for v, d in described.items()]
lines += ["", END]
section = "\n".join(lines) + "\n"
print("\n".join(lines[6:8 + len(rows) + 6]))
if mode != "--publish":
    sys.exit(0)
sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, "scripts")
from report_section import place

place(report, BEGIN, END, section, after=("<!-- callgrind:end -->",))
print(f"wrote the Objective-C section of {report}")
PY
