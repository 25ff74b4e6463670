// A dispatch chain: a compact slot array of targets plus an open-addressing hash table
// from message id to the ordered span of responders for that message.
//
// Ownership:
// - `cdt_chain_create` allocates a chain; the caller owns it and frees it with
//   `cdt_chain_destroy`. The chain owns every array it points to.
// - A slot's `object` is an opaque pointer the caller stores; the chain never dereferences,
//   retains or frees it. The caller keeps that object alive while its slot is acquired and,
//   if a dispatch is running (depth > 0), until the outermost dispatch has left.
// - An entry's `handler` is opaque in the same way.
//
// Reading during mutation: the hot path (`cdt_chain_lookup`, `cdt_chain_object`) reads with
// no allocation, no lock and no string work. A dispatch brackets its reads with
// `cdt_chain_enter` / `cdt_chain_leave`. While any dispatch is inside (depth > 0) a mutation
// never frees or rewrites an entry array that a dispatch may be reading: it copies the array,
// and the old one is retired until the depth returns to 0. A slot released during a dispatch
// changes its generation at once, so the dispatch skips it (removal takes effect at once); an
// entry added during a dispatch lands in a new array (addition takes effect from the next one).
//
// Thread safety: none. One thread at a time, or a lock held by the caller.
#ifndef CDT_CHAIN_H
#define CDT_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One responder of one message: the slot of its target (checked against the slot's
/// generation, so a stale entry never reaches a reused slot) and its handler.
typedef struct cdt_entry {
    uint32_t slot;
    uint32_t generation;
    const void *handler;
} cdt_entry;

/// How a slot's target is reached by the hot path (see `cdt_chain_set_target`).
typedef enum cdt_target_kind {
    /// No direct target: the owner reaches it through `object` (e.g. a weak reference).
    CDT_TARGET_INDIRECT = 0,
    /// `target` is kept alive by the owner; call it as is.
    CDT_TARGET_STRONG = 1,
    /// `target`'s memory is kept by the owner but the object may be deinitializing: call it
    /// only after `cdt_swift_try_retain` succeeds (cdt_swift_runtime.h).
    CDT_TARGET_TRACKED = 2,
} cdt_target_kind;

/// A slot of the slot array. `generation` is 0 while the slot is free; every acquisition
/// takes a new, chain-wide unique generation, so an (index, generation) pair is never reused.
typedef struct cdt_slot {
    void *object;
    void *target;        // unretained; see `kind`
    uint64_t order;
    uint32_t generation;
    union {
        uint32_t next_free; // while free
        uint32_t kind;      // while live: a cdt_target_kind
    };
} cdt_slot;

/// A bucket of the message table: message 0 marks an empty bucket. Its responders are
/// `entries[0 ..< count]`, in an allocation of `capacity` entries that begins `front` entries
/// before `entries` (removals near the front advance `entries` instead of moving the rest).
typedef struct cdt_bucket {
    uint32_t message;
    uint32_t count;
    uint32_t capacity;
    uint32_t front;
    cdt_entry *entries;
} cdt_bucket;

/// An acquired slot: its index (which compaction may change) and its generation (which never
/// changes and is unique within the chain).
typedef struct cdt_handle {
    uint32_t slot;
    uint32_t generation;
} cdt_handle;

/// The responders of one message, in order. Valid until the dispatch that read it leaves.
typedef struct cdt_span {
    const cdt_entry *entries;
    size_t count;
} cdt_span;

struct cdt_retired;

/// A chain. Fields are public for the inline hot path; change them only through functions.
typedef struct cdt_chain {
    cdt_slot *slots;
    uint32_t slot_count;      // high-water mark: slots [0, slot_count) have been used
    uint32_t slot_capacity;
    uint32_t live_slots;
    uint32_t free_head;       // index + 1 of the first free slot below slot_count, 0 if none
    cdt_bucket *buckets;
    uint32_t bucket_capacity; // a power of two, or 0 before the first entry
    uint32_t bucket_used;
    uint64_t multiplier;      // seeded odd multiplier; 0 forces every id into one bucket
    uint32_t shift;
    uint32_t depth;           // how many dispatches are inside
    uint32_t next_generation;
    uint32_t total_entries;
    struct cdt_retired *retired;
} cdt_chain;

/// Sizes for inspection and tests.
typedef struct cdt_chain_stats {
    uint32_t live_slots;
    uint32_t slot_count;
    uint32_t slot_capacity;
    uint32_t messages;
    uint32_t bucket_capacity;
    uint32_t entries;
    uint32_t retired_blocks;
} cdt_chain_stats;

/// A new, empty chain, its hash seeded from `arc4random`; NULL if out of memory.
cdt_chain *cdt_chain_create(void);

/// Frees the chain and everything it owns. Objects and handlers stored in it are the
/// caller's: release them first. Must not be called while a dispatch is inside.
void cdt_chain_destroy(cdt_chain *chain);

