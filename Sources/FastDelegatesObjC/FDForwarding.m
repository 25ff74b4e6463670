// Calls no typed IMP serves arrive as NSInvocations (forwardInvocation:): struct results,
// pointer arguments, more objects, block arguments. Void: every live responder in order
// (`breaking`: the first); a result or a block argument: the first live responder only, so a
// completion or decision handler runs once. With nobody to answer: a zero result, and each
// block argument called once with zero values where its signature allows.
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDInternal.h"

#include <stdlib.h>
#include <string.h>

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

static BOOL is_integer(char c) {
    return c && strchr("cCsSiIlLqQB*@#:^", c) != NULL;
}

BOOL fd_call_block_with_zeros(void *pointer) {
    fd_block *block = pointer;
    if (!block || !(block->flags & FD_BLOCK_HAS_SIGNATURE) || !block->descriptor || !block->invoke) return NO;
    const char *signature = block->descriptor->rest[(block->flags & FD_BLOCK_HAS_COPY_DISPOSE) ? 2 : 0];
    const char *type;
    size_t length;
    const char *cursor = fd_next_type(signature, &type, &length);
    if (!cursor || !(type[0] == 'v' || is_integer(type[0]) || type[0] == 'd' || type[0] == 'f')) return NO;
    cursor = fd_next_type(cursor, &type, &length); // the block itself
    if (!cursor) return NO;
    int integers = 0, floats = 0;
    while ((cursor = fd_next_type(cursor, &type, &length))) {
        if (is_integer(type[0])) integers++;
        else if (type[0] == 'd' || type[0] == 'f') floats++;
        else return NO; // a struct, union or array by value: not callable without its layout
    }
    if (integers > 5 || floats > 8) return NO;
    // Scalar arguments travel in registers, integers and floating point apart, on x86-64 and
    // arm64: zeros in all of them give each parameter zero, whatever their order.
    ((void (*)(void *, long, long, long, long, long, double, double, double, double, double, double, double,
               double))block->invoke)(block, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    return YES;
}

void fd_answer_nothing(NSInvocation *invocation, const char *types) {
    NSMethodSignature *signature = [invocation methodSignature];
    NSUInteger length = [signature methodReturnLength];
    const char *type;
    size_t type_length;
    const char *cursor = fd_next_type(types, &type, &type_length);
    if (length > 0 && type[0] != 'v') {
        void *zero = calloc(1, length);
        if (zero) [invocation setReturnValue:zero];
        free(zero);
    }
    for (NSUInteger index = 0; (cursor = fd_next_type(cursor, &type, &type_length)); index++) {
        if (!(type_length >= 2 && type[0] == '@' && type[1] == '?')) continue;
        void *block = NULL;
        [invocation getArgument:&block atIndex:(NSInteger)index];
        if (block && !fd_call_block_with_zeros(block)) {
            NSLog(@"FDDelegateMulticaster: nobody answered %s, and its block argument %lu cannot be called "
                  @"with zero values (no signature, or a struct argument)",
                  sel_getName([invocation selector]), (unsigned long)index);
        }
    }
}

void fd_forward(fd_core *core, fd_method *method, NSInvocation *invocation) {
    FD_CONFINED(core);
    const char *type;
    size_t length;
    fd_next_type(method->types, &type, &length);
    BOOL first_only = method->has_block || type[0] != 'v' || core->breaking;
    fd_enter(core);
    @try {
        BOOL answered = NO;
        cdt_span span = cdt_chain_lookup(core->chain, method->message);
        for (size_t i = 0; i < span.count; i++) {
            id target = fd_entry_answering(core, span.entries[i], method);
            if (!target) continue;
            [invocation invokeWithTarget:target];
            answered = YES;
            if (first_only) break;
        }
        if (!answered) fd_answer_nothing(invocation, method->types); // inside: `method` is the core's
    } @finally {
        fd_leave(core);
    }
}
#endif
