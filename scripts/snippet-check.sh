#!/usr/bin/env bash
# Every ```swift block of the given Markdown files (README.md, the DocC articles) must compile, so
# that no example drifts from the API. Each block is compiled from the file itself: a block whose
# first line is `// Package.swift` against PackageDescription (as SwiftPM compiles a manifest),
# every other one against the built FastDelegates and FastDelegatesFoundation modules with the
# @DelegateProxy plugin, in Swift 6 language mode, through SIL (so that isolation errors show),
# warnings as errors: as a library file, or, when it has top-level statements, as a main file.
#
# A fence may be indented (a block inside a list item). An HTML comment on the line before a
# block's fence (DocC and GitHub render none) says more:
#   <!-- snippet: context NAME … -->  compile it with Tests/Snippets/NAME.swift: the declarations
#                                     the block presumes (its host, its listeners, a chain)
#   <!-- snippet: continues -->       compile it after the file's previous compiled block (and its context);
#                                     `continues context NAME …` adds contexts
#   <!-- snippet: fragment REASON --> not compiled (a line of a manifest, Apple-only code, a
#                                     deliberate compile error); REASON is required
# --import MODULE imports MODULE in every code block, as a DocC catalog's articles presume the
# import of their module.
# Usage: scripts/snippet-check.sh [--import MODULE] FILE.md…
set -euo pipefail
cd "$(dirname "$0")/.."
IMPLICIT=()
if [ "${1:-}" = --import ]; then
    IMPLICIT=(-Xfrontend -import-module -Xfrontend "$2")
    shift 2
