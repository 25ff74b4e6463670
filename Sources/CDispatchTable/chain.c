#include "chain_internal.h"
#include "cdt_random.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_int force_collisions;

void cdt_debug_set_force_collisions(int enabled) {
    atomic_store(&force_collisions, enabled ? 1 : 0);
}

int cdt_chain_debug_force_collisions(cdt_chain *chain) {
    if (chain->bucket_capacity != 0) return -1;
    chain->multiplier = 0;
    return 0;
}

void cdt_chain_debug_set_next_generation(cdt_chain *chain, uint32_t next) {
    chain->next_generation = next;
}

cdt_chain *cdt_chain_create(void) {
    cdt_chain *chain = calloc(1, sizeof *chain);
    if (!chain) return NULL;
    chain->multiplier = atomic_load(&force_collisions) ? 0 : (cdt_random64() | 1);
    return chain;
}

void cdt_chain_destroy(cdt_chain *chain) {
    if (!chain) return;
    cdt_table_free_all(chain);
    cdt_chain_reclaim(chain);
    free(chain->slots);
    free(chain);
}

cdt_entry *cdt_entries_allocate(uint32_t capacity) {
    struct cdt_retired *header = malloc(sizeof *header + (size_t)capacity * sizeof(cdt_entry));
    return header ? (cdt_entry *)(header + 1) : NULL;
}

void cdt_entries_free(cdt_entry *entries) {
    if (entries) free((struct cdt_retired *)entries - 1);
}

void cdt_entries_discard(cdt_chain *chain, cdt_entry *entries) {
    if (!entries) return;
    if (chain->depth == 0) {
        cdt_entries_free(entries);
        return;
    }
    struct cdt_retired *header = (struct cdt_retired *)entries - 1;
    header->next = chain->retired;
    chain->retired = header;
}

void cdt_chain_reclaim(cdt_chain *chain) {
    struct cdt_retired *block = chain->retired;
    chain->retired = NULL;
    while (block) {
        struct cdt_retired *next = block->next;
        free(block);
        block = next;
    }
}

int cdt_chain_compact(cdt_chain *chain) {
    if (chain->depth != 0 || chain->slot_count < 32 || chain->live_slots * 2 >= chain->slot_count) return 0;
    uint32_t *remap = malloc((size_t)chain->slot_count * sizeof *remap);
    if (!remap) return 0;
    uint32_t live = 0;
    for (uint32_t i = 0; i < chain->slot_count; i++) {
        if (chain->slots[i].generation == 0) continue;
        remap[i] = live;
        chain->slots[live] = chain->slots[i];
        live += 1;
    }
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        cdt_bucket *bucket = &chain->buckets[b];
        for (uint32_t e = 0; e < bucket->count; e++) bucket->entries[e].slot = remap[bucket->entries[e].slot];
    }
    free(remap);
    chain->slot_count = live;
    chain->free_head = 0;
    uint32_t capacity = live * 2 > 16 ? live * 2 : 16;
    if (capacity < chain->slot_capacity) {
        cdt_slot *shrunk = realloc(chain->slots, (size_t)capacity * sizeof *shrunk);
        if (shrunk) {
            chain->slots = shrunk;
            chain->slot_capacity = capacity;
        }
    }
    return 1;
}

void cdt_chain_get_stats(const cdt_chain *chain, cdt_chain_stats *stats) {
    uint32_t retired = 0;
    for (const struct cdt_retired *block = chain->retired; block; block = block->next) retired++;
    *stats = (cdt_chain_stats){
        .live_slots = chain->live_slots,
        .slot_count = chain->slot_count,
        .slot_capacity = chain->slot_capacity,
        .messages = chain->bucket_used,
        .bucket_capacity = chain->bucket_capacity,
        .entries = chain->total_entries,
        .retired_blocks = retired,
    };
}

static uint32_t home_bucket(const cdt_chain *chain, uint32_t message) {
    return (uint32_t)(((uint64_t)message * chain->multiplier) >> chain->shift) & (chain->bucket_capacity - 1);
}

int cdt_chain_check_invariants(const cdt_chain *chain) {
    // Slots: counters, free list, unique generations below next_generation.
    uint32_t live = 0, free_count = 0;
    for (uint32_t i = 0; i < chain->slot_count; i++) {
        const cdt_slot *slot = &chain->slots[i];
        if (slot->generation == 0) {
            free_count++;
            continue;
        }
        live++;
        if (slot->object == NULL) return 1;
    }
    if (live != chain->live_slots || chain->slot_count > chain->slot_capacity) return 2;
    uint32_t walked = 0;
    for (uint32_t next = chain->free_head; next != 0; next = chain->slots[next - 1].next_free) {
        if (next > chain->slot_count || chain->slots[next - 1].generation != 0 || ++walked > free_count) return 3;
    }
    if (walked != free_count) return 4;
    // Buckets: placement, spans sorted by order, entries on live slots, no target twice.
    uint32_t used = 0, entries = 0;
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        const cdt_bucket *bucket = &chain->buckets[b];
        if (bucket->message == 0) continue;
        used++;
        if (bucket->count == 0 || bucket->front > bucket->capacity || bucket->count > bucket->capacity - bucket->front ||
            !bucket->entries) return 5;
        for (uint32_t i = home_bucket(chain, bucket->message); i != b; i = (i + 1) & (chain->bucket_capacity - 1)) {
            if (chain->buckets[i].message == 0) return 6;
        }
        for (uint32_t e = 0; e < bucket->count; e++) {
            const cdt_entry *entry = &bucket->entries[e];
            if (entry->slot >= chain->slot_count || entry->generation == 0) return 7;
            if (chain->slots[entry->slot].generation != entry->generation) return 8;
            if (e > 0 && chain->slots[bucket->entries[e - 1].slot].order >= chain->slots[entry->slot].order) return 9;
        }
        entries += bucket->count;
    }
    if (used != chain->bucket_used || entries != chain->total_entries) return 10;
    if (chain->bucket_capacity != 0 && used * 2 > chain->bucket_capacity) return 11;
    return 0;
}
