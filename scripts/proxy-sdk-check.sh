#!/usr/bin/env bash
# An SDK ships @DelegateProxy proxies without swift-syntax (Examples/ProxySDK): copies ScrollKit,
# the SDK, and FeedApp, an app that uses it, beside a link named FastDelegates to this checkout, then
#  1. builds FeedApp from a fresh scratch path and runs it: it must resolve no package but ScrollKit
#     and FastDelegates (no Package.resolved pin, no checkout) and build no swift-syntax; and with
#     a file that writes @DelegateProxy, it must fail with the error that names the trait;
#  2. runs `swift package --traits GenerateProxies generate-delegate-proxies --check` in ScrollKit:
#     it passes on the checked-in file, fails naming the file on a stale copy of it, and a protocol
#     the macro refuses gets the macro's error at its line, with nothing written.
# Prints the CPU seconds (user + sys) of each build. Usage: scripts/proxy-sdk-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
SWIFT="${SWIFT:-swift}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
ln -s "$ROOT" "$WORK/FastDelegates"
cp -R Examples/ProxySDK/ScrollKit Examples/ProxySDK/FeedApp "$WORK/"
rm -rf "$WORK"/*/.build "$WORK"/*/Package.resolved
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
# shellcheck source=scripts/package-measures.sh
. scripts/package-measures.sh
LOG="$WORK/log"

# 1. The app: ScrollKit and FastDelegates only, no swift-syntax.
seconds=$(cpu_seconds "$SWIFT" build --package-path "$WORK/FeedApp" --scratch-path "$WORK/app-build") || fail "FeedApp does not build"
if grep -qi "swiftsyntax\|swift-syntax" "$LOG"; then fail "FeedApp's build compiles swift-syntax"; fi
if [ -d "$WORK/app-build/checkouts" ] && [ -n "$(ls -A "$WORK/app-build/checkouts")" ]; then
    fail "FeedApp fetched packages: $(ls "$WORK/app-build/checkouts" | tr '\n' ' ')"
fi
pinned=$(resolved_pins "$WORK/FeedApp/Package.resolved" | paste -sd ' ')
[ -z "$pinned" ] || fail "FeedApp pins packages: $pinned"
if output=$("$WORK/app-build/debug/FeedApp" 2>&1) && [ "$output" = "FeedApp: ok" ]; then
    echo "ok   FeedApp: built cold in ${seconds} CPU s (debug), no swift-syntax, no pin; its proxies forward"
else
    fail "FeedApp: $output"
fi

# An app without the trait that writes @DelegateProxy is told what to do.
cat >"$WORK/FeedApp/Sources/FeedApp/Misuse.swift" <<'SOURCE'
import FastDelegates
@DelegateProxy
protocol AppScrollDelegate: AnyObject {
    func didScroll()
}
SOURCE
if "$SWIFT" build --package-path "$WORK/FeedApp" --scratch-path "$WORK/app-build" >"$LOG" 2>&1; then
    fail "@DelegateProxy without the trait compiles"
elif grep -q "error: .*DelegateProxy.* is unavailable: .*Macros.*generate-delegate-proxies" "$LOG"; then
    echo "ok   @DelegateProxy without the trait: an error that names the Macros trait and the plugin"
else
    grep "error:" "$LOG" | head -5; fail "@DelegateProxy without the trait: no error naming the trait and the plugin"
fi
rm "$WORK/FeedApp/Sources/FeedApp/Misuse.swift"

# 2. The plugin, as the SDK's author runs it (the tool builds swift-syntax once).
SDK="$WORK/ScrollKit"
GENERATED="$SDK/Sources/ScrollKit/FeedScrollDelegate+Generated.swift"
plugin() {
    "$SWIFT" package --package-path "$SDK" --scratch-path "$WORK/sdk-build" --traits GenerateProxies \
        --allow-writing-to-package-directory generate-delegate-proxies "$@"
}
if seconds=$(cpu_seconds plugin --check); then
    echo "ok   generate-delegate-proxies --check: the checked-in file is current (${seconds} CPU s with the tool's build)"
else
    fail "generate-delegate-proxies --check fails on the checked-in file"
fi
cp "$GENERATED" "$WORK/generated"
sed -i 's/feedShouldScrollToTop/feedShouldScrollToTheTop/' "$GENERATED"
if plugin --check >"$LOG" 2>&1; then
    fail "--check passes on a stale generated file"
elif grep -q "FeedScrollDelegate+Generated.swift: error: stale" "$LOG"; then
    echo "ok   --check fails on a stale copy, naming it"
else
    cat "$LOG"; fail "--check failed without naming the stale file"
fi
cp "$WORK/generated" "$GENERATED"
SOURCE="$SDK/Sources/ScrollKit/FeedScrollDelegate.swift"
line=$(grep -n "func feedDidScroll" "$SOURCE" | cut -d: -f1)
sed -i 's/func feedDidScroll(to offset: Double)/func feedDidScroll<T>(to offset: T)/' "$SOURCE"
if plugin >"$LOG" 2>&1; then
    fail "the plugin accepts a generic requirement"
elif grep -q "FeedScrollDelegate.swift:$line:[0-9]*: error: " "$LOG" && cmp -s "$WORK/generated" "$GENERATED"; then
    echo "ok   a refused protocol: the macro's error at FeedScrollDelegate.swift:$line, nothing written"
else
    cat "$LOG"; fail "a refused protocol: no error at line $line, or the generated file changed"
fi

echo "proxy-sdk-check: $failures failed"
[ $failures -eq 0 ]