fi
[ $# -gt 0 ] || { echo "usage: scripts/snippet-check.sh [--import MODULE] FILE.md…" >&2; exit 2; }
SWIFT="${SWIFT:-swift}"
SWIFTC="${SWIFTC:-swiftc}"
CONTEXTS=Tests/Snippets
# BUILD_FLAGS: the build's flags (default: the Macros trait); the Makefile passes its debug steps'
# own. One build (SwiftPM 6.3 fails a second build on a sanitizer scratch path with "unknown build
# description"): the ready-made Foundation proxies and, as their dependencies, FastDelegates and
# the @DelegateProxy plugin.
# shellcheck disable=SC2086 # BUILD_FLAGS is a list of flags
"$SWIFT" build --target FastDelegatesFoundation ${BUILD_FLAGS:---traits Macros} >/dev/null
# shellcheck disable=SC2086
BIN="$("$SWIFT" build --show-bin-path ${BUILD_FLAGS:---traits Macros})"
PLUGIN="$BIN/FastDelegatesMacros-tool"
[ -x "$PLUGIN" ] || { echo "snippet-check: no @DelegateProxy plugin at $PLUGIN (build with --traits Macros)" >&2; exit 1; }
MODULEMAP="$BIN/CDispatchTable.build/module.modulemap"
FLAGS=(-swift-version 6 -warnings-as-errors -wmo -emit-sil -o /dev/null -module-name Snippet -I "$BIN/Modules"
    -I include -D Macros -load-plugin-executable "$PLUGIN#FastDelegatesMacros")
[ -f "$MODULEMAP" ] && FLAGS+=(-Xcc "-fmodule-map-file=$MODULEMAP")
FLAGS+=(${IMPLICIT[@]+"${IMPLICIT[@]}"})
MANIFEST_API="$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/pm/ManifestAPI"
MANIFEST_FLAGS=(-swift-version 6 -typecheck -I "$MANIFEST_API" -L "$MANIFEST_API" -lPackageDescription
    -package-description-version 6.2)

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# One directory per block (DOC-N/), holding code.swift (the block, after the blocks it continues),
# contexts (the context files, one a line) and, for a fragment, its reason.
extract() { # $1: Markdown file, $2: its label
    awk -v dir="$WORK" -v label="$2" -v contexts="$CONTEXTS" -v source="$1" '
        function fail(message) { printf "%s:%d: %s\n", source, NR, message > "/dev/stderr"; failed = 1; exit 1 }
        /^[[:space:]]*```swift[[:space:]]*$/ {
            match($0, /^[[:space:]]*/); indent = RLENGTH
            count++; block = dir "/" label "-" count; system("mkdir -p \"" block "\"")
            code = block "/code.swift"; printf "" > code; close(code)
            more = marker
            if (more ~ /^continues( |$)/) {
                if (previous == "") fail("a block that continues has no compiled block before it")
                system("cat \"" previous "/code.swift\" >> \"" code "\"; cp \"" previous "/contexts\" \"" block "/contexts\"")
                sub(/^continues ?/, "", more)
            } else {
                printf "" > (block "/contexts")
            }
            if (more ~ /^context /) {
                n = split(substr(more, 9), names, " ")
                for (i = 1; i <= n; i++) {
                    file = contexts "/" names[i] ".swift"
                    if (system("test -f \"" file "\"") != 0) fail("no context file " file)
                    print file >> (block "/contexts")
                }
            } else if (more ~ /^fragment/) {
                reason = substr(more, 10)
                if (reason == "") fail("a fragment marker must say why the block is not compiled")
                print reason > (block "/fragment")
            } else if (more != "") {
                fail("unknown snippet marker: " marker)
            }
            close(block "/contexts"); inside = 1; marker = ""; next
        }
        /^[[:space:]]*```/ && inside {
            inside = 0; close(code)
            if (system("test -f \"" block "/fragment\"") != 0) previous = block
            next
        }
        inside { print substr($0, indent + 1) >> code; next }
        /^[[:space:]]*<!-- snippet: .* -->[[:space:]]*$/ {
            marker = $0; sub(/^[[:space:]]*<!-- snippet: /, "", marker); sub(/ -->[[:space:]]*$/, "", marker); next
        }
        { marker = "" }
    ' "$1"
}

failures=0
checked=0
fragments=0
for doc in "$@"; do
    label="$(basename "$doc" .md)"
    extract "$doc" "$label" || { failures=$((failures + 1)); continue; }
    number=0
    while [ -d "$WORK/$label-$((number + 1))" ]; do
        number=$((number + 1))
        name="$label-$number"
        block="$WORK/$name"
        if [ -f "$block/fragment" ]; then
            fragments=$((fragments + 1))
            echo "skip $name: a fragment ($(cat "$block/fragment"))"
            continue
        fi
        checked=$((checked + 1))
        mapfile -t contexts <"$block/contexts"
        if head -n 1 "$block/code.swift" | grep -q '^// Package.swift'; then
            kind="manifest"
            "$SWIFTC" "${MANIFEST_FLAGS[@]}" "$block/code.swift" >"$block/log" 2>&1 && ok=1 || ok=0
        else
            # A library file first; a block with top-level statements is a program's main file.
            kind="code"
            if "$SWIFTC" "${FLAGS[@]}" -parse-as-library "$block/code.swift" "${contexts[@]}" >"$block/log" 2>&1; then
                ok=1
            else
                cp "$block/code.swift" "$block/main.swift"
                if grep -qE "(expressions|statements) are not allowed at the top level" "$block/log" &&
                    "$SWIFTC" "${FLAGS[@]}" "$block/main.swift" "${contexts[@]}" >"$block/log" 2>&1; then
                    ok=1 kind="main"
                else
                    ok=0
                fi
            fi
        fi
        with="${contexts[*]:+, with ${contexts[*]}}"
        if [ $ok -eq 1 ]; then
            echo "ok   $name ($kind, $(wc -l <"$block/code.swift") lines$with)"
        else
            echo "FAIL $name ($kind$with): the block of $doc no longer compiles"
            sed 's/^/    /' "$block/log" | head -40
            failures=$((failures + 1))
        fi
    done
done
[ $checked -gt 0 ] || { echo "snippet-check: no swift block found in $*" >&2; exit 1; }
echo "snippet-check: $checked blocks compiled, $fragments fragments, $failures failed"
[ $failures -eq 0 ]
