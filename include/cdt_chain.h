// A dispatch chain: a compact slot array of targets plus an open-addressing hash table
// from message id to the ordered span of responders for that message.
//
// Ownership:
// - A chain lives where its owner puts it: `cdt_chain_init` sets one up in storage the caller
//   owns (inside the owner's own allocation, say) and `cdt_chain_deinit` frees what it points
//   to, leaving the storage to the caller; `cdt_chain_create` / `cdt_chain_destroy` do the same
//   in a chain-sized allocation of their own. A chain never moves once initialized (its slot
//   array's addresses are kept in the entries, and its first arrays lie inside it: see
//   `CDT_INLINE_SLOTS`). The chain owns every array it points to.
// - A slot's `object` is an opaque pointer the caller stores; the chain never dereferences,
//   retains or frees it. The caller keeps that object alive while its slot is acquired and,
//   if a dispatch is running (depth > 0), until the outermost dispatch has left.
// - An entry's `handler` is opaque in the same way.
//
// Reading during mutation: the hot path (`cdt_chain_lookup`, `cdt_chain_object`) reads with
// no allocation, no lock and no string work. A dispatch brackets its reads with
// `cdt_chain_enter` / `cdt_chain_leave`. While any dispatch is inside (depth > 0) a mutation
// never frees or rewrites an entry array that a dispatch may be reading: it copies the array,
// and the old one is retired until the depth returns to 0. (The one exception: when the slot
// array moves, every entry's `slot_address` follows it in place.) A slot released during a dispatch
// changes its generation at once, so the dispatch skips it (removal takes effect at once); an
// entry added during a dispatch lands in a new array (addition takes effect from the next one).
//
// One copy per message per dispatch level, not per mutation: a copy made at depth d opens a
// *copy window* (`fresh_depth` = d, a new `fresh_serial`, recorded in the copy). While the depth
// has not gone below d, the dispatches running at depth d are the ones that ran when the copy
// was made: each looked its span up before running any handler, so none reads the copy. A
// mutation at depth d (the window still open) then changes the copy in place, as at depth 0, and
// a copy it replaces (to grow or shrink) is freed at once. A dispatch that starts inside the
// window runs at a depth above d: a mutation made there copies again (a window of its own), and
// when the depth falls below d the window closes (`cdt_chain_leave`). So a handler that mutates
// a message k times costs one O(n) copy and then what the same mutations cost at depth 0, and
// holds one retired array per message and dispatch level, not k.
//
// Out of memory: every allocation can fail (cdt_debug.h injects failures for tests). A failed
// operation reports it (-1, NULL or 0 as documented per function) and leaves the chain as it
// was, with one exception that needs no report: a release during a dispatch whose removal copy
// cannot be allocated still frees the slot at once and leaves the entry behind as an orphan
// (skipped like any entry of a freed slot); orphans are purged when the depth returns to 0
// (`cdt_chain_leave` asks for a `cdt_chain_reclaim`).
//
// Thread safety: none. One thread at a time, or a lock held by the caller.
#ifndef CDT_CHAIN_H
#define CDT_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cdt_slot;

/// One responder of one message: the slot of its target (checked against the slot's
/// generation, so a stale entry never reaches a reused slot) and its handler.
///
/// `slot_address` is `&slots[slot]`, so that the hot path reaches the slot with one load and
/// without the chain: when the slot array grows, also during a dispatch, the chain rewrites
/// the address of every entry in place, those of arrays a dispatch reads included, and nothing
/// else of an entry; compaction (never during a dispatch) renumbers `slot` too.
typedef struct cdt_entry {
    uint32_t slot;
    uint32_t generation;
    const void *handler;
    const struct cdt_slot *slot_address;
} cdt_entry;

