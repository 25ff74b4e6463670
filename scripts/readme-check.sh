#!/usr/bin/env bash
# Every ```swift block of README.md, extracted from the README itself, must compile, so that the
# examples cannot drift from the API: a block that starts with `// Package.swift` against
# PackageDescription (as SwiftPM compiles a manifest), every other one on its own against the
# built FastDelegates and FastDelegatesFoundation modules with the @DelegateProxy plugin, in Swift 6 language mode, through
# SIL (so that isolation errors show), warnings as errors.
# Usage: scripts/readme-check.sh [README.md]
set -euo pipefail
cd "$(dirname "$0")/.."
README="${1:-README.md}"
SWIFT="${SWIFT:-swift}"
SWIFTC="${SWIFTC:-swiftc}"
# BUILD_FLAGS: the build's flags (default: the Macros trait); the Makefile passes its debug steps' own.
# One build (SwiftPM 6.3 fails a second build on a sanitizer scratch path with "unknown build
# description"): the ready-made Foundation proxies (the README's URLSession example imports
# them) and, as their dependencies, FastDelegates and the @DelegateProxy plugin.
# shellcheck disable=SC2086 # BUILD_FLAGS is a list of flags
"$SWIFT" build --target FastDelegatesFoundation ${BUILD_FLAGS:---traits Macros} >/dev/null
# shellcheck disable=SC2086
BIN="$("$SWIFT" build --show-bin-path ${BUILD_FLAGS:---traits Macros})"
PLUGIN="$BIN/FastDelegatesMacros-tool"
[ -x "$PLUGIN" ] || { echo "readme-check: no @DelegateProxy plugin at $PLUGIN (build with --traits Macros)" >&2; exit 1; }
MODULEMAP="$BIN/CDispatchTable.build/module.modulemap"
FLAGS=(-swift-version 6 -parse-as-library -warnings-as-errors -emit-sil -o /dev/null -I "$BIN/Modules" -I include
    -load-plugin-executable "$PLUGIN#FastDelegatesMacros")
[ -f "$MODULEMAP" ] && FLAGS+=(-Xcc "-fmodule-map-file=$MODULEMAP")
MANIFEST_API="$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/pm/ManifestAPI"
MANIFEST_FLAGS=(-swift-version 6 -typecheck -I "$MANIFEST_API" -L "$MANIFEST_API" -lPackageDescription
    -package-description-version 6.2)

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# One file per block: README-1.swift, README-2.swift, ...
awk -v dir="$WORK" '
    /^```swift[[:space:]]*$/ { inside = 1; count++; file = dir "/README-" count ".swift"; next }
    /^```/ && inside { inside = 0; close(file); next }
    inside { print > file }
' "$README"

failures=0
checked=0
for file in "$WORK"/README-*.swift; do
    [ -e "$file" ] || continue
    checked=$((checked + 1))
    name="$(basename "$file" .swift)"
    if head -n 1 "$file" | grep -q '^// Package.swift'; then
        kind="manifest"
        command=("$SWIFTC" "${MANIFEST_FLAGS[@]}" "$file")
    else
        kind="code"
        command=("$SWIFTC" "${FLAGS[@]}" "$file")
    fi
    if "${command[@]}" >"$WORK/$name.log" 2>&1; then
        echo "ok   $name ($kind, $(wc -l <"$file") lines)"
    else
        echo "FAIL $name ($kind): the README's block no longer compiles"
        sed 's/^/    /' "$WORK/$name.log" | head -40
        failures=$((failures + 1))
    fi
done
[ $checked -gt 0 ] || { echo "readme-check: no swift block found in $README" >&2; exit 1; }
echo "readme-check: $checked blocks, $failures failed"
[ $failures -eq 0 ]
