// Per-thread state of the concurrent chain's read side, and a blocking wait for its writers.
//
// - A thread's reader record: one pointer per thread in a C11 `_Thread_local`, read by
//   `static inline` accessors (no call, no `pthread_getspecific`, on the send path). The record
//   itself is a Swift object; C only stores its address.
// - The park word: a process-wide sequence number that threads waiting for a condition block on
//   (a futex on Linux, a condition variable elsewhere), and that whoever makes a condition true
//   bumps to wake them. Waiters re-check their own condition after every wake-up.
// - Asymmetric fences: a *light* fence on the send path and a *heavy* fence on the rare
//   mutation path that together order a store before a later load on both sides (Dekker's
//   pattern). Where the OS can make every running thread of the process execute a full barrier
//   (Linux `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`), the light fence only stops the
//   compiler from reordering and the heavy fence is that system call; elsewhere both are full
//   hardware fences.
#ifndef CDT_THREAD_H
#define CDT_THREAD_H

#include <stdatomic.h>
#include <stdbool.h>
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

/// Whether the heavy fence is the system's process-wide barrier, so the light fence may be a
/// compiler barrier. Decided (and the process registered for it) on the first call; thread-safe.
/// The environment variable FASTDELEGATES_FULL_FENCES=1 forces full fences on both sides (how
/// the tests cover platforms without such a barrier).
bool cdt_asymmetric_fences(void);

/// The send side's fence: orders this thread's earlier stores before its later loads against a
/// thread that runs `cdt_heavy_fence`. `asymmetric` must be what `cdt_asymmetric_fences`
/// returned.
static inline void cdt_light_fence(bool asymmetric) {
    if (asymmetric) {
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_thread_fence(memory_order_seq_cst);
    }
}

/// The mutation side's fence: a full fence on this thread and, when `cdt_asymmetric_fences()`,
/// on every thread of the process that runs now (a system call: microseconds).
void cdt_heavy_fence(void);

#ifdef __cplusplus
}
#endif

#endif