/// How a slot's target is reached by the hot path (see `cdt_chain_set_target`).
typedef enum cdt_target_kind {
    /// No direct target: the owner reaches it through `object` (e.g. a weak reference).
    CDT_TARGET_INDIRECT = 0,
    /// `target` is kept alive by the owner; call it as is.
    CDT_TARGET_STRONG = 1,
    /// The zeroing hold: `target`'s memory is kept by the owner (an unowned reference) but the
    /// object may be deinitializing: call it only after `cdt_swift_try_retain` succeeds
    /// (cdt_swift_runtime.h).
    CDT_TARGET_ZEROING = 2,
} cdt_target_kind;

/// A slot of the slot array. `generation` is 0 while the slot is free; every acquisition takes
/// a generation that no live slot holds and no entry (in the table, orphaned, or in an array a
/// dispatch may read) names, so a stale entry never reaches a new target. Generations count up
/// and wrap from UINT32_MAX to 1; after a wrap the counter steps over the generations still in
/// use. A handle the owner keeps after releasing it may name a new target once the counter has
/// come round (2^32 - 1 acquisitions later): owners must not use handles past their release.
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

/// The hidden header in front of every entry array (entries.c), so that retiring one needs no
/// allocation. Internal: public only because the chain holds one inline array (below).
struct cdt_retired {
    struct cdt_retired *next;
    union {
        struct {
            uint32_t first; // while retired: entries [first, first + count) were in use
            uint32_t count;
        };
        uint64_t window; // while current: the copy window it was made in (0: none)
    };
};
struct cdt_generation_skip;

/// The chain's first arrays live inside it (small-buffer optimization), so that a chain of one
/// target answering one message allocates nothing: its first slot array (`CDT_INLINE_SLOTS`
/// slots), bucket array (`CDT_INLINE_BUCKETS` buckets: one message, at most half full) and one
/// entry array (`CDT_INLINE_ENTRIES` entries, with its header). Past them the arrays grow on the
/// heap; an inline array left is used again only where a heap array would be freed and
/// reallocated, so a dispatch never sees one rewritten while it may read it.
enum { CDT_INLINE_SLOTS = 1, CDT_INLINE_BUCKETS = 2, CDT_INLINE_ENTRIES = 1 };

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cdt_chain reads depth and pending as one little-endian word (depth_and_pending)"
#endif

/// A chain. Fields are public for the inline hot path; change them only through functions.
/// Ordered so that no padding is left (224 bytes on 64-bit targets): the fields the hot path
/// reads in the first 104 bytes, then the inline arrays (see `CDT_INLINE_SLOTS`).
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
    uint8_t shift;            // 64 - log2(bucket_capacity): see `cdt_home_bucket`
    uint8_t rescan;           // 1: collect `skip` before issuing the next generation
    uint8_t orphans;          // 1: the table may hold orphaned entries (see above)
    uint8_t inline_entries_taken; // 1: a bucket holds `inline_entries`, or it is retired
    uint32_t last_generation; // the generation issued last (0 before the first)
    union {
        struct {
            uint32_t depth;   // how many dispatches are inside
            uint32_t pending; // 1: the outermost leave has work to hand back (cdt_chain_leave)
        };
        uint64_t depth_and_pending; // both at once (little-endian: depth is the low half)
    };
    uint32_t total_entries;   // entries in the table, orphans included
    uint32_t fresh_depth;     // the depth of the open copy window, or 0 (see the top of this file)
    struct cdt_retired *retired;
    struct cdt_generation_skip *skip; // generations in use ahead of the counter, or NULL
    uint64_t version;         // new, and unique across chains, with every change of the table
    uint64_t fresh_serial;    // the open copy window (arrays copied in it record it), counting from 1
    cdt_slot inline_slots[CDT_INLINE_SLOTS];       // the first slot array
    cdt_bucket inline_buckets[CDT_INLINE_BUCKETS]; // the bucket array while it has this capacity
    struct cdt_retired inline_header;             // `inline_entries`' header, right before it
    cdt_entry inline_entries[CDT_INLINE_ENTRIES];  // an entry array of up to this capacity
} cdt_chain;

