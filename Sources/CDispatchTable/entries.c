// Entry arrays (the spans of the message table) and the retire list: an array a dispatch may
// be reading is not freed but retired until the depth returns to 0. Depends on: alloc.
#include "entries.h"

#include "alloc.h"

// Entry arrays carry a hidden header in front, so that retiring one needs no allocation. While
// retired it records which of its entries were in use (a dispatch may still read those); while
// current, the copy window it was made in (0: none; see `cdt_entries_set_window`).
struct cdt_retired {
    struct cdt_retired *next;
    union {
        struct {
            uint32_t first; // while retired: entries [first, first + count) were in use
            uint32_t count;
        };
        uint64_t window; // while current
    };
};

cdt_entry *cdt_entries_allocate(uint32_t capacity) {
    struct cdt_retired *header = cdt_malloc(sizeof *header + (size_t)capacity * sizeof(cdt_entry));
    if (!header) return NULL;
    header->window = 0;
    return (cdt_entry *)(header + 1);
}

void cdt_entries_set_window(cdt_entry *entries, uint64_t window) {
    ((struct cdt_retired *)entries - 1)->window = window;
}

uint64_t cdt_entries_window(const cdt_entry *entries) {
    return ((const struct cdt_retired *)entries - 1)->window;
}

void cdt_entries_free(cdt_entry *entries) {
    if (entries) cdt_free((struct cdt_retired *)entries - 1);
}

void cdt_entries_discard(cdt_chain *chain, cdt_entry *entries, uint32_t first, uint32_t count) {
    if (!entries) return;
    if (chain->depth == 0) {
        cdt_entries_free(entries);
        return;
    }
    struct cdt_retired *header = (struct cdt_retired *)entries - 1;
    *header = (struct cdt_retired){chain->retired, {{first, count}}};
    chain->retired = header;
    chain->pending = 1;
}

void cdt_entries_free_retired(cdt_chain *chain) {
    struct cdt_retired *block = chain->retired;
    chain->retired = NULL;
    while (block) {
        struct cdt_retired *next = block->next;
        cdt_free(block);
        block = next;
    }
}

uint32_t cdt_entries_retired_count(const cdt_chain *chain) {
    uint32_t count = 0;
    for (const struct cdt_retired *block = chain->retired; block; block = block->next) count++;
    return count;
}

size_t cdt_entries_retired_in_use(const cdt_chain *chain) {
    size_t count = 0;
    for (const struct cdt_retired *block = chain->retired; block; block = block->next) count += block->count;
    return count;
}

void cdt_entries_rebase(const cdt_chain *chain, cdt_entry *entries, uint32_t count) {
    for (uint32_t e = 0; e < count; e++) entries[e].slot_address = &chain->slots[entries[e].slot];
}

void cdt_entries_rebase_retired(cdt_chain *chain) {
    for (struct cdt_retired *block = chain->retired; block; block = block->next) {
        cdt_entries_rebase(chain, (cdt_entry *)(block + 1) + block->first, block->count);
    }
}

void cdt_entries_for_each_retired(const cdt_chain *chain, void (*body)(uint32_t generation, void *context),
                                  void *context) {
    for (const struct cdt_retired *block = chain->retired; block; block = block->next) {
        const cdt_entry *entries = (const cdt_entry *)(block + 1) + block->first;
        for (uint32_t e = 0; e < block->count; e++) body(entries[e].generation, context);
    }
}
