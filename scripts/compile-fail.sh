#!/usr/bin/env bash
# Negative-compile checks: each snippet in Tests/CompileFail must be rejected by the compiler
# (Swift 6 language mode, through SIL so that region-isolation errors show) with the diagnostic its `// expect-error:` lines name, and
# Tests/CompileFail/Control.swift must compile. Fails if any snippet compiles.
# The snippets are type-checked against the built FastDelegates module, as a dependent would.
# Usage: scripts/compile-fail.sh [snippet.swift ...]   (default: every snippet)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
SWIFTC="${SWIFTC:-swiftc}"
# BUILD_FLAGS: the build's flags (default: the Macros trait); the Makefile passes its debug steps' own.
# shellcheck disable=SC2086 # BUILD_FLAGS is a list of flags
"$SWIFT" build --target FastDelegates ${BUILD_FLAGS:---traits Macros} >/dev/null
# shellcheck disable=SC2086
BIN="$("$SWIFT" build --show-bin-path ${BUILD_FLAGS:---traits Macros})"
MODULEMAP="$BIN/CDispatchTable.build/module.modulemap"
FLAGS=(-swift-version 6 -emit-sil -o /dev/null -I "$BIN/Modules" -I include)
[ -f "$MODULEMAP" ] && FLAGS+=(-Xcc "-fmodule-map-file=$MODULEMAP")
# The @DelegateProxy plugin, built with the Macros trait: the Proxy* snippets use it.
PLUGIN="$BIN/FastDelegatesMacros-tool"
[ -x "$PLUGIN" ] && FLAGS+=(-load-plugin-executable "$PLUGIN#FastDelegatesMacros")
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT

if ! "$SWIFTC" "${FLAGS[@]}" Tests/CompileFail/Control.swift >"$LOG" 2>&1; then
    cat "$LOG"
    echo "compile-fail: the control snippet does not compile: the harness is broken" >&2
    exit 1
fi

failures=0
checked=0
SNIPPETS=("$@")
if [ ${#SNIPPETS[@]} -eq 0 ]; then
    SNIPPETS=()
    for file in Tests/CompileFail/*.swift; do
        [ "$(basename "$file")" = Control.swift ] || SNIPPETS+=("$file")
    done
fi
for file in "${SNIPPETS[@]}"; do
    name="$(basename "$file" .swift)"
    checked=$((checked + 1))
    mapfile -t expected < <(sed -n 's|^// expect-error: ||p' "$file")
    if [ ${#expected[@]} -eq 0 ]; then
        echo "FAIL $name: no '// expect-error:' line"
        failures=$((failures + 1))
        continue
    fi
    if "$SWIFTC" "${FLAGS[@]}" "$file" >"$LOG" 2>&1; then
        echo "FAIL $name: compiled, but must be rejected"
        failures=$((failures + 1))
        continue
    fi
    missing=0
    for text in "${expected[@]}"; do
        if ! grep -qF -- "error: $text" "$LOG"; then
            echo "FAIL $name: rejected, but without the error: $text"
            grep -E "error:" "$LOG" | grep -v '^ *[|`]' | sed 's/^/    /'
            missing=1
        fi
    done
    # `// expect-error-line: N`: an error is reported on line N of the snippet itself.
    while read -r line; do
        if ! grep -qE "^$file:$line:[0-9]+: error:" "$LOG"; then
            echo "FAIL $name: no error on line $line of the snippet"
            grep -E "error:" "$LOG" | grep -v '^ *[|`]' | sed 's/^/    /'
            missing=1
        fi
    done < <(sed -n 's|^// expect-error-line: ||p' "$file")
    if [ $missing -eq 0 ]; then
        echo "ok   $name: $(grep -m1 -oF -- "error: ${expected[0]}" "$LOG")"
    else
        failures=$((failures + 1))
    fi
done
echo "compile-fail: $checked snippets, $failures failed"
[ $failures -eq 0 ]
