#!/usr/bin/env bash
# The DocC catalog of the FastDelegates library builds with no warning: every symbol link
# resolves to one symbol, every article and topic is found. Fails on any warning
# (`docc convert --warnings-as-errors`).
#
# What `swift package generate-documentation --target FastDelegates` checks, without its cost:
# the plugin builds every host tool of the package first (swift-syntax for the macro, minutes),
# while this extracts the symbol graph from the debug build of the library alone (with the
# plugin's options: public symbols, members from protocol extensions and extension blocks) and
# runs the toolchain's `docc` on it (seconds).
# Built with the `Macros` trait by default, as the other debug steps of `make test` (so that none
# rebuilds another's products, and the macro's declarations are checked too); TRAITS=" " leaves
# it off.
# Usage: scripts/docs-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
DOCC="${DOCC:-$(command -v docc || xcrun --find docc)}"
"$SWIFT" build --target FastDelegates ${TRAITS:---traits Macros} >/dev/null
BIN="$("$SWIFT" build --show-bin-path ${TRAITS:---traits Macros})"
TRIPLE="$("$SWIFT" -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -1)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/symbol-graphs"
FLAGS=(-module-name FastDelegates -target "$TRIPLE" -I "$BIN/Modules" -I include
    -minimum-access-level public -emit-extension-block-symbols -output-dir "$WORK/symbol-graphs")
MODULEMAP="$BIN/CDispatchTable.build/module.modulemap"
[ -f "$MODULEMAP" ] && FLAGS+=(-Xcc "-fmodule-map-file=$MODULEMAP")
"$SWIFT" symbolgraph-extract "${FLAGS[@]}"
if ! "$DOCC" convert Sources/FastDelegates/FastDelegates.docc \
    --additional-symbol-graph-dir "$WORK/symbol-graphs" --output-path "$WORK/FastDelegates.doccarchive" \
    --fallback-display-name FastDelegates --fallback-bundle-identifier FastDelegates \
    --warnings-as-errors >"$WORK/docc.log" 2>&1; then
    cat "$WORK/docc.log"
    echo "docs-check: DocC reports $(grep -cE '^(warning|error):|: (warning|error):' "$WORK/docc.log") problems (above)" >&2
    exit 1
fi
echo "docs-check: DocC catalog of FastDelegates: no warnings"
