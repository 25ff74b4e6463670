#!/usr/bin/env bash
# What an app pays to build, cold, for proxies from an SDK, each way (CPU seconds: user + sys of
# the whole build, from a fresh scratch path):
#  - checked-in: Examples/ProxySDK's FeedApp, over ScrollKit's generate-delegate-proxies files;
#  - Macros trait: the same app and protocol, with the protocol expanded by @DelegateProxy, so
#    the app's build fetches and builds swift-syntax.
# Debug and release each (release builds swift-syntax for minutes). Prints a Markdown table for
# the README. Not part of make test. Usage: scripts/build-cost.sh [debug|release|both]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
SWIFT="${SWIFT:-swift}"
CONFIGS="${1:-both}"
[ "$CONFIGS" = both ] && CONFIGS="debug release"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
ln -s "$ROOT" "$WORK/FastDelegates"
cp -R Examples/ProxySDK/ScrollKit Examples/ProxySDK/FeedApp "$WORK/"
rm -rf "$WORK"/*/.build "$WORK"/*/Package.resolved
# The same app with the macro: ScrollKit's source compiled under the trait, in one package.
mkdir -p "$WORK/MacroApp/Sources/ScrollKit" "$WORK/MacroApp/Sources/FeedApp"
grep -v '^#if GenerateProxies$\|^#endif$' "$WORK/ScrollKit/Sources/ScrollKit/FeedScrollDelegate.swift" \
    >"$WORK/MacroApp/Sources/ScrollKit/FeedScrollDelegate.swift"
cp "$WORK/ScrollKit/Sources/ScrollKit/FeedScrollView.swift" "$WORK/MacroApp/Sources/ScrollKit/"
cp "$WORK/FeedApp/Sources/FeedApp/main.swift" "$WORK/MacroApp/Sources/FeedApp/"
cat >"$WORK/MacroApp/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "MacroApp",
    dependencies: [.package(path: "../FastDelegates", traits: ["Macros"])],
    targets: [
        .target(name: "ScrollKit", dependencies: [.product(name: "FastDelegates", package: "FastDelegates")]),
        .executableTarget(name: "FeedApp", dependencies: ["ScrollKit"]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST

# shellcheck source=scripts/package-measures.sh
. scripts/package-measures.sh
LOG="$WORK/log"
pins() { # the packages an app's Package.resolved pins, or "none"
    local list
    list=$(resolved_pins "$1/Package.resolved" | paste -sd ' ')
    echo "${list:-none}"
}

echo "| app | config | cold build, CPU s | packages pinned |"
echo "|---|---|---:|---|"
for config in $CONFIGS; do
    seconds=$(cpu_seconds "$SWIFT" build -c "$config" --package-path "$WORK/FeedApp" --scratch-path "$WORK/feed-$config")
    echo "| checked-in proxies (generate-delegate-proxies) | $config | $seconds | $(pins "$WORK/FeedApp") |"
    seconds=$(cpu_seconds "$SWIFT" build -c "$config" --package-path "$WORK/MacroApp" --scratch-path "$WORK/macro-$config")
    echo "| \`Macros\` trait, one @DelegateProxy protocol | $config | $seconds | $(pins "$WORK/MacroApp") |"
done
