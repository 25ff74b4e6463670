// The multicaster's private classes. Their state is in instance variables declared here, in
// @interface blocks (gcc allows none in @implementation or class extensions).
#ifndef FD_INTERNAL_H
#define FD_INTERNAL_H

#include "FDDelegateMulticaster.h"
#include "FDMethods.h"
#include "FDZeroingWeak.h"

#include <pthread.h>

@class FDMulticasterImpl;
@class FDProxyBase;

/// What a call in flight reads: the chain, the methods and the flags, in C. The multicaster
/// owns it; when the multicaster is deallocated during one of its own calls, the core keeps the
/// listeners' records and the proxy (`orphans`) and outlives it until the outermost call leaves.
typedef struct fd_core {
    cdt_chain *chain;
    fd_method_table table;
    FD_UNRETAINED FDMulticasterImpl *owner; // nil once the multicaster is gone
    FD_UNRETAINED FDProxyBase *proxy;
    const void *orphans;                    // retained by the core after its owner went mid-call
    pthread_t thread;                       // the confining thread
    SEL lastSelector;                       // the typed path's last call: a run of one selector
    fd_method *lastMethod;                  // finds its method in one compare
    volatile int deadPending;               // a listener died (set from any thread on GCC's runtime)
    BOOL breaking;
    BOOL changing, changeAgain;             // listeners_changed is running; and must run again
    BOOL mustTell;                          // the next change reassigns and tells the watchers: a nested
                                            // multicaster changed, or the last telling raised
    // The records, in other multicasters, of listeners that are this multicaster's proxy: told
    // when what it answers changes (nesting). Unretained FDListener pointers.
    void **watchers;
    uint32_t watcher_count, watcher_capacity;
} fd_core;

/// One listener: the object of its slot in the C core's chain.
@interface FDListener : NSObject {
@public
    FD_WEAK id object;            // Apple: a weak reference; GCC: cleared by FDZeroingWeak
    fd_core *core;                // NULL once removed
    cdt_handle handle;
    uint64_t order;
    uint32_t *messages;           // the methods it was entered for
    uint32_t message_count;
    BOOL nested;                  // the listener is another multicaster's proxy
    fd_core *inner;               // that multicaster's core; NULL once it is gone
#if FD_APPLE_RUNTIME
    FD_UNRETAINED id deathWatch;  // the FDDeathWatch associated with the listener, until either goes
#else
    fd_watch watch;               // its entry in the zeroing side table
#endif
}
@end

/// The class every proxy class made at run time derives from.
@interface FDProxyBase : NSObject {
@public
    fd_core *core;                // NULL once the multicaster is gone
    NSDictionary *signatures;     // selector name -> type encoding, for after that
}
@end

/// The only class of FDDelegateMulticaster's instances.
@interface FDMulticasterImpl : FDDelegateMulticaster {
@public
    fd_core *core;
    FDProxyBase *proxyObject;
    NSMutableArray *records;      // FDListener, in order
    NSMutableArray *parked;       // records released during a dispatch, until the outermost leave
    FD_WEAK id host;
    NSString *hostKey;
    // The slot's delegate before installation, held weakly and watched as a listener is (GCC's
    // runtime has no __weak: a plain pointer there would outlive it); nil when there was none.
    FDListener *originalRecord;
    const void *originalTold;     // the original when the host and watchers last looked; compared only
    BOOL installed;
    BOOL installing, reassignOwed; // inside installOnHost:'s set of the slot; a change came meanwhile
#if !FD_APPLE_RUNTIME
    fd_watch hostWatch;           // keeps the multicaster alive while the host lives
#endif
}
@end

/// Raises NSInternalInconsistencyException off the multicaster's thread (DEBUG builds only).
#if defined(DEBUG) && DEBUG
void fd_check_thread(fd_core *core);
#define FD_CONFINED(core) fd_check_thread(core)
#else
#define FD_CONFINED(core) ((void)0)
#endif

