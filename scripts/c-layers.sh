#!/usr/bin/env bash
# The C core's layers: which .c file of Sources/CDispatchTable calls which, read from the
# compiled objects. Fails, printing what is wrong, when
#   - the call graph between the files has a cycle (printed as a path back to its start);
#   - a file calls a function of another file without including a header that declares it
#     (each file includes what it uses);
#   - a file includes an internal header (Sources/CDispatchTable/*.h) and uses none of its names;
#   - an object exports a symbol not prefixed `cdt_`.
# Otherwise prints each file's dependencies and the layers: layer 0 calls no other file of the
# core, layer n calls only files of the layers below n.
#
# File A depends on file B when A's object needs (`nm -u`) a symbol B's object defines, or A
# includes B's internal header B.h (its inline functions and types are B's code). Calls
# through a function pointer handed in by a caller (generations.h's cdt_generations_in_use) are
# not edges: that is how a lower layer reaches what only a higher one knows.
#
# Usage: scripts/c-layers.sh   (make c-layers, part of make test; CC_CHECK picks the compiler)
set -euo pipefail
cd "$(dirname "$0")/.."

CC="${CC_CHECK:-cc}"
SOURCES=Sources/CDispatchTable
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
STRIP='s/^_//' # Mach-O symbols carry a leading underscore
[ "$(uname -s)" = Darwin ] || STRIP='s/^//'

: >"$WORK/defined"
: >"$WORK/needed"
for source in "$SOURCES"/*.c; do
    file="$(basename "$source" .c)"
    "$CC" -std=c11 -Iinclude -c "$source" -o "$WORK/$file.o"
    nm -g --defined-only "$WORK/$file.o" | awk 'NF == 3 {print $3}' | sed "$STRIP" |
        awk -v file="$file" '{print $1, file}' >>"$WORK/defined"
    nm -u "$WORK/$file.o" | awk '{print $NF}' | sed "$STRIP" | awk -v file="$file" '{print file, $1}' >>"$WORK/needed"
done

status=0

# Every exported symbol is prefixed `cdt_`.
if awk '$1 !~ /^cdt_/' "$WORK/defined" | grep -q .; then
    echo "c-layers: exported symbols without the cdt_ prefix:"
    awk '$1 !~ /^cdt_/ {print "  " $2 ".c: " $1}' "$WORK/defined"
    status=1
fi

# The edges, one per (caller, symbol, callee): a symbol the caller needs and another file defines.
awk 'NR == FNR {owner[$1] = $2; next} ($2 in owner) && owner[$2] != $1 {print $1, $2, owner[$2]}' \
    "$WORK/defined" "$WORK/needed" | sort -u >"$WORK/calls"

# Include what you use: a header the caller includes directly declares each symbol it calls.
while read -r caller symbol callee; do
    found=0
    for header in $(sed -n 's/^#include "\(.*\)"/\1/p' "$SOURCES/$caller.c"); do
        path="$SOURCES/$header"
        [ -f "$path" ] || path="include/$header"
        if [ -f "$path" ] && grep -qw "$symbol" "$path"; then found=1; break; fi
    done
    if [ $found = 0 ]; then
        echo "c-layers: $caller.c calls $symbol ($callee.c) but includes no header that declares it"
        status=1
    fi
done <"$WORK/calls"

# An internal header included is used: some name it declares (a `cdt_` name no public header
# has) appears in the file. Including X.h makes the file depend on X.c (its inline functions
# and types are X's code), so those edges join the graph too.
: >"$WORK/includes"
for source in "$SOURCES"/*.c; do
    file="$(basename "$source" .c)"
    grep -v '^#include' "$source" >"$WORK/body"
    for header in $(sed -n 's/^#include "\(.*\)"/\1/p' "$source"); do
        [ -f "$SOURCES/$header" ] || continue
        used=0
        for name in $(grep -ow 'cdt_[A-Za-z0-9_]*' "$SOURCES/$header" | sort -u); do
            grep -qw "$name" include/*.h && continue
            if grep -qw "$name" "$WORK/body"; then used=1; break; fi
        done
        if [ $used = 0 ]; then
            echo "c-layers: $file.c includes $header but uses none of its names"
            status=1
        fi
        owner="${header%.h}"
        [ "$owner" != "$file" ] && [ -f "$SOURCES/$owner.c" ] && echo "$file $owner" >>"$WORK/includes"
    done
done

# The file graph: cycles, then layers (a file's layer is one more than its highest dependency's).
ls "$SOURCES"/*.c | xargs -n1 basename | sed 's/\.c$//' >"$WORK/files"
{ awk '{print $1, $3}' "$WORK/calls"; cat "$WORK/includes"; } | sort -u >"$WORK/edges"
awk '
    NR == FNR { files[++n] = $1; next }
    { deps[$1] = deps[$1] " " $2 }
    function visit(f,    list, count, i, d, j, path) {
        state[f] = 1; stack[++depth] = f
        count = split(deps[f], list, " ")
        for (i = 1; i <= count; i++) {
            d = list[i]
            if (state[d] == 1) {
                path = d
                for (j = depth; j >= 1 && stack[j] != d; j--) path = stack[j] " -> " path
                path = d " -> " path
                print "c-layers: the graph between the files has a cycle: " path
                cycle = 1
            } else if (state[d] == 0) {
                visit(d)
            }
            if (layer[d] + 1 > layer[f]) layer[f] = layer[d] + 1
        }
        depth--; state[f] = 2
    }
    END {
        for (i = 1; i <= n; i++) { state[files[i]] = 0; layer[files[i]] = 0 }
        for (i = 1; i <= n; i++) if (state[files[i]] == 0) visit(files[i])
        if (cycle) exit 1
        for (i = 1; i <= n; i++) {
            f = files[i]
            printf "  %-16s -> %s\n", f ".c", (deps[f] == "" ? "(nothing)" : substr(deps[f], 2))
            if (layer[f] > top) top = layer[f]
        }
        for (l = 0; l <= top; l++) {
            line = ""
            for (i = 1; i <= n; i++) if (layer[files[i]] == l) line = line " " files[i]
            print "  layer " l ":" line
        }
    }
' "$WORK/files" "$WORK/edges" || status=1

if [ $status = 0 ]; then
    echo "C core: layered (no cycle between its files; each includes what it uses)"
fi
exit $status
