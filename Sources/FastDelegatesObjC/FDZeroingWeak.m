// The side table of watched objects (FDZeroingWeak.h), GCC's runtime only.
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDZeroingWeak.h"
#if !FD_APPLE_RUNTIME

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;
static fd_watch **buckets;
static size_t bucket_count; // a power of two, or 0
static size_t watch_count;  // read without the lock by the hook's fast exit
static IMP original_object_dealloc;
static IMP original_proxy_dealloc;

static size_t bucket_of(const void *object, size_t count) {
    return (size_t)(((uint64_t)(uintptr_t)object * 0x9e3779b97f4a7c15ULL) >> 32) & (count - 1);
}

static void grow(void) {
    size_t count = bucket_count ? bucket_count * 2 : 64;
    fd_watch **grown = calloc(count, sizeof *grown);
    if (!grown) return; // longer chains, still correct
    for (size_t i = 0; i < bucket_count; i++) {
        for (fd_watch *watch = buckets[i], *next; watch; watch = next) {
            next = watch->next;
            size_t index = bucket_of(watch->object, count);
            watch->next = grown[index];
            grown[index] = watch;
        }
    }
    free(buckets);
    buckets = grown;
    bucket_count = count;
}

static void unlink_watch(fd_watch *watch) {
    fd_watch **link = &buckets[bucket_of(watch->object, bucket_count)];
    while (*link && *link != watch) link = &(*link)->next;
    if (*link) *link = watch->next;
    watch->object = NULL;
    watch->next = NULL;
    __atomic_store_n(&watch_count, watch_count - 1, __ATOMIC_RELAXED);
}

// Fires the watches of `object`, which is being deallocated.
static void fire_watches(id object) {
    // Releases happen after the lock is dropped (a released multicaster stops watches): in
    // rounds of up to 16, each round rescanning what the earlier ones left.
    size_t releases = 16;
    while (releases == 16 && __atomic_load_n(&watch_count, __ATOMIC_RELAXED) != 0) {
        id release[16];
        fd_watch_after after[16];
        releases = 0;
        pthread_mutex_lock(&lock);
        if (bucket_count) {
            size_t index = bucket_of((void *)object, bucket_count);
            for (fd_watch *watch = buckets[index], *next; watch && releases < 16; watch = next) {
                next = watch->next;
                if (watch->object != (void *)object) continue;
                unlink_watch(watch);
                id later = watch->died(watch);
                if (later) {
                    after[releases] = watch->after;
                    release[releases++] = later;
                }
            }
        }
        pthread_mutex_unlock(&lock);
        for (size_t i = 0; i < releases; i++) {
            if (after[i]) after[i](release[i]);
            [release[i] release];
        }
    }
}

// Every NSObject's and NSProxy's dealloc comes here first: the watches of the object fire, then
// the object goes as it would have.
static void watched_object_dealloc(id self, SEL _cmd) {
    fire_watches(self);
    FD_AS_FUNCTION(void (*)(id, SEL), original_object_dealloc)(self, _cmd);
}

static void watched_proxy_dealloc(id self, SEL _cmd) {
    fire_watches(self);
    FD_AS_FUNCTION(void (*)(id, SEL), original_proxy_dealloc)(self, _cmd);
}

static void install_hook(void) {
    Method object = class_getInstanceMethod([NSObject class], @selector(dealloc));
    original_object_dealloc = method_setImplementation(object, FD_AS_IMP(watched_object_dealloc));
    Method proxy = class_getInstanceMethod([NSProxy class], @selector(dealloc));
    original_proxy_dealloc = method_setImplementation(proxy, FD_AS_IMP(watched_proxy_dealloc));
}

void fd_watch_start(fd_watch *watch, id object, fd_watch_died died, fd_watch_after after, void *context) {
    pthread_once(&hook_once, install_hook);
    pthread_mutex_lock(&lock);
    if (watch->object) unlink_watch(watch);
    if (watch_count + 1 > bucket_count) grow();
    if (bucket_count == 0) {
        pthread_mutex_unlock(&lock);
        [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
    }
    watch->object = (void *)object;
    watch->died = died;
    watch->after = after;
    watch->context = context;
    size_t index = bucket_of(watch->object, bucket_count);
    watch->next = buckets[index];
    buckets[index] = watch;
    __atomic_store_n(&watch_count, watch_count + 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock);
}

void fd_watch_stop(fd_watch *watch) {
    pthread_mutex_lock(&lock);
    if (watch->object) unlink_watch(watch);
    pthread_mutex_unlock(&lock);
}
#endif
#endif
