// Per-thread state of the concurrent chain's read side, and a blocking wait for its writers.
//
// - A thread's reader record: one pointer per thread in a C11 `_Thread_local`, read by
//   `static inline` accessors (no call, no `pthread_getspecific`, on the send path). The record
//   itself is a Swift object; C only stores its address.
// - The park word: a process-wide sequence number that threads waiting for a condition block on
//   (a futex on Linux, a condition variable elsewhere), and that whoever makes a condition true
//   bumps to wake them. Waiters re-check their own condition after every wake-up.
#ifndef CDT_THREAD_H
#define CDT_THREAD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// This thread's reader record (NULL until `cdt_thread_set_record` stored one).
static inline void *cdt_thread_record(void) {
    extern _Thread_local void *cdt_thread_record_slot;
    return cdt_thread_record_slot;
}

/// Stores this thread's reader record (NULL when the thread leaves, from a key destructor).
void cdt_thread_set_record(void *record);

/// The park word's current value: read it, re-check the condition, then pass it to
/// `cdt_park_wait`, so a wake-up between the two is not lost.
uint32_t cdt_park_sequence(void);

/// Blocks while the park word still equals `seen` (returns at once if it changed), or until a
/// spurious wake-up. The caller re-checks its condition.
void cdt_park_wait(uint32_t seen);

/// Bumps the park word and wakes every thread blocked in `cdt_park_wait`.
void cdt_park_wake_all(void);

#ifdef __cplusplus
}
#endif

#endif
