// FDDelegateMulticaster: listeners in order in the C core's chain (one slot each, one entry
// per protocol method it responds to), the proxy in the host's slot, and the reassignment
// that makes a host which caches respondsToSelector: ask again.
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDInternal.h"

#include <stdlib.h>

// Listeners' sort keys are spaced so that an insertion finds room between two neighbours;
// when it does not, every key is renumbered (relative order kept).
static const uint64_t order_step = (uint64_t)1 << 20;

@implementation FDListener
@end

#if defined(DEBUG) && DEBUG
void fd_check_thread(fd_core *core) {
    if (!pthread_equal(pthread_self(), core->thread)) {
        [NSException raise:NSInternalInconsistencyException
                    format:@"FDDelegateMulticaster %p used off its thread: a multicaster belongs to the thread that "
                           @"made it (its host's thread, the main thread for UIKit)",
                           (void *)core->owner];
    }
}
#endif

BOOL fd_answers(fd_core *core, fd_method *method) {
    cdt_span span = cdt_chain_lookup(core->chain, method->message);
    for (size_t i = 0; i < span.count; i++) {
        if (fd_entry_answering(core, span.entries[i], method)) return YES;
    }
    return NO;
}

BOOL fd_inner_answers(fd_core *inner, SEL selector) {
    fd_method *method = fd_methods_find(&inner->table, selector);
    if (method) return fd_answers(inner, method);
    // Outside its table the inner proxy forwards to its original: two SDKs with different
    // protocols on one slot keep the app's methods that only the outer one's protocol has.
    id original = inner->owner ? fd_original(inner->owner) : nil;
    return original != nil && [original respondsToSelector:selector];
}

