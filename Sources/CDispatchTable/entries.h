// Entry arrays (entries.c), the spans of the message table, and their retire list: an array a
// dispatch may be reading is not freed but retired until the depth returns to 0. Internal.
// Depends on: alloc.
#ifndef CDT_ENTRIES_H
#define CDT_ENTRIES_H

#include "cdt_chain.h"

/// A new, uninitialized array of `capacity` entries: the chain's inline array when it is free and
/// large enough, else a heap one; NULL if out of memory.
cdt_entry *cdt_entries_allocate(cdt_chain *chain, uint32_t capacity);

/// Records in the array (an allocation, not NULL) the copy window it was made in (see
/// `cdt_chain.h`, `fresh_serial`). A new array has window 0, which no window has.
void cdt_entries_set_window(cdt_entry *entries, uint64_t window);

/// The copy window recorded in the array (an allocation, not NULL).
uint64_t cdt_entries_window(const cdt_entry *entries);

/// Frees an array now, or gives the inline array back (NULL is ignored).
void cdt_entries_free(cdt_chain *chain, cdt_entry *entries);

/// Frees `entries` now, or retires them until the depth is 0 if a dispatch may be reading
/// them; entries [first, first + count) are the ones in use. Never allocates.
void cdt_entries_discard(cdt_chain *chain, cdt_entry *entries, uint32_t first, uint32_t count);

/// Frees every retired array (gives the inline one back).
void cdt_entries_free_retired(cdt_chain *chain);

/// How many arrays are retired. O(retired).
uint32_t cdt_entries_retired_count(const cdt_chain *chain);

/// How many entries of retired arrays were in use when retired, all arrays together. O(retired).
size_t cdt_entries_retired_in_use(const cdt_chain *chain);

/// Points the `slot_address` of `entries[0 ..< count]` at their slots in the current slot array
/// (after the array moved).
void cdt_entries_rebase(const cdt_chain *chain, cdt_entry *entries, uint32_t count);

/// `cdt_entries_rebase` for the in-use entries of every retired array (a dispatch may still read
/// them).
void cdt_entries_rebase_retired(cdt_chain *chain);

/// Calls `body` with the generation of every in-use entry of every retired array.
void cdt_entries_for_each_retired(const cdt_chain *chain, void (*body)(uint32_t generation, void *context),
                                  void *context);

#endif