/// Sizes for inspection and tests.
typedef struct cdt_chain_stats {
    uint32_t live_slots;
    uint32_t slot_count;
    uint32_t slot_capacity;
    uint32_t messages;
    uint32_t bucket_capacity;
    uint32_t entries;          // orphans included
    uint32_t retired_blocks;
    uint32_t orphaned_entries; // left by releases out of memory during a dispatch, until reclaimed
} cdt_chain_stats;

/// What `cdt_chain_check_invariants` found: OK, or the first broken invariant.
typedef enum cdt_invariant_violation {
    CDT_INVARIANT_OK = 0,
    /// A live slot holds no object.
    CDT_INVARIANT_LIVE_SLOT_WITHOUT_OBJECT = 1,
    /// `live_slots` differs from the live slots counted, or `slot_count` exceeds the capacity.
    CDT_INVARIANT_SLOT_COUNTS = 2,
    /// The free list leaves the used slots, reaches a live slot or loops.
    CDT_INVARIANT_FREE_LIST_BROKEN = 3,
    /// The free list misses a free slot.
    CDT_INVARIANT_FREE_LIST_INCOMPLETE = 4,
    /// A used bucket has no entries, no array, or a span outside its allocation.
    CDT_INVARIANT_BUCKET_SHAPE = 5,
    /// A bucket cannot be reached from its home bucket (an empty bucket lies in between).
    CDT_INVARIANT_BUCKET_UNREACHABLE = 6,
    /// An entry names a slot beyond `slot_count`, or generation 0.
    CDT_INVARIANT_ENTRY_SLOT = 7,
    /// An entry names a slot of another generation while no orphans are pending.
    CDT_INVARIANT_ENTRY_STALE = 8,
    /// A span's live entries are not in strictly increasing slot order.
    CDT_INVARIANT_ENTRY_ORDER = 9,
    /// `bucket_used` or `total_entries` differs from the buckets counted.
    CDT_INVARIANT_TABLE_COUNTS = 10,
    /// More than half of the buckets are used.
    CDT_INVARIANT_LOAD_FACTOR = 11,
    /// Two live slots hold one generation.
    CDT_INVARIANT_GENERATION_DUPLICATE = 12,
    /// A live or orphaned entry's generation lies ahead of the counter and is not in its skip
    /// list, so the counter would issue it again.
    CDT_INVARIANT_GENERATION_REISSUE = 13,
    /// Retired arrays or orphans wait, or a copy window is open, while `pending` is clear, so no
    /// leave would reclaim them or close it; or a copy window is open above the depth.
    CDT_INVARIANT_PENDING_CLEAR = 14,
    /// An entry's `slot_address` is not the address of its slot.
    CDT_INVARIANT_ENTRY_ADDRESS = 15,
    /// An inline array is used with another capacity than its own, or the inline entry array is
    /// held by two buckets or the retired list at once, or marked taken while no one holds it.
    CDT_INVARIANT_INLINE_ARRAYS = 16,
} cdt_invariant_violation;

/// Makes `chain` (storage the caller owns, e.g. inside its own object) a new, empty chain, its
/// hash multiplier unpredictable: derived from a process-wide key drawn once from `arc4random`
/// (so that creating a chain makes no system call) and the chain's unique version. Allocates
/// nothing, so it cannot fail: the arrays come with
/// the first acquisition and entry, inside the chain first (`CDT_INLINE_SLOTS`). The chain must
/// stay at this address until `cdt_chain_deinit` (its arrays may lie inside it), and must not be
/// copied.
void cdt_chain_init(cdt_chain *chain);

/// Frees everything `chain` owns, not its own storage, which stays the caller's: the chain is
/// unusable afterwards until `cdt_chain_init` makes it anew. Objects and handlers stored in it
/// are the caller's: release them first. Must not be called while a dispatch is inside.
void cdt_chain_deinit(cdt_chain *chain);

/// A new, empty chain in an allocation of its own (`cdt_chain_init`); NULL if out of memory.
cdt_chain *cdt_chain_create(void);

/// `cdt_chain_deinit`, then frees the chain's own allocation (of `cdt_chain_create`). NULL is
/// ignored.
void cdt_chain_destroy(cdt_chain *chain);

