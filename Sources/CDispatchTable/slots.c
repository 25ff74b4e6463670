// The slot array: one slot per acquired target, a free list threaded through the free slots,
// and each live slot's sort key and target. Knows nothing of messages or generations' history
// (generations.c chooses them). Depends on: alloc.
#include "slots.h"

#include "alloc.h"

#include <string.h>

int cdt_slots_reserve(cdt_chain *chain) {
    if (chain->free_head != 0 || chain->slot_count < chain->slot_capacity) return 0;
    if (chain->slot_count == UINT32_MAX) return -1;
    if (chain->slot_capacity == 0) {
        // Most chains have one target: the first array is the chain's own (allocates nothing).
        chain->slots = chain->inline_slots;
        chain->slot_capacity = CDT_INLINE_SLOTS;
        return 0;
    }
    // Then 4 (a chain with more has a few, so that it grows once on its way to 4), doubling from
    // there; on the heap for good (the inline array is left and never used again).
    uint32_t capacity = chain->slot_capacity > 1 ? chain->slot_capacity * 2 : 4;
    if (capacity < chain->slot_capacity) capacity = UINT32_MAX;
    // The caller points the entries at the new array (cdt_entry): the old one may go at once.
    cdt_slot *grown;
    if (chain->slots == chain->inline_slots) {
        grown = cdt_malloc((size_t)capacity * sizeof *grown);
        if (!grown) return -1;
        memcpy(grown, chain->slots, (size_t)chain->slot_count * sizeof *grown);
    } else {
        grown = cdt_realloc(chain->slots, (size_t)capacity * sizeof *grown);
        if (!grown) return -1;
    }
    chain->slots = grown;
    chain->slot_capacity = capacity;
    return 0;
}

uint32_t cdt_slots_take(cdt_chain *chain, void *object, uint64_t order, uint32_t generation) {
    uint32_t index;
    if (chain->free_head != 0) {
        index = chain->free_head - 1;
        chain->free_head = chain->slots[index].next_free;
    } else {
        index = chain->slot_count++;
    }
    chain->slots[index] = (cdt_slot){.object = object, .order = order, .generation = generation};
    chain->live_slots += 1;
    return index;
}

void *cdt_slots_free(cdt_chain *chain, uint32_t index) {
    cdt_slot *slot = &chain->slots[index];
    void *object = slot->object;
    *slot = (cdt_slot){.next_free = chain->free_head};
    chain->free_head = index + 1;
    chain->live_slots -= 1;
    return object;
}
