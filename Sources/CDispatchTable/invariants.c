// cdt_chain_check_invariants: every structural invariant of a chain, checked from scratch.
// Reads everything and changes nothing. Depends on: generations, table (its inline helpers),
// alloc.
#include "cdt_chain.h"

#include "alloc.h"
#include "generations.h"
#include "table.h"

#include <stdlib.h>

static int ascending(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

// Whether two live slots share a generation. O(n log n) with a sorted copy; without memory for
// the copy, O(n^2) comparing every pair.
static int has_duplicate_generation(const cdt_chain *chain) {
    uint32_t *sorted = cdt_malloc(((size_t)chain->live_slots + 1) * sizeof *sorted);
    if (!sorted) {
        for (uint32_t i = 0; i < chain->slot_count; i++) {
            uint32_t generation = chain->slots[i].generation;
            for (uint32_t j = i + 1; generation != 0 && j < chain->slot_count; j++) {
                if (chain->slots[j].generation == generation) return 1;
            }
        }
        return 0;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < chain->slot_count && n < chain->live_slots; i++) {
        if (chain->slots[i].generation != 0) sorted[n++] = chain->slots[i].generation;
    }
    qsort(sorted, n, sizeof *sorted, ascending);
    int duplicate = 0;
    for (uint32_t i = 1; i < n && !duplicate; i++) duplicate = sorted[i - 1] == sorted[i];
    cdt_free(sorted);
    return duplicate;
}

static cdt_invariant_violation check_slots(const cdt_chain *chain) {
    uint32_t live = 0, free_count = 0;
    for (uint32_t i = 0; i < chain->slot_count; i++) {
        const cdt_slot *slot = &chain->slots[i];
        if (slot->generation == 0) {
            free_count++;
            continue;
        }
        live++;
        if (slot->object == NULL) return CDT_INVARIANT_LIVE_SLOT_WITHOUT_OBJECT;
        if (cdt_generations_may_reissue(chain, slot->generation)) return CDT_INVARIANT_GENERATION_REISSUE;
    }
    if (live != chain->live_slots || chain->slot_count > chain->slot_capacity) return CDT_INVARIANT_SLOT_COUNTS;
    uint32_t walked = 0;
    for (uint32_t next = chain->free_head; next != 0; next = chain->slots[next - 1].next_free) {
        if (next > chain->slot_count || chain->slots[next - 1].generation != 0 || ++walked > free_count) {
            return CDT_INVARIANT_FREE_LIST_BROKEN;
        }
    }
    if (walked != free_count) return CDT_INVARIANT_FREE_LIST_INCOMPLETE;
    if (has_duplicate_generation(chain)) return CDT_INVARIANT_GENERATION_DUPLICATE;
    // Entries of retired arrays are not checked: an array retired by an earlier dispatch and not
    // reclaimed yet is unreadable, and cannot be told apart from one the running dispatch reads
    // (the fuzz harness checks the spans it holds directly).
    return CDT_INVARIANT_OK;
}

static cdt_invariant_violation check_table(const cdt_chain *chain) {
    uint32_t used = 0, entries = 0, mask = chain->bucket_capacity - 1;
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        const cdt_bucket *bucket = &chain->buckets[b];
        if (bucket->message == 0) continue;
        used++;
        if (bucket->count == 0 || bucket->front > bucket->capacity || bucket->count > bucket->capacity - bucket->front ||
            !bucket->entries) {
            return CDT_INVARIANT_BUCKET_SHAPE;
        }
        for (uint32_t i = cdt_table_home(chain, bucket->message); i != b; i = (i + 1) & mask) {
            if (chain->buckets[i].message == 0) return CDT_INVARIANT_BUCKET_UNREACHABLE;
        }
        const cdt_entry *previous = NULL; // the last live entry
        for (uint32_t e = 0; e < bucket->count; e++) {
            const cdt_entry *entry = &bucket->entries[e];
            if (entry->slot >= chain->slot_count || entry->generation == 0) return CDT_INVARIANT_ENTRY_SLOT;
            if (entry->slot_address != &chain->slots[entry->slot]) return CDT_INVARIANT_ENTRY_ADDRESS;
            if (cdt_table_is_orphan(chain, entry)) {
                if (!chain->orphans) return CDT_INVARIANT_ENTRY_STALE;
                if (cdt_generations_may_reissue(chain, entry->generation)) return CDT_INVARIANT_GENERATION_REISSUE;
                continue;
            }
            if (previous && chain->slots[previous->slot].order >= chain->slots[entry->slot].order) {
                return CDT_INVARIANT_ENTRY_ORDER;
            }
            previous = entry;
        }
        entries += bucket->count;
    }
    if (used != chain->bucket_used || entries != chain->total_entries) return CDT_INVARIANT_TABLE_COUNTS;
    if (chain->bucket_capacity != 0 && used * 2 > chain->bucket_capacity) return CDT_INVARIANT_LOAD_FACTOR;
    return CDT_INVARIANT_OK;
}

// The inline arrays (cdt_chain.h): each in use at its own capacity, and the entry array held by
// one bucket or the retired list exactly while it is marked taken.
static cdt_invariant_violation check_inline_arrays(const cdt_chain *chain) {
    if (chain->slots == chain->inline_slots && chain->slot_capacity != CDT_INLINE_SLOTS) {
        return CDT_INVARIANT_INLINE_ARRAYS;
    }
    if ((chain->buckets == chain->inline_buckets) != (chain->bucket_capacity == CDT_INLINE_BUCKETS)) {
        return CDT_INVARIANT_INLINE_ARRAYS;
    }
    const cdt_entry *inline_entries = chain->inline_entries;
    uint32_t holders = 0;
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        const cdt_bucket *bucket = &chain->buckets[b];
        if (bucket->message == 0 || bucket->entries - bucket->front != inline_entries) continue;
        if (bucket->capacity > CDT_INLINE_ENTRIES) return CDT_INVARIANT_INLINE_ARRAYS;
        holders++;
    }
    for (const struct cdt_retired *block = chain->retired; block; block = block->next) {
        if (block == &chain->inline_header) holders++;
    }
    return holders == chain->inline_entries_taken ? CDT_INVARIANT_OK : CDT_INVARIANT_INLINE_ARRAYS;
}

cdt_invariant_violation cdt_chain_check_invariants(const cdt_chain *chain) {
    cdt_invariant_violation violation = check_slots(chain);
    if (violation == CDT_INVARIANT_OK) violation = check_table(chain);
    if (violation == CDT_INVARIANT_OK) violation = check_inline_arrays(chain);
    if (violation == CDT_INVARIANT_OK && (chain->retired || chain->orphans || chain->fresh_depth) && !chain->pending) {
        violation = CDT_INVARIANT_PENDING_CLEAR;
    }
    if (violation == CDT_INVARIANT_OK && chain->fresh_depth > chain->depth) {
        violation = CDT_INVARIANT_PENDING_CLEAR;
    }
    return violation;
}