/// Takes a free slot for `object` (non-NULL) at sort key `order`. Returns 0, or -1 if `object`
/// is NULL or out of memory (nothing changed). Amortized O(1); O(n log n) for n live slots
/// once each time the generation counter wraps (every 2^32 - 1 acquisitions), to collect the
/// generations still in use that it must step over.
int cdt_chain_acquire(cdt_chain *chain, void *object, uint64_t order, cdt_handle *handle_out);

/// Frees the slot of `handle` and removes its entries for the `count` messages listed.
/// Returns the slot's object, or NULL if the handle is stale. Never fails: out of memory during
/// a dispatch, an entry it cannot remove is left behind as an orphan (see the top of this
/// file). O(log n + min(i, n - i)) per message for the entry at index i of n responders:
/// O(log n) when targets are removed in registration order or in reverse.
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

/// Removes `handle`'s entry for `message`, if any. Returns 0 (also for a stale handle or a
/// missing entry, which change nothing), or -1 if out of memory during a dispatch (nothing
/// changed; at depth 0 it never fails). O(log n + min(i, n - i)) for the entry at index i of
/// n responders of the message.
int cdt_chain_remove_entry(cdt_chain *chain, cdt_handle handle, uint32_t message);

/// When more than half of the used slots are free and no dispatch is inside, moves the live
/// slots down to close the gaps, rewrites the entries and shrinks the slot array. Returns 1
/// if it compacted, so slot indices may have changed (the caller re-reads its handles), else 0
/// (also when out of memory: nothing changed). O(slots + entries).
int cdt_chain_compact(cdt_chain *chain);

/// Gives the table a new version, as a change of it would, so that no `cdt_span_cache` filled
/// before matches any more: for an owner whose own state decides whether remembered spans may
/// be used. O(1).
void cdt_chain_touch(cdt_chain *chain);

/// Frees the arrays retired by mutations made during dispatches, purges orphaned entries and
/// clears `pending`. Call when depth is 0 (does nothing otherwise). Never allocates.
void cdt_chain_reclaim(cdt_chain *chain);

/// Fills `stats_out` with the chain's current sizes. O(retired arrays), plus O(entries) while
/// orphans are pending.
void cdt_chain_get_stats(const cdt_chain *chain, cdt_chain_stats *stats_out);

/// Checks every invariant (slot free list, unique live generations the counter will not issue
/// again, spans sorted and pointing at live slots, bucket placement, counters). Returns
/// `CDT_INVARIANT_OK` if all hold, else the first broken one. O(slots log slots + entries +
/// buckets); for tests and debug builds.
cdt_invariant_violation cdt_chain_check_invariants(const cdt_chain *chain);

/// Test hook: while set, chains created afterwards hash every message into one bucket.
void cdt_debug_set_force_collisions(int enabled);

/// Benchmark and test hook: while `seed` is nonzero, chains created afterwards take their hash
/// multipliers from a sequence that `seed` fixes (SplitMix64) instead of the random key, so that
/// where messages land, and so instruction counts, repeat from one process to the next. 0
/// restores unpredictable seeds (the default, which keeps bucket placement unguessable).
void cdt_debug_set_hash_seed(uint64_t seed);

/// Test hook: makes this chain hash every message into one bucket (results must not change,
/// only speed). Returns 0, or -1 if the chain already has entries.
int cdt_chain_debug_force_collisions(cdt_chain *chain);

/// Test hook: the next acquisition takes generation `next` (0 means 1), or the first one after
/// it that is not in use, as if the counter had got there by itself; with `next` near
/// UINT32_MAX a test reaches the wrap in a few acquisitions. Generations stay unique whatever
/// `next` is (the next acquisition collects the ones to step over, and fails cleanly if it
/// cannot allocate that list).
void cdt_chain_debug_set_next_generation(cdt_chain *chain, uint32_t next);

// MARK: - Hot path

