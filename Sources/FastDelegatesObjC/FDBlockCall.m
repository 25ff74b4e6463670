// A block argument nobody answered (a decision or completion handler) is called once, through
// its own signature, with every parameter zero: the Block ABI gives the signature (clang emits
// one for every block), and the call is built from it: by NSInvocation on Apple's Foundation,
// which invokes a block whose signature's first argument is `@?`, and by libffi on GNUstep's
// (which links it already; its NSInvocation cannot call a block).
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDInternal.h"

#include <stdlib.h>
#include <string.h>
#if !defined(__APPLE__)
#include <ffi.h>
#endif

// The Block ABI (clang's Block-ABI-Apple): the layout every block has, whatever compiled it.
enum { FD_BLOCK_HAS_COPY_DISPOSE = 1 << 25, FD_BLOCK_HAS_SIGNATURE = 1 << 30 };
typedef struct fd_block_descriptor {
    unsigned long reserved;
    unsigned long size;
    const void *rest[]; // copy and dispose when FD_BLOCK_HAS_COPY_DISPOSE, then the signature
} fd_block_descriptor;
typedef struct fd_block {
    void *isa;
    int flags;
    int reserved;
    void *invoke;
    fd_block_descriptor *descriptor;
} fd_block;

const char *fd_block_signature(void *pointer) {
    fd_block *block = pointer;
    if (!block || !(block->flags & FD_BLOCK_HAS_SIGNATURE) || !block->descriptor || !block->invoke) return NULL;
    return block->descriptor->rest[(block->flags & FD_BLOCK_HAS_COPY_DISPOSE) ? 2 : 0];
}

#if defined(__APPLE__)
BOOL fd_call_block_with_zeros(void *block) {
    const char *signature = fd_block_signature(block);
    if (!signature) return NO;
    NSMethodSignature *types = [NSMethodSignature signatureWithObjCTypes:signature];
    if (!types) return NO;
    NSInvocation *invocation = [NSInvocation invocationWithMethodSignature:types]; // arguments zeroed
    [invocation invokeWithTarget:(FD_BRIDGE id)block];
    return YES;
}
#else
// The ffi types an encoding needs, freed together after the call.
typedef struct fd_ffi_types {
    ffi_type **made;
    size_t count, capacity;
} fd_ffi_types;

static void *keep(fd_ffi_types *types, void *made) {
    if (!made) return NULL;
    if (types->count == types->capacity) {
        size_t capacity = types->capacity ? types->capacity * 2 : 8;
        ffi_type **grown = realloc(types->made, capacity * sizeof *grown);
        if (!grown) {
            free(made);
            return NULL;
        }
        types->made = grown;
        types->capacity = capacity;
    }
    types->made[types->count++] = made;
    return made;
}

static ffi_type *ffi_type_of(fd_ffi_types *types, const char *type, size_t length);

// `{name=members}` or `[count member]`, as a struct of its members (an array inside a struct
// lays out as that many members).
static ffi_type *ffi_aggregate(fd_ffi_types *types, const char *type, size_t length) {
    const char *end = type + length - 1; // the closing `}` or `]`
    const char *cursor;
    size_t repeat = 1;
    if (type[0] == '{') {
        const char *equals = memchr(type, '=', length);
        if (!equals) return NULL; // a struct without its members: its layout is unknown
        cursor = equals + 1;
    } else {
        cursor = type + 1;
        repeat = strtoul(cursor, (char **)&cursor, 10);
    }
    ffi_type *members[64];
    size_t count = 0;
    while (cursor < end) {
        const char *member;
        size_t member_length;
        // Members carry no offsets: read one type, bounded by the aggregate.
        char buffer[256];
        size_t rest = (size_t)(end - cursor);
        if (rest >= sizeof buffer) return NULL;
        memcpy(buffer, cursor, rest);
        buffer[rest] = 0;
        const char *next = fd_next_type(buffer, &member, &member_length);
        if (!next) return NULL;
        ffi_type *element = ffi_type_of(types, member, member_length);
        if (!element || count == 64) return NULL;
        members[count++] = element;
        cursor += next - buffer;
    }
    if (count == 0 || count * repeat > 256) return NULL;
    ffi_type *aggregate = keep(types, calloc(1, sizeof *aggregate));
    ffi_type **elements = keep(types, calloc(count * repeat + 1, sizeof *elements));
    if (!aggregate || !elements) return NULL;
    for (size_t r = 0; r < repeat; r++) memcpy(elements + r * count, members, count * sizeof *members);
    aggregate->type = FFI_TYPE_STRUCT;
    aggregate->elements = elements;
    return aggregate;
}

static ffi_type *ffi_type_of(fd_ffi_types *types, const char *type, size_t length) {
    switch (type[0]) {
    case 'c': return &ffi_type_schar;
    case 'C': return &ffi_type_uchar;
    case 'B': return &ffi_type_uint8;
    case 's': return &ffi_type_sshort;
    case 'S': return &ffi_type_ushort;
    case 'i': return &ffi_type_sint;
    case 'I': return &ffi_type_uint;
    case 'l': return &ffi_type_slong;
    case 'L': return &ffi_type_ulong;
    case 'q': return &ffi_type_sint64;
    case 'Q': return &ffi_type_uint64;
    case 'f': return &ffi_type_float;
    case 'd': return &ffi_type_double;
    case 'D': return &ffi_type_longdouble;
    case 'v': return &ffi_type_void;
    case '@': case '#': case ':': case '*': case '^': return &ffi_type_pointer;
    case '{': case '[': return ffi_aggregate(types, type, length);
    default: return NULL; // a union or a bit field: not called
    }
}

BOOL fd_call_block_with_zeros(void *block) {
    const char *signature = fd_block_signature(block);
    if (!signature) return NO;
    fd_ffi_types types = {0};
    ffi_type *arguments[32];
    unsigned count = 0;
    const char *type;
    size_t length;
    const char *cursor = fd_next_type(signature, &type, &length);
    ffi_type *result = cursor ? ffi_type_of(&types, type, length) : NULL;
    BOOL callable = result != NULL;
    while (callable && (cursor = fd_next_type(cursor, &type, &length))) {
        ffi_type *argument = ffi_type_of(&types, type, length);
        if (!argument || argument == &ffi_type_void || count == 32) callable = NO;
        else arguments[count++] = argument;
    }
    ffi_cif cif;
    callable = callable && count >= 1 && arguments[0] == &ffi_type_pointer && // the block itself
               ffi_prep_cif(&cif, FFI_DEFAULT_ABI, count, result, arguments) == FFI_OK;
    if (callable) {
        size_t size = 0;
        for (unsigned i = 1; i < count; i++) size += (arguments[i]->size + 15) & ~(size_t)15;
        unsigned char *zeros = calloc(1, size + 16);
        void *answer = calloc(1, result->size > sizeof(ffi_arg) ? result->size : sizeof(ffi_arg));
        void *values[32];
        void *self = block;
        values[0] = &self;
        unsigned char *next = zeros;
        for (unsigned i = 1; i < count; i++) {
            values[i] = next;
            next += (arguments[i]->size + 15) & ~(size_t)15;
        }
        if (zeros && answer) ffi_call(&cif, FFI_FN(((fd_block *)block)->invoke), answer, values);
        else callable = NO;
        free(zeros);
        free(answer);
    }
    for (size_t i = 0; i < types.count; i++) free(types.made[i]);
    free(types.made);
    return callable;
}
#endif
#endif
