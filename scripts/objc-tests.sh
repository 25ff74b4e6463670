#!/usr/bin/env bash
# The Objective-C multicaster's tests under GNUstep (GCC's runtime): every Tests/ObjCBridge/*.m
# file with a `main` is a program of its own, built in debug (DEBUG=1: the confinement check)
# under AddressSanitizer and LeakSanitizer (the runtime's own allocations suppressed:
# Tests/ObjCBridge/lsan.supp). A program's exit status is its result.
# Usage: scripts/objc-tests.sh   (make objc-tests, part of make test)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/objc-build.sh
objc_require_gnustep
BUILD="${OBJC_BUILD:-.build-objc}/tests"
FLAGS=(-O1 -g -DDEBUG=1 -fsanitize=address -fno-omit-frame-pointer)
objc_archive "$BUILD" "${FLAGS[@]}"
passed=0
failed=0
for source in Tests/ObjCBridge/*.m; do
    grep -q '^int main' "$source" || continue
    name="$(basename "$source" .m)"
    if ! objc_program "$BUILD" "$source" "$BUILD/$name" "${FLAGS[@]}"; then
        echo "objc-tests: $name: FAILED to build"
        failed=$((failed + 1))
        continue
    fi
    if ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/Tests/ObjCBridge/lsan.supp:print_suppressions=0" \
        "$BUILD/$name"; then
        passed=$((passed + 1))
    else
        echo "objc-tests: $name: FAILED (exit status $?)"
        failed=$((failed + 1))
    fi
done
echo "objc-tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
