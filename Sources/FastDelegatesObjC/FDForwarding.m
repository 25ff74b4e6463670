// Calls no typed IMP serves arrive as NSInvocations (forwardInvocation:): struct results,
// pointer arguments, more objects, block arguments. Void: every live responder in order
// (`breaking`: the first); a result or a block argument: the first live responder only, so a
// completion or decision handler runs once. With nobody to answer: a zero result, and each
// block argument called once with zero values, through its own signature (FDBlockCall.m).
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDInternal.h"

#include <stdlib.h>
#include <string.h>

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
                  @"with zero values (a block without a signature, or a union or bit-field parameter)",
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
