#!/usr/bin/env bash
# What a dependent package resolves, builds and runs, each way:
#  1. with the library alone: it must resolve no other package and fetch nothing (no
#     Package.resolved pins, no swift-syntax checkout), and build; it also uses the ready-made
#     proxies of FastDelegatesFoundation (a real XMLParser into two listeners);
#  2. with the `Macros` trait (Tests/DependentPackage): it resolves swift-syntax and nothing else,
#     and its app, which puts @DelegateProxy proxies into hosts' delegate slots, runs its checks,
#     built with ThreadSanitizer (its Sendable proxy is sent to from several threads): a report
#     fails the check.
# Both live in a temporary directory beside a link named FastDelegates to this checkout, as a
# user's package beside a clone would. Usage: scripts/dependent-check.sh [--library-only]
# DEPENDENT_SCRATCH: the Macros dependent's scratch path (default: a temporary one); the Makefile
# passes its debug steps' own, whose swift-syntax, built with the same flags, is then reused.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
SWIFT="${SWIFT:-swift}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
ln -s "$ROOT" "$WORK/FastDelegates"
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
# shellcheck source=scripts/package-measures.sh
. scripts/package-measures.sh

# 1. The library alone.
mkdir -p "$WORK/LibraryOnly/Sources/App"
cat >"$WORK/LibraryOnly/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "LibraryOnly",
    dependencies: [.package(path: "../FastDelegates")],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [
                .product(name: "FastDelegates", package: "FastDelegates"),
                .product(name: "FastDelegatesFoundation", package: "FastDelegates"),
            ])
    ]
)
MANIFEST
cat >"$WORK/LibraryOnly/Sources/App/main.swift" <<'SOURCE'
import FastDelegates
final class Listener { var total = 0 }
let didScroll = Message<Int, Void>("didScroll")
let chain = DelegateChain()
let listener = Listener()
chain.add(listener) { $0.on(didScroll) { me, value in me.total += value } }
chain.send(didScroll, 2)
print(listener.total == 2 ? "LibraryOnly: ok" : "LibraryOnly: wrong total")
SOURCE
# The ready-made Foundation proxies, without the trait: a real XMLParser into two listeners.
cat >"$WORK/LibraryOnly/Sources/App/Parsing.swift" <<'SOURCE'
import FastDelegatesFoundation
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
final class Elements: XMLParserListener {
    var names: [String] = []
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String]) { names.append(elementName) }
}
final class Text: XMLParserListener {
    var text = ""
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
func parseWithProxy() -> Bool {
    let (elements, text) = (Elements(), Text())
    let proxy = XMLParserDelegateProxy()
    proxy.add(elements)
    proxy.add(text)
    let parser = XMLParser(data: Data("<a><b>hi</b></a>".utf8))
    parser.delegate = proxy
    return parser.parse() && elements.names == ["a", "b"] && text.text == "hi"
}
SOURCE
sed -i 's/^print(listener.total == 2 ? /print(listener.total == 2 \&\& parseWithProxy() ? /' "$WORK/LibraryOnly/Sources/App/main.swift"
(cd "$WORK/LibraryOnly" && "$SWIFT" build --scratch-path "$WORK/library-build" >"$WORK/library.log" 2>&1) \
    || { cat "$WORK/library.log"; fail "the library-only dependent does not build"; }
resolved="$(resolved_pins "$WORK/LibraryOnly/Package.resolved" | tr '\n' ' ')"
[ -z "$resolved" ] && echo "ok   library only: Package.resolved pins nothing" \
    || fail "library only: Package.resolved pins: $resolved"
fetched="$(find "$WORK/library-build/checkouts" "$WORK/library-build/repositories" -mindepth 1 -maxdepth 1 \
    -printf '%f ' 2>/dev/null || true)"
[ -z "$fetched" ] && echo "ok   library only: nothing fetched (no checkouts, no repositories)" \
    || fail "library only: fetched $fetched"
"$WORK/library-build/debug/App" | grep -q "LibraryOnly: ok" && echo "ok   library only: the app runs" \
    || fail "library only: the app does not run as expected"

# 2. With the Macros trait.
if [ "${1:-}" != "--library-only" ]; then
    cp -R "$ROOT/Tests/DependentPackage" "$WORK/DependentPackage"
    rm -rf "$WORK/DependentPackage/.build" "$WORK/DependentPackage/Package.resolved"
    SCRATCH="${DEPENDENT_SCRATCH:-$WORK/macros-build}"
    (cd "$WORK/DependentPackage" && "$SWIFT" build --sanitize=thread --scratch-path "$SCRATCH" \
        >"$WORK/macros.log" 2>&1) \
        || { cat "$WORK/macros.log"; fail "the Macros dependent does not build"; }
    if grep -E "^$WORK/DependentPackage/.*warning:" "$WORK/macros.log"; then fail "the Macros dependent builds with warnings"; fi
    resolved="$(resolved_pins "$WORK/DependentPackage/Package.resolved" | tr '\n' ' ')"
    [ "$resolved" = "swift-syntax " ] && echo "ok   Macros trait: Package.resolved pins swift-syntax only" \
        || fail "Macros trait: Package.resolved pins: '$resolved'"
    if TSAN_OPTIONS=halt_on_error=1 "$SCRATCH/debug/FeedApp" >"$WORK/app.log" 2>&1 \
        && ! grep -q "ThreadSanitizer" "$WORK/app.log"; then
        sed 's/^/    /' "$WORK/app.log"
        echo "ok   Macros trait: FeedApp ran its checks under ThreadSanitizer, with no report"
    else
        cat "$WORK/app.log"
        fail "Macros trait: FeedApp failed"
    fi
fi
echo "dependent-check: $failures failed"
[ "$failures" -eq 0 ]
