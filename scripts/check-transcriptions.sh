#!/usr/bin/env bash
# Checks that the transcribed Apple delegate protocols (Tests/Fixtures/AppleDelegates) compile as
# plain Swift 6: copies them to a temporary directory, strips the `#if Macros`/`#endif` lines, the
# `import FastDelegates` line and the @DelegateProxy / @DelegateDefault(…) / @DelegateCombining(…)
# attributes, and type-checks all the files together with swiftc. No package build.
#
#   scripts/check-transcriptions.sh            # uses swiftc from PATH (or $SWIFTC)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
source_dir="$root/Tests/Fixtures/AppleDelegates"
swiftc="${SWIFTC:-swiftc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

shopt -s nullglob
files=("$source_dir"/*.swift)
if [ ${#files[@]} -eq 0 ]; then
    echo "no Swift files in $source_dir" >&2
    exit 1
fi

for file in "${files[@]}"; do
    # The attributes' arguments hold at most one level of nested parentheses, e.g.
    # @DelegateDefault((URLSession.AuthChallengeDisposition.performDefaultHandling, URLCredential?.none)).
    sed -E \
        -e '/^[[:space:]]*#if Macros[[:space:]]*$/d' \
        -e '/^[[:space:]]*import FastDelegates[[:space:]]*$/d' \
        -e 's/@DelegateProxy([[:space:]]*\(\))?//g' \
        -e 's/@Delegate(Default|Combining)\(([^()]|\([^()]*\))*\)//g' \
        "$file" > "$work/$(basename "$file")"
done

# `#if Macros` opens each file and its `#endif` closes it: drop the last `#endif` of each copy
# (inner `#if canImport(…)`/`#endif` pairs stay).
for copy in "$work"/*.swift; do
    last="$(grep -n '^[[:space:]]*#endif[[:space:]]*$' "$copy" | tail -n 1 | cut -d: -f1 || true)"
    if [ -n "$last" ]; then sed -i "${last}d" "$copy"; fi
done

"$swiftc" -swift-version 6 -parse-as-library -typecheck "$work"/*.swift
echo "check-transcriptions: ${#files[@]} files type-check as plain Swift 6"