// Nesting: `record` (a listener that is another multicaster's proxy) is told when what that
// multicaster answers changes, until it stops watching or that multicaster goes.
static void watch_inner(FDListener *record, fd_core *inner) {
    if (inner->watcher_count == inner->watcher_capacity) {
        uint32_t capacity = inner->watcher_capacity ? inner->watcher_capacity * 2 : 4;
        void **grown = realloc(inner->watchers, capacity * sizeof *grown);
        if (!grown) [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
        inner->watchers = grown;
        inner->watcher_capacity = capacity;
    }
    inner->watchers[inner->watcher_count++] = (FD_BRIDGE void *)record;
    record->inner = inner;
}

static void unwatch_inner(FDListener *record) {
    fd_core *inner = record->inner;
    if (!inner) return;
    for (uint32_t i = 0; i < inner->watcher_count; i++) {
        if (inner->watchers[i] != (FD_BRIDGE void *)record) continue;
        inner->watchers[i] = inner->watchers[--inner->watcher_count];
        break;
    }
    record->inner = NULL;
}

// The multicaster of `core`'s proxy, or of a proxy among its listeners at any depth, is `target`.
static BOOL nests(fd_core *core, fd_core *target) {
    if (core == target) return YES;
    FDMulticasterImpl *impl = core->owner;
    if (!impl) return NO;
    for (FDListener *record in impl->records) {
        if (record->inner && nests(record->inner, target)) return YES;
    }
    return NO;
}

// The core of `object` when it is a live multicaster's proxy, else NULL.
static fd_core *proxy_core(id object) {
    for (Class class = object_getClass(object); class; class = class_getSuperclass(class)) {
        if (class == [FDProxyBase class]) return ((FDProxyBase *)object)->core;
    }
    return NULL;
}

static void listeners_changed(FDMulticasterImpl *impl);
static void death_watch_stop(FDListener *record);

// What `core`'s multicaster answers changed: each multicaster that has its proxy as a listener
// looks again (at once, or after its own outermost call).
static void tell_watchers(fd_core *core) {
    if (core->watcher_count == 0) return;
    NSMutableArray *owners = [NSMutableArray arrayWithCapacity:core->watcher_count];
    for (uint32_t i = 0; i < core->watcher_count; i++) {
        FDListener *record = (FD_BRIDGE FDListener *)core->watchers[i];
        if (record->core && record->core->owner) [owners addObject:record->core->owner];
    }
    for (FDMulticasterImpl *owner in owners) {
        if (!owner->core) continue;
        // Its own snapshot covers its own table only; the host may have cached answers the
        // inner proxy gave outside it (through the slot's original, which is that proxy).
        owner->core->mustTell = YES;
        listeners_changed(owner);
    }
}

// Whether the host's slot still holds the proxy (someone else may have set it since).
static BOOL slot_holds_proxy(FDMulticasterImpl *impl, id host) {
    return [host valueForKey:impl->hostKey] == impl->proxyObject;
}

static void reassign(FDMulticasterImpl *impl) {
    if (impl->installing) { // inside installOnHost:'s own set: it reassigns once that returns
        impl->reassignOwed = YES;
        return;
    }
    id host = impl->host;
    if (!host || !impl->installed || !slot_holds_proxy(impl, host)) return;
    [host setValue:nil forKey:impl->hostKey];
    [host setValue:impl->proxyObject forKey:impl->hostKey];
}

// Remembers what the host sees now; YES if it changed.
static BOOL snapshot_answers(FDMulticasterImpl *impl) {
    BOOL changed = NO;
    for (uint32_t i = 0; i < impl->core->table.count; i++) {
        fd_method *method = &impl->core->table.methods[i];
        BOOL answered = fd_answers(impl->core, method);
        changed = changed || answered != method->answered;
        method->answered = answered;
    }
    return changed;
}

static void refresh_handles(FDMulticasterImpl *impl) {
    cdt_chain *chain = impl->core->chain;
    for (uint32_t slot = 0; slot < chain->slot_count; slot++) {
        if (chain->slots[slot].generation == 0) continue;
        ((FD_BRIDGE FDListener *)chain->slots[slot].object)->handle.slot = slot;
    }
}

// Frees `record`'s slot and entries; while a dispatch runs, the record waits in `parked`.
static void drop(FDMulticasterImpl *impl, FDListener *record) {
    cdt_chain_release(impl->core->chain, record->handle, record->messages, record->message_count);
    unwatch_inner(record);
    death_watch_stop(record);
    free(record->messages);
    record->messages = NULL;
    record->message_count = 0;
    record->core = NULL;
    if (impl->core->chain->depth > 0) [impl->parked addObject:record];
    [impl->records removeObjectIdenticalTo:record];
}

static void purge_dead(FDMulticasterImpl *impl) {
    for (NSUInteger i = [impl->records count]; i > 0; i--) {
        FDListener *record = [impl->records objectAtIndex:i - 1];
        if (!fd_listener_object(record)) drop(impl, record);
    }
}

// After a change of listeners: at depth 0 the dead are dropped, the slots compacted and the
// host told at once; during a dispatch, all that waits for the outermost leave.
static void listeners_changed(FDMulticasterImpl *impl) {
    fd_core *core = impl->core;
    if (!core) return;
    if (core->chain->depth > 0) {
        cdt_chain_mark_pending(core->chain);
        return;
    }
    if (core->changing) { // a death or a change from the host's setter, while this runs
        core->changeAgain = YES;
        return;
    }
    core->changing = YES;
    // The host's setter, a nested original's respondsToSelector: and the watchers are user code:
    // when one raises, the flag still comes down and the next change tells everyone again.
    BOOL told = NO;
    @try {
        do {
            core->changeAgain = NO;
            __atomic_store_n(&core->deadPending, 0, __ATOMIC_RELEASE);
            purge_dead(impl);
            if (cdt_chain_compact(core->chain)) refresh_handles(impl);
            // The original answers the selectors outside the protocol: when it changes or dies,
            // the host's cached answers for those are stale too.
            const void *original = (FD_BRIDGE const void *)fd_original(impl);
            BOOL changed = snapshot_answers(impl) | core->mustTell | (original != impl->originalTold);
            core->mustTell = NO;
            impl->originalTold = original;
            if (changed) {
                reassign(impl);
                tell_watchers(core);
            }
        } while (core->changeAgain && core->chain->depth == 0);
        told = YES;
    } @finally {
        core->changing = NO;
        if (!told) core->mustTell = YES;
    }
}

// A listener died (on the multicaster's thread, outside any lock): a change, told at once, or
// after the outermost call when one runs.
static void death_told(FDListener *record) {
    fd_core *core = record->core;
    if (core && core->owner) listeners_changed(core->owner);
}

#if FD_APPLE_RUNTIME
// A listener's death, seen when it happens: an object associated with the listener, released
// when the listener is destroyed (Apple's runtime and libobjc2 both release associated objects
// then). From another thread the death is only noted (the next call's leave tells the host).
static pthread_mutex_t death_lock = PTHREAD_MUTEX_INITIALIZER;

@interface FDDeathWatch : NSObject {
@public
    FD_UNRETAINED FDListener *record; // nil once the record stopped watching
}
@end

@implementation FDDeathWatch
- (void)dealloc {
    FDListener *told = nil;
    pthread_mutex_lock(&death_lock);
    FDListener *watched = record;
    if (watched) {
        watched->deathWatch = nil;
        record = nil;
        fd_core *core = watched->core;
        if (core) {
            __atomic_store_n(&core->deadPending, 1, __ATOMIC_RELEASE);
            if (pthread_equal(pthread_self(), core->thread)) told = watched;
        }
    }
    pthread_mutex_unlock(&death_lock);
    if (told) death_told(told);
}
@end

static void death_watch_start(FDListener *record, id listener) {
    FDDeathWatch *watch = [FDDeathWatch new];
    watch->record = record;
    record->deathWatch = watch;
    objc_setAssociatedObject(listener, (FD_BRIDGE const void *)record, watch, OBJC_ASSOCIATION_RETAIN_NONATOMIC);
}

static void death_watch_stop(FDListener *record) {
    pthread_mutex_lock(&death_lock);
    FDDeathWatch *FD_UNRETAINED watch = record->deathWatch; // alive while it is linked, under the lock
    BOOL watching = watch != nil;
    if (watching) {
        watch->record = nil;
        record->deathWatch = nil;
    }
    pthread_mutex_unlock(&death_lock);
    id listener = watching ? fd_listener_object(record) : nil;
    if (listener) objc_setAssociatedObject(listener, (FD_BRIDGE const void *)record, nil, OBJC_ASSOCIATION_RETAIN_NONATOMIC);
}
#else
static id listener_died(fd_watch *watch) {
    FDListener *record = watch->context;
    __atomic_store_n(&record->object, nil, __ATOMIC_RELEASE);
    fd_core *core = record->core;
    if (!core) return nil;
    __atomic_store_n(&core->deadPending, 1, __ATOMIC_RELEASE);
    if (!pthread_equal(pthread_self(), core->thread)) return nil; // the next call's leave tells
    return [record retain]; // told once the side table's lock is dropped
}

static void listener_death_told(id record) {
    death_told(record);
}

static void death_watch_start(FDListener *record, id listener) {
    fd_watch_start(&record->watch, listener, listener_died, listener_death_told, (void *)record);
}

static void death_watch_stop(FDListener *record) {
    fd_watch_stop(&record->watch);
}
#endif

// Lets go of the records of a multicaster that is going: no more watches, no more entries.
static void release_records(NSArray *records) {
    for (FDListener *record in records) {
        unwatch_inner(record);
        death_watch_stop(record);
        free(record->messages);
        record->messages = NULL;
        record->core = NULL;
    }
}

// Makes `object` (or nil) the slot's original delegate: held weakly, and watched as a listener
// is, so that its death reads nil and is a change the host and the watchers are told of.
static void set_original(FDMulticasterImpl *impl, id object) {
    FDListener *old = impl->originalRecord;
    if (old && fd_listener_object(old) == object) return;
    FDListener *record = nil;
    if (object) {
        record = [FDListener new];
        record->object = object;
        record->core = impl->core;
        death_watch_start(record, object);
    }
    if (old) {
        death_watch_stop(old);
        old->core = NULL;
    }
    impl->originalRecord = record;
#if !__has_feature(objc_arc)
    [old release];
#endif
}

// Frees `core`, and what it kept of a multicaster that went during a dispatch.
static void core_destroy(fd_core *core) {
    if (core->proxy) core->proxy->core = NULL;
    // Multicasters listening to its proxy: it answers nothing from now on.
    NSMutableArray *watchers = [NSMutableArray arrayWithCapacity:core->watcher_count];
    for (uint32_t i = 0; i < core->watcher_count; i++) {
        FDListener *record = (FD_BRIDGE FDListener *)core->watchers[i];
        record->inner = NULL;
        [watchers addObject:record];
    }
    free(core->watchers);
    core->watchers = NULL;
    core->watcher_count = 0;
    if (core->orphans) release_records([(FD_BRIDGE NSArray *)core->orphans objectAtIndex:0]);
    cdt_chain_destroy(core->chain);
    fd_methods_free(&core->table);
    if (core->orphans) {
#if __has_feature(objc_arc)
        (void)(__bridge_transfer NSArray *)core->orphans;
#else
        [(NSArray *)core->orphans release];
#endif
    }
    free(core);
    for (FDListener *record in watchers) {
        if (!(record->core && record->core->owner)) continue;
        record->core->mustTell = YES;
        listeners_changed(record->core->owner);
    }
}

void fd_after_outermost(fd_core *core) {
    if (core->chain->depth > 0) return;
    FDMulticasterImpl *impl = core->owner;
    if (!impl) {
        core_destroy(core);
        return;
    }
    cdt_chain_reclaim(core->chain);
    [impl->parked removeAllObjects];
    listeners_changed(impl);
}

#if !FD_APPLE_RUNTIME
static id host_died(fd_watch *watch) {
    FDMulticasterImpl *impl = watch->context;
    impl->host = nil;
    impl->installed = NO;
    return impl; // the host's hold on the multicaster
}
#endif

@implementation FDDelegateMulticaster

+ (id)allocWithZone:(NSZone *)zone {
    if (self == [FDDelegateMulticaster class]) return [FDMulticasterImpl allocWithZone:zone];
    return [super allocWithZone:zone];
}

- (instancetype)initWithProtocol:(Protocol *)protocol {
    return [self initWithProtocol:protocol methods:nil];
}

- (instancetype)initWithProtocol:(Protocol *)protocol methods:(NSDictionary *)methods {
    if (!(self = [super init])) return nil;
    @try {
        if (![self isKindOfClass:[FDMulticasterImpl class]]) {
            [NSException raise:NSInvalidArgumentException format:@"FDDelegateMulticaster cannot be subclassed"];
        }
        if (!protocol && [methods count] == 0) {
            [NSException raise:NSInvalidArgumentException
                        format:@"FDDelegateMulticaster: a protocol or a methods table is needed"];
        }
        fd_core *core = calloc(1, sizeof *core);
        if (!core || !(core->chain = cdt_chain_create())) {
            free(core);
            [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
        }
        FDMulticasterImpl *impl = (FDMulticasterImpl *)self;
        impl->core = core;
        core->owner = impl;
        core->thread = pthread_self();
        fd_methods_load(&core->table, protocol, methods);
        impl->records = [NSMutableArray new];
        impl->parked = [NSMutableArray new];
        NSMutableDictionary *signatures = [NSMutableDictionary dictionary];
        for (uint32_t i = 0; i < core->table.count; i++) {
            [signatures setObject:[NSString stringWithUTF8String:core->table.methods[i].types]
                           forKey:[NSString stringWithUTF8String:sel_getName(core->table.methods[i].selector)]];
        }
        FDProxyBase *proxy = [fd_proxy_class(protocol, &core->table) new];
        proxy->core = core;
        proxy->signatures = [signatures copy];
        impl->proxyObject = proxy;
        core->proxy = proxy;
    } @catch (NSException *exception) {
#if !__has_feature(objc_arc)
        [self release]; // what was made so far goes with it (dealloc copes with a partial state)
#endif
        @throw;
    }
    return self;
}

- (void)dealloc {
    FDMulticasterImpl *impl = (FDMulticasterImpl *)self;
    fd_core *core = impl->core;
#if !FD_APPLE_RUNTIME
    fd_watch_stop(&impl->hostWatch);
#endif
    if (impl->originalRecord) {
        death_watch_stop(impl->originalRecord);
        impl->originalRecord->core = NULL;
    }
    if (!core) {
        release_records(impl->records); // init raised
    } else {
        core->owner = nil;
        if (core->chain->depth == 0) {
            release_records(impl->records);
            core_destroy(core);
        } else {
            // Gone during one of its own calls: the core keeps what the calls still read (the
            // records, still watched, and the proxy) and frees itself when the outermost one leaves.
            NSArray *orphans = [NSArray arrayWithObjects:impl->records, impl->parked, impl->proxyObject, nil];
#if __has_feature(objc_arc)
            core->orphans = (__bridge_retained const void *)orphans;
#else
            core->orphans = [orphans retain];
#endif
            cdt_chain_mark_pending(core->chain);
        }
    }
#if !__has_feature(objc_arc)
    [impl->proxyObject release];
    [impl->originalRecord release];
    [impl->records release];
    [impl->parked release];
    [impl->hostKey release];
    [super dealloc];
#endif
}

- (id)proxy {
    return ((FDMulticasterImpl *)self)->proxyObject;
}

- (BOOL)breaking {
    return ((FDMulticasterImpl *)self)->core->breaking;
}

- (void)setBreaking:(BOOL)breaking {
    FD_CONFINED(((FDMulticasterImpl *)self)->core);
    ((FDMulticasterImpl *)self)->core->breaking = breaking;
}

- (NSArray *)listeners {
    FDMulticasterImpl *impl = (FDMulticasterImpl *)self;
    FD_CONFINED(impl->core);
    NSMutableArray *live = [NSMutableArray arrayWithCapacity:[impl->records count]];
    for (FDListener *record in impl->records) {
        id object = fd_listener_object(record);
        if (object) [live addObject:object];
    }
    return live;
}

- (void)addListener:(id)listener {
    [self insertListener:listener atIndex:NSUIntegerMax];
}

// The record of `listener`, or nil.
static FDListener *record_of(FDMulticasterImpl *impl, id listener) {
    for (FDListener *record in impl->records) {
        if (fd_listener_object(record) == listener) return record;
    }
    return nil;
}

- (void)insertListener:(id)listener atIndex:(NSUInteger)index {
    FDMulticasterImpl *FD_UNRETAINED impl = (FDMulticasterImpl *)self; // as in installOnHost:key:
    FD_CONFINED(impl->core);
    if (!listener) [NSException raise:NSInvalidArgumentException format:@"FDDelegateMulticaster: a nil listener"];
    if (listener == impl->proxyObject) {
        [NSException raise:NSInvalidArgumentException format:@"FDDelegateMulticaster: its own proxy cannot listen to it"];
    }
    if (record_of(impl, listener)) return;
    fd_core *inner = proxy_core(listener);
    if (inner && nests(inner, impl->core)) {
        [NSException raise:NSInvalidArgumentException
                    format:@"FDDelegateMulticaster: %@ listens to this multicaster's proxy already: nesting them would "
                           @"make a cycle",
                           listener];
    }
    // Every question to the listener comes before any change: one that raises leaves nothing
    // behind, with or without -fobjc-arc-exceptions. Another multicaster's proxy is entered for
    // every method, answered now or not: each call asks it (fd_entry_answering).
    uint32_t method_count = impl->core->table.count, message_count = 0;
    uint32_t *messages = calloc(method_count ? method_count : 1, sizeof *messages);
    if (!messages) [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
    // @finally, not @catch: an ARC catch variable leaks the exception without -fobjc-arc-exceptions.
    BOOL asked = NO;
    @try {
        for (uint32_t i = 0; i < method_count; i++) {
            fd_method *method = &impl->core->table.methods[i];
            if (inner || [listener respondsToSelector:method->selector]) messages[message_count++] = method->message;
        }
        asked = YES;
    } @finally {
        if (!asked) free(messages);
    }
    // `index` counts live listeners: find the position among all records.
    NSUInteger position = 0, live = 0, count = [impl->records count];
    while (position < count && live < index) {
        FDListener *record = [impl->records objectAtIndex:position];
        if (fd_listener_object(record)) live++;
        position++;
    }
    if (live == index) { // step over dead records just before the next live one
        while (position < count && !fd_listener_object([impl->records objectAtIndex:position])) position++;
    }
    uint64_t below = position > 0 ? ((FDListener *)[impl->records objectAtIndex:position - 1])->order : 0;
    uint64_t above = position < count ? ((FDListener *)[impl->records objectAtIndex:position])->order : below + 2 * order_step;
    if (above - below < 2) { // no room: renumber every key, keeping their order
        for (NSUInteger i = 0; i < count; i++) {
            FDListener *record = [impl->records objectAtIndex:i];
            record->order = (i + 1 + (i >= position)) * order_step;
            cdt_chain_set_order(impl->core->chain, record->handle, record->order);
        }
        below = position * order_step;
        above = below + 2 * order_step;
    }
    FDListener *record = FD_AUTORELEASE([FDListener new]);
    record->order = below + (above - below) / 2;
    record->core = impl->core;
    record->messages = messages;
    if (cdt_chain_acquire(impl->core->chain, (FD_BRIDGE void *)record, record->order, &record->handle) != 0) {
        free(messages);
        record->messages = NULL;
        [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
    }
    record->object = listener;
    for (uint32_t i = 0; i < message_count; i++) {
        if (cdt_chain_insert_entry(impl->core->chain, record->handle, messages[i], (FD_BRIDGE void *)record) != 0) {
            cdt_chain_release(impl->core->chain, record->handle, messages, record->message_count);
            free(messages);
            record->messages = NULL;
            record->message_count = 0;
            [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
        }
        record->message_count++;
    }
    death_watch_start(record, listener);
    if (inner) {
        record->nested = YES;
        watch_inner(record, inner);
    }
    [impl->records insertObject:record atIndex:position];
    listeners_changed(impl);
}

- (BOOL)removeListener:(id)listener {
    FDMulticasterImpl *FD_UNRETAINED impl = (FDMulticasterImpl *)self; // as in installOnHost:key:
    FD_CONFINED(impl->core);
    FDListener *record = listener ? record_of(impl, listener) : nil;
    if (!record) return NO;
    drop(impl, record);
    listeners_changed(impl);
    return YES;
}

// Whether the slot holds `impl`'s proxy, or a multicaster's proxy whose original is, at any depth.
static BOOL in_slot_chain(FDMulticasterImpl *impl, id host) {
    id cursor = [host valueForKey:impl->hostKey];
    for (int depth = 0; cursor && depth < 64; depth++) {
        if (cursor == impl->proxyObject) return YES;
        fd_core *core = proxy_core(cursor);
        FDMulticasterImpl *over = core ? core->owner : nil;
        if (!over) return NO;
        cursor = fd_original(over);
    }
    return NO;
}

- (void)installOnHost:(id)host key:(NSString *)key {
    // Not a strong local (nor in insertListener:, removeListener: and uninstall): without
    // -fobjc-arc-exceptions, an exception from the user code they call would leave its retain
    // behind, and the multicaster alive. Unretained, as `self` is, and as the MRR branch has it.
    FDMulticasterImpl *FD_UNRETAINED impl = (FDMulticasterImpl *)self;
    FD_CONFINED(impl->core);
    if (!host || !key) {
        [NSException raise:NSInvalidArgumentException format:@"FDDelegateMulticaster: installOnHost:key: needs both"];
    }
    // Already in this slot's chain, under other multicasters or not (an SDK's viewWillAppear
    // installing again): a second install would make the slot's delegate a listener twice.
    if (impl->installed && impl->host == host && [impl->hostKey isEqualToString:key] && in_slot_chain(impl, host)) {
        return;
    }
    if (impl->installed) [self uninstall];
    id current = [host valueForKey:key];
    if (current == impl->proxyObject) current = nil;
    // The original delegate listens, and answers the selectors outside the protocol, before the
    // host sees the proxy (which it may ask at once, as UIKit does).
    BOOL added = current && !record_of(impl, current);
    if (added) [self insertListener:current atIndex:0]; // may raise: nothing changed yet
    set_original(impl, current);
    // A delegate only the slot owned dies inside the set (it is held weakly here): the change
    // that makes is told once the multicaster is installed.
    impl->installing = YES;
    impl->reassignOwed = NO;
    BOOL set = NO;
    @try {
        snapshot_answers(impl);
        impl->originalTold = (FD_BRIDGE const void *)current;
        [host setValue:impl->proxyObject forKey:key];
        set = YES;
    } @finally {
        impl->installing = NO;
        if (!set) { // a slot KVC can read but not write, or a setter that raised: no trace of the attempt
            set_original(impl, nil);
            if (added) [self removeListener:current];
        }
    }
    impl->host = host;
    NSString *copied = [key copy];
#if !__has_feature(objc_arc)
    [impl->hostKey release];
#endif
    impl->hostKey = copied;
    impl->installed = YES;
#if FD_APPLE_RUNTIME
    objc_setAssociatedObject(host, (FD_BRIDGE const void *)self, self, OBJC_ASSOCIATION_RETAIN_NONATOMIC);
#else
    [self retain];
    fd_watch_start(&impl->hostWatch, host, host_died, NULL, (void *)impl);
#endif
    if (impl->reassignOwed) {
        impl->reassignOwed = NO;
        reassign(impl);
    }
}

// Another multicaster installed on the slot since, over this one (its original delegate is this
// proxy, at any depth): this one's place there goes to its own original delegate, so that the
// slot goes on as if this one had never been installed.
static void splice_out(FDMulticasterImpl *impl, id host) {
    id cursor = [host valueForKey:impl->hostKey];
    for (int depth = 0; cursor && depth < 64; depth++) {
        fd_core *core = proxy_core(cursor);
        FDMulticasterImpl *over = core ? core->owner : nil;
        if (!over || over == impl || !over->installed) return;
        id original = fd_original(over);
        if (original == impl->proxyObject) {
            NSUInteger index = [over.listeners indexOfObjectIdenticalTo:impl->proxyObject];
            id replacement = fd_original(impl);
            // The replacement is asked what it answers first: if that raises, nothing changed.
            if (index != NSNotFound && replacement) [over insertListener:replacement atIndex:index];
            set_original(over, replacement);
            if (index != NSNotFound) [over removeListener:impl->proxyObject];
            listeners_changed(over); // its original changed even when its listeners did not
            return;
        }
        cursor = original;
    }
}

- (void)uninstall {
    FDMulticasterImpl *FD_UNRETAINED impl = (FDMulticasterImpl *)self; // as in installOnHost:key:
    FD_CONFINED(impl->core);
    if (!impl->installed) return;
    // The host's hold may be the last one: an autorelease keeps the multicaster to the end.
#if __has_feature(objc_arc)
    __autoreleasing id kept = self;
    (void)kept;
#else
    [[self retain] autorelease];
#endif
    impl->installed = NO;
    id host = impl->host;
    impl->host = nil;
    if (!host) return;
    // The host lets the multicaster go even when its setter (or a listener asked) raises.
    @try {
        if (slot_holds_proxy(impl, host)) {
            [host setValue:fd_original(impl) forKey:impl->hostKey];
        } else {
            splice_out(impl, host);
        }
    } @finally {
#if FD_APPLE_RUNTIME
        objc_setAssociatedObject(host, (FD_BRIDGE const void *)self, nil, OBJC_ASSOCIATION_RETAIN_NONATOMIC);
#else
        fd_watch_stop(&impl->hostWatch);
        [self release];
#endif
    }
}

@end

@implementation FDMulticasterImpl

- (instancetype)init {
#if !__has_feature(objc_arc)
    [self release];
#endif
    [NSException raise:NSInvalidArgumentException format:@"FDDelegateMulticaster: use initWithProtocol:"];
    return nil;
}

@end
#endif
