#!/usr/bin/env bash
# The Objective-C multicaster's tests, in two legs: every Tests/ObjCBridge/*.m file with a
# `main` is a program of its own, built in debug (DEBUG=1: the confinement check) and run once
# per leg; a program's exit status is its result.
#
# - gcc: GCC's runtime under GNUstep, the library's manual retain/release branch, under
#   AddressSanitizer and LeakSanitizer (the runtime's own allocations suppressed:
#   Tests/ObjCBridge/lsan.supp).
# - arc: clang on libobjc2 (/opt/objc-arc), the library's Apple branch compiled -fobjc-arc,
#   under AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer and -fsanitize=function,
#   every report fatal. Without the runtime the leg is skipped with how to get it, unless
#   CI=true, where a missing runtime fails. OBJC_ARC_EXCEPTIONS=0 builds the library without
#   -fobjc-arc-exceptions, as SwiftPM does: the frames an exception unwinds then leak what they
#   hold (Cocoa's rule), so LeakSanitizer is off, and the programs check that nothing else goes
#   wrong (no entry left behind, no call to a half-added listener).
#
# Usage: scripts/objc-tests.sh [gcc|arc]...   (both by default; make objc-tests, part of make test)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/objc-build.sh
legs=("$@")
[ ${#legs[@]} -gt 0 ] || legs=(gcc arc)
SUPPRESSIONS="$PWD/Tests/ObjCBridge/lsan.supp"
total_failed=0
summary=()

run_leg() {
    local leg="$1" build flags leaks=1
    build="${OBJC_BUILD:-.build-objc}/tests-$leg"
    if [ "$leg" = gcc ]; then
        objc_use_gcc
        flags=(-O1 -g -DDEBUG=1 -fsanitize=address -fno-omit-frame-pointer)
    else
        objc_use_arc
        flags=(-O1 -g -DDEBUG=1 -fno-omit-frame-pointer -fsanitize=address,undefined,function
            -fno-sanitize-recover=all)
        # ARC frames release what they hold when an exception unwinds them only with this flag
        # (the rule the header states): the library is compiled with it, and LeakSanitizer checks.
        if [ "${OBJC_ARC_EXCEPTIONS:-1}" = 1 ]; then
            OBJC_LIBRARY_FLAGS+=(-fobjc-arc-exceptions)
        else
            build="$build-no-arc-exceptions"
            leaks=0
        fi
    fi
    objc_archive "$build" "${flags[@]}"
    local passed=0 failed=0 checks=0 source name output count lsan
    # gcc: the runtime's own allocations are let go (lsan.supp), and the programs count the
    # multicaster's live instances instead; arc: nothing is let go.
    lsan="print_suppressions=0"
    [ "$leg" = gcc ] && lsan="suppressions=$SUPPRESSIONS:$lsan"
    for source in Tests/ObjCBridge/*.m; do
        grep -q '^int main' "$source" || continue
        name="$(basename "$source" .m)"
        if ! objc_program "$build" "$source" "$build/$name" "${flags[@]}"; then
            echo "objc-tests [$leg]: $name: FAILED to build"
            failed=$((failed + 1))
            continue
        fi
        if output="$(ASAN_OPTIONS=detect_leaks=$leaks UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            LSAN_OPTIONS="$lsan" "$build/$name" 2>&1)"; then
            passed=$((passed + 1))
        else
            echo "objc-tests [$leg]: $name: FAILED (exit status $?)"
            failed=$((failed + 1))
        fi
        printf '%s\n' "$output" | sed "s/^/[$leg] /"
        count="$(printf '%s\n' "$output" | sed -n 's/^[A-Za-z]*: \([0-9]*\) checks, [0-9]* failed$/\1/p' | tail -n 1)"
        checks=$((checks + ${count:-0}))
    done
    summary+=("objc-tests [$leg]: $passed programs passed, $failed failed, $checks checks")
    total_failed=$((total_failed + failed))
}

for leg in "${legs[@]}"; do
    case "$leg" in
    gcc)
        objc_require_gnustep
        objc_require_ffi
        run_leg gcc
        ;;
    arc)
        if ! objc_arc_available; then
            installer="$(objc_arc_installer)"
            message="objc-tests [arc]: the clang-ARC runtime is not installed at $OBJC_ARC_PREFIX: run $installer (it ships beside the repository in shared/objc-arc; OBJC_ARC_INSTALL names another copy)"
            if [ "${CI:-}" = true ]; then
                echo "$message: CI=true, so this fails" >&2
                total_failed=$((total_failed + 1))
                summary+=("objc-tests [arc]: MISSING runtime (CI)")
            else
                echo "$message; the leg is skipped" >&2
                summary+=("objc-tests [arc]: skipped (no runtime)")
            fi
            continue
        fi
        objc_require_ffi
        run_leg arc
        ;;
    *)
        echo "objc-tests: unknown leg $leg (gcc or arc)" >&2
        exit 2
        ;;
    esac
done
printf '%s\n' "${summary[@]}"
[ "$total_failed" -eq 0 ]
