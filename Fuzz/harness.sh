# Sourced by Fuzz/run.sh and Fuzz/coverage.sh: what building the libFuzzer harness needs.
# Reads SECONDS (the scripts' argument) and CC; sets SECONDS_TO_RUN, FUZZ_DIR, ROOT (and cds
# there), CC, LIBS, EXTRA (linker flags) and CORE_SOURCES.
# Usage: . harness.sh NAME SECONDS CLANG...   (the clangs to try, in order, when CC is unset)
fuzz_name="$1"; SECONDS_TO_RUN="${2:-60}"; shift 2
case "$SECONDS_TO_RUN" in (''|*[!0-9]*) echo "usage: $fuzz_name [SECONDS]" >&2; exit 2;; esac

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$FUZZ_DIR/.." && pwd)"
cd "$ROOT"

CC="${CC:-}"
if [ -z "$CC" ]; then
    for candidate in "$@"; do
        if command -v "$candidate" >/dev/null 2>&1; then CC="$(command -v "$candidate")"; break; fi
    done
fi
[ -n "$CC" ] || { echo "$fuzz_name: no clang found (set CC)" >&2; exit 2; }

LIBS=()
[ "$(uname -s)" = "Linux" ] && LIBS+=(-lbsd)
EXTRA=()
# lld next to clang avoids ld.gold's noise about the sanitizer runtimes.
[ -x "$(dirname "$CC")/ld.lld" ] && EXTRA+=(-fuse-ld=lld)
# The core's C files, less the Swift-runtime glue (it needs libswiftCore, and the harness
# never holds Swift objects).
CORE_SOURCES=()
for file in Sources/CDispatchTable/*.c; do
    [ "$(basename "$file")" = "swift_runtime.c" ] || CORE_SOURCES+=("$file")
done
