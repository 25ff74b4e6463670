// Test hooks shared by the whole C core (chains and interning).
#ifndef CDT_DEBUG_H
#define CDT_DEBUG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Test hook: on the calling thread only, lets the next `count` allocations of the C core
/// succeed and makes the one after fail as if out of memory; then allocations succeed again.
/// A negative `count` disarms it. Returns the previous setting: the allocations that were still
/// to succeed, or -1 if none was armed or the failure has already happened (so calling it
/// with -1 after an operation tells whether that operation met the failure).
///
/// Every allocation of the core goes through this hook (chain creation, slot array growth,
/// the message table's rehash, entry arrays, compaction, the generation skip list, interning),
/// so a test can fail each one in turn and check the outcome documented where it happens.
/// Thread-local, so tests running in parallel on other threads are unaffected.
int64_t cdt_debug_fail_allocation_after(int64_t count);

/// Test hook: on the calling thread only, caps every 32-bit growth of the core at `limit`
/// instead of its natural limit, so that a test reaches each overflow guard without 2^31
/// elements: the interner's hash index (natural limit 2^31 slots) and records (2^32 - 2 ids),
/// a message's entry array (2^31 entries), and the slot array compaction shrinks to (2^32 - 1).
/// A growth past the limit fails as out of memory does there (`cdt_intern` reports
/// `CDT_INTERN_NO_MEMORY`, an insert returns -1, compaction keeps the larger array). 0
/// disarms it. Returns the previous setting.
uint32_t cdt_debug_set_capacity_limit(uint32_t limit);

/// Test hook: the interner's hash index capacity now (slots, a power of two, or 0).
uint32_t cdt_debug_intern_index_capacity(void);

#ifdef __cplusplus
}
#endif

#endif
