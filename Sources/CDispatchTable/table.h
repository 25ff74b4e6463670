// The message table (table.c): an open-addressing hash table from message id to the ordered
// span of that message's responders, and the orphaned entries an out-of-memory release may
// leave in it. Internal. Depends on: entries, alloc.
#ifndef CDT_TABLE_H
#define CDT_TABLE_H

#include "cdt_chain.h"

/// The message table's home bucket of `message`.
static inline uint32_t cdt_table_home(const cdt_chain *chain, uint32_t message) {
    return cdt_home_bucket(message, chain->multiplier, chain->shift);
}

/// Whether `entry` is orphaned: left in the table by a release that could not remove it (out of
/// memory during a dispatch). Its slot was freed (and maybe reused), so its generation differs.
static inline int cdt_table_is_orphan(const cdt_chain *chain, const cdt_entry *entry) {
    return chain->slots[entry->slot].generation != entry->generation;
}

/// Gives the chain a new table version, unique across chains (see `cdt_span_cache`): called by
/// every function here that changes a bucket, its entries or the bucket array (but freeing them
/// all at deinit), and when a chain is created.
void cdt_table_touch(cdt_chain *chain);

/// Adds `handler` as the responder of live `handle`'s target for `message` (not 0), placed by
/// slot order, or replaces its handler if that target already responds. Returns 0, or -1 if out
/// of memory or out of entries (nothing changed).
int cdt_table_insert(cdt_chain *chain, cdt_handle handle, uint32_t message, const void *handler);

/// Removes live `handle`'s entry for `message`, if any. Returns 0, or -1 if a dispatch is
/// inside and the copy the removal needs could not be allocated (nothing changed). Never fails
/// at depth 0.
int cdt_table_remove(cdt_chain *chain, cdt_handle handle, uint32_t message);

/// Calls `body` with the generation of every orphaned entry.
void cdt_table_for_each_orphan(const cdt_chain *chain, void (*body)(uint32_t generation, void *context),
                               void *context);

/// How many entries are orphaned. O(entries) while `orphans` is set, else O(1).
uint32_t cdt_table_orphan_count(const cdt_chain *chain);

/// Removes every orphaned entry and the buckets it leaves empty, and clears `orphans`.
/// Call at depth 0 only (no dispatch may be reading); in place, never allocates.
void cdt_table_purge_orphans(cdt_chain *chain);

/// Rewrites every entry's slot index through `remap` (old index -> new index), for compaction;
/// `cdt_table_rebase_slots` then sets their addresses.
void cdt_table_remap_slots(cdt_chain *chain, const uint32_t *remap);

/// Points every entry's `slot_address` at its slot in the current slot array (after the array
/// moved). In place: entries keep their arrays, so spans stay valid.
void cdt_table_rebase_slots(cdt_chain *chain);

/// Frees every bucket and entry array, for `cdt_chain_deinit` (the table's version stays: a
/// chain is initialized anew before it is used again).
void cdt_table_free_all(cdt_chain *chain);

#endif
