#define _GNU_SOURCE // syscall(2) under -std=c11

#include "cdt_thread.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#include <pthread.h>
#endif

_Thread_local void *cdt_thread_record_slot;

void cdt_thread_set_record(void *record) { cdt_thread_record_slot = record; }

static _Atomic uint32_t park_word;

uint32_t cdt_park_sequence(void) { return atomic_load_explicit(&park_word, memory_order_seq_cst); }

#if defined(__linux__)

void cdt_park_wait(uint32_t seen) {
    // FUTEX_WAIT compares the word with `seen` atomically with going to sleep.
    (void)syscall(SYS_futex, (uint32_t *)&park_word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

void cdt_park_wake_all(void) {
    atomic_fetch_add_explicit(&park_word, 1, memory_order_seq_cst);
    (void)syscall(SYS_futex, (uint32_t *)&park_word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

#else

static pthread_mutex_t park_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_condition = PTHREAD_COND_INITIALIZER;

void cdt_park_wait(uint32_t seen) {
    pthread_mutex_lock(&park_mutex);
    if (atomic_load_explicit(&park_word, memory_order_seq_cst) == seen) {
        pthread_cond_wait(&park_condition, &park_mutex);
    }
    pthread_mutex_unlock(&park_mutex);
}

void cdt_park_wake_all(void) {
    pthread_mutex_lock(&park_mutex);
    atomic_fetch_add_explicit(&park_word, 1, memory_order_seq_cst);
    pthread_cond_broadcast(&park_condition);
    pthread_mutex_unlock(&park_mutex);
}

#endif

// MARK: - Asymmetric fences

// 0 undecided, 1 symmetric (full fences on both sides), 2 asymmetric (membarrier).
static _Atomic int fence_kind;

bool cdt_asymmetric_fences(void) {
    int kind = atomic_load_explicit(&fence_kind, memory_order_acquire);
    if (kind != 0) return kind == 2;
    kind = 1;
#if defined(__linux__) && defined(SYS_membarrier)
    const char *forced = getenv("FASTDELEGATES_FULL_FENCES");
    long supported = (forced != NULL && forced[0] == '1') ? 0 : syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (supported > 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        kind = 2;
    }
#endif
    // Registering twice is harmless, so racing first callers need no lock.
    atomic_store_explicit(&fence_kind, kind, memory_order_release);
    return kind == 2;
}

void cdt_heavy_fence(void) {
    atomic_thread_fence(memory_order_seq_cst);
#if defined(__linux__) && defined(SYS_membarrier)
    if (atomic_load_explicit(&fence_kind, memory_order_acquire) == 2) {
        // Sends rely on it for their ordering: failing silently would let a removal return while
        // a call runs. It cannot fail once registration succeeded, short of a seccomp filter
        // installed since, so this stops the process with a message instead.
        if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
            fputs("FastDelegates: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed\n", stderr);
            abort();
        }
        atomic_thread_fence(memory_order_seq_cst);
    }
#endif
}
