#include "chain_internal.h"

#include <stdlib.h>

int cdt_slot_is_live(const cdt_chain *chain, cdt_handle handle) {
    return handle.slot < chain->slot_count && handle.generation != 0 &&
           chain->slots[handle.slot].generation == handle.generation;
}

int cdt_chain_acquire(cdt_chain *chain, void *object, uint64_t order, cdt_handle *handle_out) {
    if (!object) return -1;
    uint32_t index;
    if (chain->free_head != 0) {
        index = chain->free_head - 1;
        chain->free_head = chain->slots[index].next_free;
    } else {
        if (chain->slot_count == UINT32_MAX) return -1;
        if (chain->slot_count == chain->slot_capacity) {
            uint32_t capacity = chain->slot_capacity ? chain->slot_capacity * 2 : 8;
            if (capacity < chain->slot_capacity) capacity = UINT32_MAX;
            // The hot path re-reads `slots` for every entry, so the old array may go at once.
            cdt_slot *grown = realloc(chain->slots, (size_t)capacity * sizeof *grown);
            if (!grown) return -1;
            chain->slots = grown;
            chain->slot_capacity = capacity;
        }
        index = chain->slot_count++;
    }
    if (++chain->next_generation == 0) chain->next_generation = 1;
    chain->slots[index] = (cdt_slot){.object = object, .order = order, .generation = chain->next_generation};
    chain->live_slots += 1;
    *handle_out = (cdt_handle){index, chain->next_generation};
    return 0;
}

void *cdt_chain_release(cdt_chain *chain, cdt_handle handle, const uint32_t *messages, size_t count) {
    if (!cdt_slot_is_live(chain, handle)) return NULL;
    for (size_t i = 0; i < count; i++) cdt_table_remove_handle(chain, handle, messages[i]);
    cdt_slot *slot = &chain->slots[handle.slot];
    void *object = slot->object;
    *slot = (cdt_slot){.next_free = chain->free_head};
    chain->free_head = handle.slot + 1;
    chain->live_slots -= 1;
    return object;
}

void cdt_chain_set_order(cdt_chain *chain, cdt_handle handle, uint64_t order) {
    if (cdt_slot_is_live(chain, handle)) chain->slots[handle.slot].order = order;
}

void cdt_chain_set_target(cdt_chain *chain, cdt_handle handle, void *target, cdt_target_kind kind) {
    if (!cdt_slot_is_live(chain, handle)) return;
    chain->slots[handle.slot].target = target;
    chain->slots[handle.slot].kind = (uint32_t)kind;
}
