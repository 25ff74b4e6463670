# Builds the Objective-C multicaster (sourced by objc-tests.sh and bench-objc.sh) for one of two
# runtimes, chosen by objc_use_gcc or objc_use_arc:
#
# - gcc: GCC's libobjc under GNUstep Base (Debian's gobjc and libgnustep-base-dev), manual
#   retain/release: the library's GNUstep branch (FD_APPLE_RUNTIME 0: the zeroing side table,
#   the dealloc hook).
# - arc: clang ARC on libobjc2 with GNUstep Base, installed under /opt/objc-arc by
#   shared/objc-arc/install.sh (beside the repository; .ci/run runs it): the library's Apple
#   branch (FD_APPLE_RUNTIME 1: ARC, __weak, associated objects, objc_msgSend), compiled
#   -fobjc-arc. The test programs and the benchmark are compiled without ARC on both (manual
#   retain/release, as an app's older code may be), with the runtime's clang.
#
# Each builds a static archive of the C core (Sources/CDispatchTable/*.c, plain C11) and of
# Sources/FastDelegatesObjC/*.m, and programs linked against it with GNUstep Base and libbsd.
# swift_runtime.c is in the archive but never linked: nothing an Objective-C program calls
# needs the Swift runtime.
#
# objc_archive DIR FLAGS...        -> DIR/libfastdelegates-objc.a
# objc_program DIR SOURCE OUT FLAGS...  (linked with OBJC_PROGRAM_OBJECTS too, when set)
OBJC_PROGRAM_OBJECTS=()
OBJC_ARC_PREFIX="${OBJC_ARC_PREFIX:-/opt/objc-arc}" # where install.sh puts it

objc_require_gnustep() {
    if ! command -v gnustep-config >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then
        echo "installing gobjc gnustep-base-common libgnustep-base-dev (GNUstep: the Objective-C runtime of the tests)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gobjc gnustep-base-common libgnustep-base-dev
    fi
}

# libffi's header: the unanswered block handler is called through its own signature with it
# (FDBlockCall.m) on GNUstep Base, both runtimes.
objc_require_ffi() {
    if [ ! -e /usr/include/ffi.h ] && [ ! -e "/usr/include/$(gcc -dumpmachine 2>/dev/null)/ffi.h" ]; then
        echo "installing libffi-dev (the header of libffi, which GNUstep Base already links)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libffi-dev
    fi
}

# The installer of the ARC runtime: OBJC_ARC_INSTALL, else shared/objc-arc/install.sh beside
# the repository (the repository root's parent holds `shared/` in CI and in the work tree).
objc_arc_installer() {
    if [ -n "${OBJC_ARC_INSTALL:-}" ]; then
        echo "$OBJC_ARC_INSTALL"
    else
        echo "$(cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)/.." && pwd)/shared/objc-arc/install.sh"
    fi
}

objc_arc_available() {
    [ -x "$OBJC_ARC_PREFIX/bin/gnustep-config" ]
}

objc_use_gcc() {
    OBJC_LEG=gcc
    OBJC_CC=gcc
    # shellcheck disable=SC2207 # gnustep-config prints a list of options
    OBJC_FLAGS=($(gnustep-config --objc-flags) -std=gnu11)
    OBJC_LIBRARY_FLAGS=(-Wextra -Werror -Wno-unused-parameter -Wno-expansion-to-defined)
    # shellcheck disable=SC2207
    OBJC_LIBS=($(gnustep-config --base-libs) -lbsd -lffi)
}

objc_use_arc() {
    OBJC_LEG=arc
    local config="$OBJC_ARC_PREFIX/bin/gnustep-config"
    OBJC_CC="$("$config" --variable=CC)" # the clang the runtime was built with
    # shellcheck disable=SC2207
    OBJC_FLAGS=($("$config" --objc-flags | sed -e 's/-MMD//' -e 's/-MP//') -std=gnu11 -Wno-unused-command-line-argument)
    OBJC_LIBRARY_FLAGS=(-fobjc-arc -DFD_APPLE_RUNTIME=1 -Wextra -Werror -Wno-unused-parameter)
    # shellcheck disable=SC2207
    OBJC_LIBS=($("$config" --base-libs) "-Wl,-rpath,$OBJC_ARC_PREFIX/lib" -lbsd -lffi)
}

objc_archive() {
    local dir="$1"
    shift
    mkdir -p "$dir/core" "$dir/objc"
    local objects=()
    local source object
    for source in Sources/CDispatchTable/*.c; do
        object="$dir/core/$(basename "$source" .c).o"
        "$OBJC_CC" -std=c11 -Iinclude "$@" -c "$source" -o "$object"
        objects+=("$object")
    done
    for source in Sources/FastDelegatesObjC/*.m; do
        object="$dir/objc/$(basename "$source" .m).o"
        "$OBJC_CC" "${OBJC_FLAGS[@]}" "${OBJC_LIBRARY_FLAGS[@]}" \
            -Iinclude -ISources/FastDelegatesObjC/include "$@" -c "$source" -o "$object"
        objects+=("$object")
    done
    rm -f "$dir/libfastdelegates-objc.a"
    ar rcs "$dir/libfastdelegates-objc.a" "${objects[@]}"
}

objc_program() {
    local dir="$1" source="$2" out="$3"
    shift 3
    "$OBJC_CC" "${OBJC_FLAGS[@]}" -Wno-unused-parameter -Iinclude -ISources/FastDelegatesObjC/include \
        -ITests/ObjCBridge "$@" -c "$source" -o "$out.o" || return 1
    # gold warns about every __asan_ symbol under -rdynamic (in --base-libs): harmless, filtered.
    "$OBJC_CC" "$out.o" ${OBJC_PROGRAM_OBJECTS[@]+"${OBJC_PROGRAM_OBJECTS[@]}"} "$dir/libfastdelegates-objc.a" "$@" "${OBJC_LIBS[@]}" -o "$out" 2>&1 |
        { grep -v "Cannot export local symbol '__" || true; } >&2
    [ "${PIPESTATUS[0]}" -eq 0 ]
}
