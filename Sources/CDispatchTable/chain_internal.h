// The chain's internal interfaces, one section per file; not part of the public headers.
//
// Each file owns one concern and calls only into the files below it (no cycles):
//
//   chain.c        public lifecycle: create, destroy, acquire, release, reclaim, stats
//                    -> generations, table, entries, slots
//   invariants.c   cdt_chain_check_invariants (reads everything, changes nothing)
//                    -> generations, table, slots
//   compact.c      closing the gaps of the slot array        -> table, slots
//   generations.c  the generation counter and its wrap       -> table, entries, slots
//   table.c        the message table: buckets, spans, orphans -> entries, slots
//   entries.c      entry arrays and their retire list        -> alloc
//   slots.c        the slot array and its free list          -> alloc
//   alloc.c        every allocation, behind the failure-injection hook of cdt_debug.h
//   intern.c       message interning (independent of chains) -> alloc
//   random.c       arc4random for hash seeds
//
// The home-bucket hash is written once, `cdt_home_bucket` in cdt_chain.h, and used by the
// inline lookup, the table and the Swift concurrent snapshot.
#ifndef CDT_CHAIN_INTERNAL_H
#define CDT_CHAIN_INTERNAL_H

#include "alloc.h"
#include "cdt_chain.h"

// MARK: - slots.c

/// Whether `handle` names a live slot (its index is in use and its generation matches).
static inline int cdt_slots_is_live(const cdt_chain *chain, cdt_handle handle) {
    return handle.slot < chain->slot_count && handle.generation != 0 &&
           chain->slots[handle.slot].generation == handle.generation;
}

/// Makes sure one more slot can be taken without allocating. Returns 0, or -1 if out of memory
/// or out of indices (nothing changed).
int cdt_slots_reserve(cdt_chain *chain);

/// Takes a free slot (after `cdt_slots_reserve`) for `object` at `order` with `generation`.
/// Returns its index.
uint32_t cdt_slots_take(cdt_chain *chain, void *object, uint64_t order, uint32_t generation);

/// Frees live slot `index`: its generation becomes 0, so entries naming it resolve to no object
/// from now on, and it joins the free list. Returns its object.
void *cdt_slots_free(cdt_chain *chain, uint32_t index);

// MARK: - entries.c

/// Entry arrays carry a hidden header in front, so that retiring one needs no allocation. While
/// retired it records which of its entries were in use (a dispatch may still read those).
struct cdt_retired {
    struct cdt_retired *next;
    uint32_t first; // entries [first, first + count) of the allocation were in use
    uint32_t count;
};

/// A new, uninitialized array of `capacity` entries, or NULL if out of memory.
cdt_entry *cdt_entries_allocate(uint32_t capacity);

/// Frees an array now (NULL is ignored).
void cdt_entries_free(cdt_entry *entries);

/// Frees `entries` now, or retires them until the depth is 0 if a dispatch may be reading
/// them; entries [first, first + count) are the ones in use. Never allocates.
void cdt_entries_discard(cdt_chain *chain, cdt_entry *entries, uint32_t first, uint32_t count);

/// Frees every retired array.
void cdt_entries_free_retired(cdt_chain *chain);

/// How many arrays are retired. O(retired).
uint32_t cdt_entries_retired_count(const cdt_chain *chain);

/// Calls `body` with the generation of every in-use entry of every retired array.
void cdt_entries_for_each_retired(const cdt_chain *chain, void (*body)(uint32_t generation, void *context),
                                  void *context);

// MARK: - table.c

/// The message table's home bucket of `message`.
static inline uint32_t cdt_table_home(const cdt_chain *chain, uint32_t message) {
    return cdt_home_bucket(message, chain->multiplier, chain->shift);
}

/// Whether `entry` is orphaned: left in the table by a release that could not remove it (out of
/// memory during a dispatch). Its slot was freed (and maybe reused), so its generation differs.
static inline int cdt_table_is_orphan(const cdt_chain *chain, const cdt_entry *entry) {
    return chain->slots[entry->slot].generation != entry->generation;
}

/// Removes live `handle`'s entry for `message`, if any. Returns 0, or -1 if a dispatch is
/// inside and the copy the removal needs could not be allocated (nothing changed). Never fails
/// at depth 0.
int cdt_table_remove_handle(cdt_chain *chain, cdt_handle handle, uint32_t message);

/// Calls `body` with the generation of every orphaned entry.
void cdt_table_for_each_orphan(const cdt_chain *chain, void (*body)(uint32_t generation, void *context),
                               void *context);

/// How many entries are orphaned. O(entries) while `orphans` is set, else O(1).
uint32_t cdt_table_orphan_count(const cdt_chain *chain);

/// Removes every orphaned entry and the buckets it leaves empty, and clears `orphans`.
/// Call at depth 0 only (no dispatch may be reading); in place, never allocates.
void cdt_table_purge_orphans(cdt_chain *chain);

/// Rewrites every entry's slot index through `remap` (old index -> new index), for compaction.
void cdt_table_remap_slots(cdt_chain *chain, const uint32_t *remap);

/// Frees every bucket and entry array.
void cdt_table_free_all(cdt_chain *chain);

// MARK: - generations.c

/// The generation for the next acquisition, committed: unique among the live slots and every
/// entry a dispatch or the table may still hold. Returns 0, or -1 if out of memory (nothing
/// changed; only possible when the counter wraps or was moved by the debug hook).
int cdt_generations_next(cdt_chain *chain, uint32_t *generation_out);

/// Whether the counter could issue `generation` again before it next wraps: it lies ahead of
/// the counter and is not in the skip list (for the invariant check).
int cdt_generations_may_reissue(const cdt_chain *chain, uint32_t generation);

/// Frees the skip list.
void cdt_generations_free(cdt_chain *chain);

#endif