/// `record`'s listener, or nil once it died.
static inline id fd_listener_object(FDListener *FD_UNRETAINED record) {
#if FD_APPLE_RUNTIME
    return record->object;
#else
    return __atomic_load_n(&record->object, __ATOMIC_ACQUIRE); // cleared from any thread
#endif
}

/// The slot's original delegate, or nil once it died (or when there was none).
static inline id fd_original(FDMulticasterImpl *impl) {
    FDListener *FD_UNRETAINED record = impl->originalRecord;
    return record ? fd_listener_object(record) : nil;
}

/// Whether the proxy of `inner` answers `selector` now, as its respondsToSelector: would: a
/// protocol method when some live listener of its own does, any other when its original does.
BOOL fd_inner_answers(fd_core *inner, SEL selector);

/// The live object of `entry` when it answers `method` now, or nil (released, or dead: then
/// noted for the outermost leave). Another multicaster's proxy (nesting) answers a method
/// exactly when its own live listeners or its original delegate do, at each call.
static inline id fd_entry_answering(fd_core *core, cdt_entry entry, fd_method *method) FD_RETURNS_RETAINED;
static inline id fd_entry_answering(fd_core *core, cdt_entry entry, fd_method *method) {
    void *record = cdt_chain_object(core->chain, entry);
    if (!record) return nil;
    FDListener *FD_UNRETAINED listener = (FD_BRIDGE FDListener *)record; // the chain keeps it
    id target = fd_listener_object(listener);
    if (!target) {
        __atomic_store_n(&core->deadPending, 1, __ATOMIC_RELAXED);
        return nil;
    }
    if (__builtin_expect(listener->nested, 0) && !(listener->inner && fd_inner_answers(listener->inner, method->selector))) {
        return nil;
    }
    return target;
}

/// The method of a typed call's `_cmd`.
static inline fd_method *fd_method_for(fd_core *core, SEL selector) {
    if (__builtin_expect(selector == core->lastSelector, 1)) return core->lastMethod;
    fd_method *method = fd_methods_find(&core->table, selector);
    if (method) {
        core->lastSelector = selector;
        core->lastMethod = method;
    }
    return method;
}

/// Marks a dispatch as inside.
static inline void fd_enter(fd_core *core) {
    cdt_chain_enter(core->chain);
}

void fd_after_outermost(fd_core *core);

/// Marks a dispatch as gone; the outermost one reclaims, purges the dead and reassigns, or
/// frees the core if its multicaster went during the dispatch. Touch nothing of `core` after.
static inline void fd_leave(fd_core *core) {
    int pending = cdt_chain_leave(core->chain);
    if (__builtin_expect(pending | __atomic_load_n(&core->deadPending, __ATOMIC_RELAXED), 0)) fd_after_outermost(core);
}

/// Whether some live listener answers `method`.
BOOL fd_answers(fd_core *core, fd_method *method);

/// The proxy class for `protocol` with `table`'s methods (one per protocol and method list).
Class fd_proxy_class(Protocol *protocol, fd_method_table *table);

/// Calls `block` (a block argument nobody answered) once, through its own signature, with every
/// parameter zero (scalars, objects, pointers, structs); NO, without calling it, when it has no
/// signature or a parameter no call can be built for (a union, a bit field).
BOOL fd_call_block_with_zeros(void *block);

/// The Block ABI signature of `block` ("v24@?0q8..."), or NULL.
const char *fd_block_signature(void *block);

/// Zero result and zero-called block arguments for a forwarded call nobody answers.
void fd_answer_nothing(NSInvocation *invocation, const char *types);

/// The typed IMP of `shape`, or NULL for FD_SHAPE_FORWARD.
IMP fd_typed_imp(fd_shape shape);

/// Serves a forwarded call of `method` (the proxy's forwardInvocation:).
void fd_forward(fd_core *core, fd_method *method, NSInvocation *invocation);

#endif
