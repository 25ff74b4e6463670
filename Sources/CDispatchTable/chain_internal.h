// Shared by the chain's C files; not part of the public headers.
#ifndef CDT_CHAIN_INTERNAL_H
#define CDT_CHAIN_INTERNAL_H

#include "cdt_chain.h"

// Entry arrays carry a hidden header in front, so that retiring one needs no allocation.
struct cdt_retired {
    struct cdt_retired *next;
    uint64_t padding; // keeps the entries 16-byte aligned
};

cdt_entry *cdt_entries_allocate(uint32_t capacity);
void cdt_entries_free(cdt_entry *entries);
/// Frees `entries` now, or retires them until the depth is 0 if a dispatch may be reading.
void cdt_entries_discard(cdt_chain *chain, cdt_entry *entries);

int cdt_slot_is_live(const cdt_chain *chain, cdt_handle handle);
void cdt_table_remove_handle(cdt_chain *chain, cdt_handle handle, uint32_t message);
void cdt_table_free_all(cdt_chain *chain);

#endif
