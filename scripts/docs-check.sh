#!/usr/bin/env bash
# The DocC catalog of the FastDelegates library (and FastDelegatesFoundation's documentation) builds with no warning: every symbol link
# resolves to one symbol, every article and topic is found. Runs
# `swift package generate-documentation --target FastDelegates --warnings-as-errors` (the
# swift-docc-plugin) and fails on any warning, printing each.
#
# BUILD_FLAGS: the build's flags (default: the Macros trait). The Makefile passes its debug
# steps' own (trait, ThreadSanitizer, scratch path): the plugin then reuses their build and takes
# seconds (the macro's declarations are documented too).
# Usage: scripts/docs-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
# The library's catalog, and FastDelegatesFoundation's symbol documentation (generated code's
# doc comments included; its article lives in the library's catalog).
for target in FastDelegates FastDelegatesFoundation; do
    # shellcheck disable=SC2086 # BUILD_FLAGS is a list of options
    if ! "$SWIFT" package ${BUILD_FLAGS:---traits Macros} generate-documentation --target "$target" \
        --warnings-as-errors >"$LOG" 2>&1; then
        cat "$LOG"
        count=$(grep -E "^(warning|error): " "$LOG" | grep -vcE "invocation failed|Error Domain" || true)
        echo "docs-check: DocC reports $count problems in $target (above)" >&2
        exit 1
    fi
    echo "docs-check: DocC catalog of $target: no warnings"
done
