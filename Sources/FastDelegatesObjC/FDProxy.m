// The proxy: an NSObject of a class made at run time per protocol and method list, adopting
// the protocol, with a typed IMP for each method of a common shape; the rest are forwarded.
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDInternal.h"

#include <pthread.h>
#include <stdlib.h>

// The slot's original delegate, while the multicaster lives.
static id original_of(fd_core *core) {
    return core && core->owner ? fd_original(core->owner) : nil;
}

@implementation FDProxyBase

- (BOOL)respondsToSelector:(SEL)selector {
    if (core) {
        fd_method *method = fd_methods_find(&core->table, selector);
        if (method) {
            FD_CONFINED(core);
            return fd_answers(core, method);
        }
    } else if (selector && [signatures objectForKey:[NSString stringWithUTF8String:sel_getName(selector)]]) {
        return NO;
    }
    if (class_respondsToSelector([FDProxyBase class], selector)) return YES;
    id original = original_of(core);
    return original != nil && [original respondsToSelector:selector];
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    fd_method *method = core ? fd_methods_find(&core->table, selector) : NULL;
    if (method) return fd_method_signature(method);
    NSString *types = selector ? [signatures objectForKey:[NSString stringWithUTF8String:sel_getName(selector)]] : nil;
    if (types) { // the multicaster is gone
        char *spelled = fd_signature_types([types UTF8String]);
        NSMethodSignature *signature = spelled ? [NSMethodSignature signatureWithObjCTypes:spelled] : nil;
        free(spelled);
        return signature;
    }
    if (class_respondsToSelector([FDProxyBase class], selector)) return [super methodSignatureForSelector:selector];
    id original = original_of(core);
    if (original && [original respondsToSelector:selector]) return [original methodSignatureForSelector:selector];
    return nil;
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    SEL selector = [invocation selector];
    fd_method *method = core ? fd_methods_find(&core->table, selector) : NULL;
    if (method) {
        fd_forward(core, method, invocation);
        return;
    }
    NSString *types = [signatures objectForKey:[NSString stringWithUTF8String:sel_getName(selector)]];
    if (types) { // the multicaster is gone: nobody answers
        fd_answer_nothing(invocation, [types UTF8String]);
        return;
    }
    id original = original_of(core);
    if (original && [original respondsToSelector:selector]) {
        [invocation invokeWithTarget:original];
        return;
    }
    [super forwardInvocation:invocation];
}

- (NSString *)description {
    return [NSString stringWithFormat:@"<%s %p: FDDelegateMulticaster proxy>", class_getName([self class]), (void *)self];
}

#if !__has_feature(objc_arc)
- (void)dealloc {
    [signatures release];
    [super dealloc];
}
#endif

@end

static pthread_mutex_t classes_lock = PTHREAD_MUTEX_INITIALIZER;
static NSMutableDictionary *classes; // method list key -> class
static unsigned class_serial; // under classes_lock

Class fd_proxy_class(Protocol *protocol, fd_method_table *table) {
    NSMutableString *key = [NSMutableString stringWithFormat:@"%s|", protocol ? protocol_getName(protocol) : ""];
    for (uint32_t i = 0; i < table->count; i++) {
        [key appendFormat:@"%s=%s;", sel_getName(table->methods[i].selector), table->methods[i].types];
    }
    pthread_mutex_lock(&classes_lock);
    if (!classes) classes = [NSMutableDictionary new];
    Class made = [classes objectForKey:key];
    // A name taken already (by another copy of this library in the process, which counts from
    // 1 too, or by anyone) is stepped over: the next serial is tried.
    for (unsigned attempt = 0; !made && attempt < 4096; attempt++) {
        char name[256];
        snprintf(name, sizeof name, "FDProxy_%s_%u", protocol ? protocol_getName(protocol) : "informal",
                 ++class_serial);
        if (objc_getClass(name)) continue;
        made = objc_allocateClassPair([FDProxyBase class], name, 0);
        if (made) {
            for (uint32_t i = 0; i < table->count; i++) {
                IMP imp = fd_typed_imp(table->methods[i].shape);
                if (imp) class_addMethod(made, table->methods[i].selector, imp, table->methods[i].types);
            }
            objc_registerClassPair(made);
            if (protocol) class_addProtocol(made, protocol);
            [classes setObject:made forKey:key];
        }
    }
    pthread_mutex_unlock(&classes_lock);
    if (!made) [NSException raise:NSMallocException format:@"FDDelegateMulticaster: could not make a proxy class"];
    return made;
}
#endif
