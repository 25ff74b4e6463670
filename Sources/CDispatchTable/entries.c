// Entry arrays (the spans of the message table) and the retire list: an array a dispatch may
// be reading is not freed but retired until the depth returns to 0. Depends on: alloc.
#include "entries.h"

#include "alloc.h"

#include <stddef.h>

// Entry arrays carry a hidden header in front (struct cdt_retired, cdt_chain.h), so that retiring
// one needs no allocation. While retired it records which of its entries were in use (a dispatch
// may still read those); while current, the copy window it was made in (0: none; see
// `cdt_entries_set_window`).
//
// The chain's inline array (`inline_header` and `inline_entries`) is handed out as an allocation
// would be, while no bucket and no retired list holds it (`inline_entries_taken`), and taken back
// where a heap array would be freed: so it is rewritten only when a heap array in its place could
// have been freed and allocated again, which the callers already make safe for dispatches.
_Static_assert(offsetof(cdt_chain, inline_entries) == offsetof(cdt_chain, inline_header) + sizeof(struct cdt_retired),
               "the inline entries follow their header");

cdt_entry *cdt_entries_allocate(cdt_chain *chain, uint32_t capacity) {
    struct cdt_retired *header;
    if (capacity <= CDT_INLINE_ENTRIES && !chain->inline_entries_taken) {
        chain->inline_entries_taken = 1;
        header = &chain->inline_header;
    } else {
        header = cdt_malloc(sizeof *header + (size_t)capacity * sizeof(cdt_entry));
        if (!header) return NULL;
    }
    header->window = 0;
    return (cdt_entry *)(header + 1);
}

// Frees an array's allocation, or gives the inline array back.
static void free_block(cdt_chain *chain, struct cdt_retired *header) {
    if (header == &chain->inline_header) {
        chain->inline_entries_taken = 0;
    } else {
        cdt_free(header);
    }
}

void cdt_entries_set_window(cdt_entry *entries, uint64_t window) {
    ((struct cdt_retired *)entries - 1)->window = window;
}

uint64_t cdt_entries_window(const cdt_entry *entries) {
    return ((const struct cdt_retired *)entries - 1)->window;
}

void cdt_entries_free(cdt_chain *chain, cdt_entry *entries) {
    if (entries) free_block(chain, (struct cdt_retired *)entries - 1);
}

void cdt_entries_discard(cdt_chain *chain, cdt_entry *entries, uint32_t first, uint32_t count) {
    if (!entries) return;
    if (chain->depth == 0) {
        cdt_entries_free(chain, entries);
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
        free_block(chain, block);
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