/// Takes a free slot for `object` (non-NULL) at sort key `order`. Returns 0, or -1 if out of
/// memory (nothing changed). Amortized O(1).
int cdt_chain_acquire(cdt_chain *chain, void *object, uint64_t order, cdt_handle *handle_out);

/// Frees the slot of `handle` and removes its entries for the `count` messages listed.
/// Returns the slot's object, or NULL if the handle is stale. O(log n + min(i, n - i)) per
/// message for the entry at index i of n responders: O(log n) when targets are removed in
/// registration order or in reverse.
void *cdt_chain_release(cdt_chain *chain, cdt_handle handle, const uint32_t *messages, size_t count);

/// Sets how the hot path reaches a live slot's target: `target` (unretained, never
/// dereferenced by the chain) and its `kind`. A new slot starts as `CDT_TARGET_INDIRECT`.
void cdt_chain_set_target(cdt_chain *chain, cdt_handle handle, void *target, cdt_target_kind kind);

/// Changes the sort key of a live slot. The caller must keep the relative order of keys
/// unchanged (used to renumber keys); spans are not re-sorted.
void cdt_chain_set_order(cdt_chain *chain, cdt_handle handle, uint64_t order);

/// Adds `handler` as the responder of `handle`'s target for `message`, placed among the
/// message's responders by slot order; replaces the handler if that target already responds.
/// Returns 0, or -1 if out of memory or the handle is stale (nothing changed).
/// O(log n + min(i, n - i)) amortized for the new entry's index i of n responders: O(log n)
/// when appending. An entry array stays at most a few times larger than its responders.
int cdt_chain_insert_entry(cdt_chain *chain, cdt_handle handle, uint32_t message, const void *handler);

/// Removes `handle`'s entry for `message`, if any. O(log n + min(i, n - i)) for the entry at
/// index i of n responders of the message.
void cdt_chain_remove_entry(cdt_chain *chain, cdt_handle handle, uint32_t message);

/// When more than half of the used slots are free and no dispatch is inside, moves the live
/// slots down to close the gaps, rewrites the entries and shrinks the slot array. Returns 1
/// if it compacted, so slot indices may have changed (the caller re-reads its handles), else 0.
/// O(slots + entries).
int cdt_chain_compact(cdt_chain *chain);

/// Frees the arrays retired by mutations made during dispatches. Call when depth is 0.
void cdt_chain_reclaim(cdt_chain *chain);

/// Fills `stats_out` with the chain's current sizes. O(1).
void cdt_chain_get_stats(const cdt_chain *chain, cdt_chain_stats *stats_out);

/// Checks every invariant (slot free list, generations, spans sorted and pointing at live
/// slots, bucket placement, counters). Returns 0 if all hold, else a positive code naming the
/// first broken one. O(slots + entries + buckets); for tests and debug builds.
int cdt_chain_check_invariants(const cdt_chain *chain);

/// Test hook: while set, chains created afterwards hash every message into one bucket.
void cdt_debug_set_force_collisions(int enabled);

/// Test hook: makes this chain hash every message into one bucket (results must not change,
/// only speed). Returns 0, or -1 if the chain already has entries.
int cdt_chain_debug_force_collisions(cdt_chain *chain);

/// Test hook: the next acquisition takes generation `next` + 1 (wrapping past UINT32_MAX to 1,
/// as every acquisition does), so tests can reach the wrap without 2^32 adds.
void cdt_chain_debug_set_next_generation(cdt_chain *chain, uint32_t next);

// MARK: - Hot path

/// The responders of `message`, in order; an empty span if it has none. O(1) expected.
static inline cdt_span cdt_chain_lookup(const cdt_chain *chain, uint32_t message) {
    cdt_span span = {0, 0};
    uint32_t capacity = chain->bucket_capacity;
    if (capacity == 0) return span;
    uint32_t mask = capacity - 1;
    uint32_t index = (uint32_t)(((uint64_t)message * chain->multiplier) >> chain->shift) & mask;
    for (;;) {
        const cdt_bucket *bucket = &chain->buckets[index];
        if (bucket->message == message) {
            span.entries = bucket->entries;
            span.count = bucket->count;
            return span;
        }
        if (bucket->message == 0) return span;
        index = (index + 1) & mask;
    }
}

/// The object of an entry's slot, or NULL if that slot was released since the entry was read.
static inline void *cdt_chain_object(const cdt_chain *chain, cdt_entry entry) {
    const cdt_slot *slot = &chain->slots[entry.slot];
    return slot->generation == entry.generation ? slot->object : 0;
}

/// Marks a dispatch as inside the chain: until the matching leave, no entry array it reads
/// is freed or rewritten.
static inline void cdt_chain_enter(cdt_chain *chain) {
    chain->depth += 1;
}

/// Marks a dispatch as gone. Returns 1 when the last one left and retired arrays wait to be
/// freed with `cdt_chain_reclaim`.
static inline int cdt_chain_leave(cdt_chain *chain) {
    chain->depth -= 1;
    return chain->depth == 0 && chain->retired != 0;
}

#ifdef __cplusplus
}
#endif

#endif
