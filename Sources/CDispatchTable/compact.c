// Compaction: once more than half of the used slots are free, the live slots move down to close
// the gaps (keeping their relative order), the entries follow, and the slot array shrinks.
// Moves the slots itself (their array is plain data) and has the table follow. Depends on:
// table, alloc.
#include "cdt_chain.h"

#include "alloc.h"
#include "table.h"

_Static_assert(CDT_INLINE_SLOTS < 32, "compaction never reallocates the inline slot array");

int cdt_chain_compact(cdt_chain *chain) {
    if (chain->depth != 0 || chain->slot_count < 32 || (uint64_t)chain->live_slots * 2 >= chain->slot_count) return 0;
    uint32_t *remap = cdt_malloc((size_t)chain->slot_count * sizeof *remap);
    if (!remap) return 0; // out of memory: nothing changed
    // Orphans name freed slots, which get no new index.
    cdt_table_purge_orphans(chain);
    uint32_t live = 0;
    for (uint32_t i = 0; i < chain->slot_count; i++) {
        if (chain->slots[i].generation == 0) continue;
        remap[i] = live;
        chain->slots[live] = chain->slots[i];
        live += 1;
    }
    cdt_table_remap_slots(chain, remap);
    cdt_free(remap);
    chain->slot_count = live;
    chain->free_head = 0;
    // Smaller than before: live * 2 < the old slot_count (so it fits in 32 bits), and the old
    // slot_count >= 32 > 16. Past the capacity limit (a test's), the larger array stays. The
    // array is a heap one: 32 slots are past the inline array (CDT_INLINE_SLOTS).
    uint64_t wanted = (uint64_t)live * 2 > 16 ? (uint64_t)live * 2 : 16;
    uint32_t capacity = (uint32_t)wanted;
    cdt_slot *shrunk = wanted <= cdt_capacity_limit(UINT32_MAX)
                           ? cdt_realloc(chain->slots, (size_t)capacity * sizeof *shrunk)
                           : NULL;
    if (shrunk) { // out of memory: the larger array stays
        chain->slots = shrunk;
        chain->slot_capacity = capacity;
    }
    // At depth 0 no array is retired: the table's entries are all there are.
    cdt_table_rebase_slots(chain);
    return 1;
}