/// The home bucket of `message` in a table of 2^(64 - `shift`) buckets (`shift` in 1...63):
/// the top bits of its product with the odd `multiplier` (Fibonacci hashing; multiplier 0
/// puts every message in bucket 0). The one copy of the formula: the chain's table and the
/// Swift concurrent snapshot both use it.
static inline uint32_t cdt_home_bucket(uint32_t message, uint64_t multiplier, uint32_t shift) {
    return (uint32_t)(((uint64_t)message * multiplier) >> shift);
}

/// The responders of `message`, in order; an empty span if it has none. O(1) expected.
static inline cdt_span cdt_chain_lookup(const cdt_chain *chain, uint32_t message) {
    cdt_span span = {0, 0};
    uint32_t capacity = chain->bucket_capacity;
    if (capacity == 0) return span;
    uint32_t mask = capacity - 1;
    uint32_t index = cdt_home_bucket(message, chain->multiplier, chain->shift);
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

/// A span remembered for repeated lookups of one message (`cdt_chain_lookup_cached`). Zeroed,
/// it remembers nothing.
typedef struct cdt_span_cache {
    uint64_t version;       // the chain's `version` when `span` was looked up
    cdt_span span;
    const cdt_entry *end;   // `span.entries + span.count`, for a walk from `entries` to `end`
} cdt_span_cache;

/// `cdt_chain_lookup` through `cache`: while the chain's table has not changed since `cache`
/// was filled (its `version` is the chain's: one compare), the remembered span; otherwise a
/// full lookup, remembered for the next call. Exact for any cache and any chain: versions are
/// unique across chains and every change of the table takes a new one, so a cache filled by
/// another chain, or before a change, never matches.
static inline cdt_span cdt_chain_lookup_cached(const cdt_chain *chain, uint32_t message, cdt_span_cache *cache) {
    if (cache->version != chain->version) {
        cache->span = cdt_chain_lookup(chain, message);
        cache->end = cache->span.entries + cache->span.count;
        cache->version = chain->version;
    }
    return cache->span;
}

/// The object of an entry's slot, or NULL if that slot was released since the entry was read.
/// Works on a copy of an entry kept across changes made while a dispatch is inside (it goes by
/// the slot's index, which only compaction changes, and compaction waits for dispatches).
static inline void *cdt_chain_object(const cdt_chain *chain, cdt_entry entry) {
    const cdt_slot *slot = &chain->slots[entry.slot];
    return slot->generation == entry.generation ? slot->object : 0;
}

/// Marks a dispatch as inside the chain: until the matching leave, no entry array it reads
/// is freed or rewritten.
static inline void cdt_chain_enter(cdt_chain *chain) {
    chain->depth += 1;
}

/// The rest of `cdt_chain_leave` once the depth was decremented, when `pending` or the depth is
/// not 0: closes the copy window if the depth fell below it, and returns 1 if the depth is 0.
/// Out of line, so that a leave with nothing pending stays one decrement and one test.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((cold))
#endif
int cdt_chain_leave_pending(cdt_chain *chain);

/// Marks a dispatch as gone. Returns 1 when the last one left and work waits (`pending`):
/// retired arrays or orphaned entries for `cdt_chain_reclaim`, or the owner's own, noted with
/// `cdt_chain_mark_pending`. One flag for all, so that a leave with nothing to do costs one test.
static inline int cdt_chain_leave(cdt_chain *chain) {
    // One decrement and one test when nothing waits: the depth is at least 1, so the borrow
    // never reaches `pending`, and the whole word is 0 exactly when the last dispatch left with
    // nothing pending.
    uint64_t state = chain->depth_and_pending - 1;
    chain->depth_and_pending = state;
    if (__builtin_expect(state != 0, 0)) return cdt_chain_leave_pending(chain);
    return 0;
}

/// Notes that the owner has work for the outermost leave (objects parked during a dispatch,
/// dead targets found): `cdt_chain_leave` then returns 1, and `cdt_chain_reclaim` clears it.
static inline void cdt_chain_mark_pending(cdt_chain *chain) {
    chain->pending = 1;
}

#ifdef __cplusplus
}
#endif

#endif
