# Builds the Objective-C multicaster for GNUstep (sourced by objc-tests.sh and bench-objc.sh):
# a static archive of the C core (Sources/CDispatchTable/*.c, plain C11) and of
# Sources/FastDelegatesObjC/*.m (gcc, `gnustep-config --objc-flags -std=gnu11`), and programs
# linked against it with `gnustep-config --base-libs -lbsd`. swift_runtime.c is in the archive
# but never linked: nothing an Objective-C program calls needs the Swift runtime.
#
# objc_archive DIR FLAGS...        -> DIR/libfastdelegates-objc.a
# objc_program DIR SOURCE OUT FLAGS...
objc_require_gnustep() {
    if ! command -v gnustep-config >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then
        echo "installing gobjc gnustep-base-common libgnustep-base-dev (GNUstep: the Objective-C runtime of the tests)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gobjc gnustep-base-common libgnustep-base-dev
    fi
}

objc_archive() {
    local dir="$1"
    shift
    mkdir -p "$dir/core" "$dir/objc"
    local objects=()
    local source object
    for source in Sources/CDispatchTable/*.c; do
        object="$dir/core/$(basename "$source" .c).o"
        gcc -std=c11 -Iinclude "$@" -c "$source" -o "$object"
        objects+=("$object")
    done
    for source in Sources/FastDelegatesObjC/*.m; do
        object="$dir/objc/$(basename "$source" .m).o"
        # shellcheck disable=SC2046 # gnustep-config prints a list of options
        gcc $(gnustep-config --objc-flags) -std=gnu11 -Wextra -Werror -Wno-unused-parameter -Wno-expansion-to-defined \
            -Iinclude -ISources/FastDelegatesObjC/include "$@" -c "$source" -o "$object"
        objects+=("$object")
    done
    rm -f "$dir/libfastdelegates-objc.a"
    ar rcs "$dir/libfastdelegates-objc.a" "${objects[@]}"
}

objc_program() {
    local dir="$1" source="$2" out="$3"
    shift 3
    # shellcheck disable=SC2046
    gcc $(gnustep-config --objc-flags) -std=gnu11 -Wno-unused-parameter -Iinclude -ISources/FastDelegatesObjC/include \
        -ITests/ObjCBridge "$@" -c "$source" -o "$out.o" || return 1
    # shellcheck disable=SC2046
    gcc "$out.o" "$dir/libfastdelegates-objc.a" "$@" $(gnustep-config --base-libs) -lbsd -o "$out"
}
