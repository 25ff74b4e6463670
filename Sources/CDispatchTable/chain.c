// The chain's public lifecycle: creation and destruction, acquiring and releasing a target
// (slot, generation and entries together), reclaiming after dispatches, statistics and the
// collision test hooks. Depends on: generations, table, entries, slots.
#include "chain_internal.h"
#include "cdt_random.h"

#include <stdatomic.h>

static atomic_int force_collisions;

void cdt_debug_set_force_collisions(int enabled) {
    atomic_store(&force_collisions, enabled ? 1 : 0);
}

int cdt_chain_debug_force_collisions(cdt_chain *chain) {
    if (chain->bucket_capacity != 0) return -1;
    chain->multiplier = 0;
    return 0;
}

cdt_chain *cdt_chain_create(void) {
    cdt_chain *chain = cdt_calloc(1, sizeof *chain);
    if (!chain) return NULL;
    chain->multiplier = atomic_load(&force_collisions) ? 0 : (cdt_random64() | 1);
    return chain;
}

void cdt_chain_destroy(cdt_chain *chain) {
    if (!chain) return;
    cdt_table_free_all(chain);
    cdt_entries_free_retired(chain);
    cdt_generations_free(chain);
    cdt_free(chain->slots);
    cdt_free(chain);
}

int cdt_chain_acquire(cdt_chain *chain, void *object, uint64_t order, cdt_handle *handle_out) {
    if (!object) return -1;
    // Room first, then the generation: a failure of either leaves the slots as they were (the
    // array may have grown).
    if (cdt_slots_reserve(chain) != 0) return -1;
    uint32_t generation;
    if (cdt_generations_next(chain, &generation) != 0) return -1;
    *handle_out = (cdt_handle){cdt_slots_take(chain, object, order, generation), generation};
    return 0;
}

void *cdt_chain_release(cdt_chain *chain, cdt_handle handle, const uint32_t *messages, size_t count) {
    if (!cdt_slots_is_live(chain, handle)) return NULL;
    for (size_t i = 0; i < count; i++) {
        // Out of memory during a dispatch: the entry stays, orphaned once the slot is freed below.
        if (cdt_table_remove_handle(chain, handle, messages[i]) != 0) chain->orphans = 1;
    }
    return cdt_slots_free(chain, handle.slot);
}

void cdt_chain_reclaim(cdt_chain *chain) {
    if (chain->depth != 0) return;
    cdt_table_purge_orphans(chain);
    cdt_entries_free_retired(chain);
}

void cdt_chain_get_stats(const cdt_chain *chain, cdt_chain_stats *stats) {
    *stats = (cdt_chain_stats){
        .live_slots = chain->live_slots,
        .slot_count = chain->slot_count,
        .slot_capacity = chain->slot_capacity,
        .messages = chain->bucket_used,
        .bucket_capacity = chain->bucket_capacity,
        .entries = chain->total_entries,
        .retired_blocks = cdt_entries_retired_count(chain),
        .orphaned_entries = cdt_table_orphan_count(chain),
    };
}
