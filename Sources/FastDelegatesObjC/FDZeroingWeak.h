// Zeroing weak references and host-owned lifetimes for GCC's runtime, which has neither weak
// references nor associated objects: a side table of watched objects, consulted by a hook on
// -[NSObject dealloc] installed once. Nothing is asked of the watched object's class.
// Apple's runtime uses __weak and objc_setAssociatedObject instead: none of this compiles there.
#ifndef FD_ZEROING_WEAK_H
#define FD_ZEROING_WEAK_H

#include "FDPlatform.h"

#if !FD_APPLE_RUNTIME
typedef struct fd_watch fd_watch;

/// Called under the side table's lock when the watched object reaches -[NSObject dealloc]
/// (on whatever thread releases it); returns an object to release once the lock is dropped,
/// or nil. The watch is stopped already.
typedef id (*fd_watch_died)(fd_watch *watch);

/// Called with what `died` returned (non-nil), once the lock is dropped, before its release.
typedef void (*fd_watch_after)(id later);

struct fd_watch {
    void *object;       // NULL while not watching
    fd_watch *next;
    fd_watch_died died;
    fd_watch_after after;
    void *context;
};

/// Watches `object` (non-nil) until fd_watch_stop or its death. The watch's memory must stay
/// valid until then. `after` may be NULL.
void fd_watch_start(fd_watch *watch, id object, fd_watch_died died, fd_watch_after after, void *context);

/// Stops watching; nothing if the watch is not watching (never started, stopped, or fired).
void fd_watch_stop(fd_watch *watch);
#endif

#endif
