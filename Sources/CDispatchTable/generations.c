// The generation counter. Generations count up from 1 and wrap from UINT32_MAX back to 1 (0
// marks a free slot). A generation must never be issued while anything may still name it: a
// live slot, an orphaned entry in the table, or (while a dispatch is inside) an entry of a
// retired array that dispatch may read. Before the wrap that holds by itself, since the counter
// never went back. When it goes back (the wrap, or the debug hook), the next acquisition
// collects the generations in use ahead of the counter into a sorted skip list and steps over
// them: O(n log n) once per wrap for n generations in use, then O(1) per acquisition; the list
// is freed once the counter has passed its last value. Which generations are in use is the
// caller's knowledge (cdt_generations_in_use). Depends on: alloc.
#include "generations.h"

#include "alloc.h"

#include <stdlib.h>

struct cdt_generation_skip {
    uint32_t count;
    uint32_t next; // values[next ..< count] are still ahead of the counter
    uint32_t values[];
};

typedef struct collector {
    struct cdt_generation_skip *skip;
    uint32_t from; // only generations >= from (>= 1, so never a free slot's 0) are collected
} collector;

static void collect(uint32_t generation, void *context) {
    collector *c = context;
    if (generation >= c->from) c->skip->values[c->skip->count++] = generation;
}

static int ascending(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

// Builds the skip list of the generations >= `from` in use, replacing any earlier one. Returns
// 0, or -1 if out of memory (nothing changed).
static int rebuild_skip(cdt_chain *chain, const cdt_generations_in_use *in_use, uint32_t from) {
    size_t capacity = in_use->bound(chain);
    struct cdt_generation_skip *skip = NULL;
    if (capacity != 0) {
        skip = cdt_malloc(sizeof *skip + capacity * sizeof(uint32_t));
        if (!skip) return -1;
        *skip = (struct cdt_generation_skip){0, 0};
        collector c = {skip, from};
        in_use->for_each(chain, collect, &c);
        qsort(skip->values, skip->count, sizeof skip->values[0], ascending);
        if (skip->count == 0) {
            cdt_free(skip);
            skip = NULL;
        }
    }
    cdt_free(chain->skip);
    chain->skip = skip;
    return 0;
}

int cdt_generations_next(cdt_chain *chain, const cdt_generations_in_use *in_use, uint32_t *generation_out) {
    if (chain->rescan) {
        // Only the hook sets `rescan`, and it leaves last_generation below UINT32_MAX.
        if (rebuild_skip(chain, in_use, chain->last_generation + 1) != 0) return -1;
        chain->rescan = 0;
    }
    // Nothing is committed until the end, so a failed rebuild at the wrap changes nothing.
    uint32_t generation = chain->last_generation;
    uint32_t next = chain->skip ? chain->skip->next : 0;
    for (;;) {
        generation += 1;
        if (generation == 0) {
            // Wrapped: everything in use may lie ahead now.
            if (rebuild_skip(chain, in_use, 1) != 0) return -1;
            generation = 1;
            next = 0;
        }
        const struct cdt_generation_skip *skip = chain->skip;
        if (!skip) break;
        while (next < skip->count && skip->values[next] < generation) next++;
        if (next == skip->count || skip->values[next] != generation) break;
        next++; // in use: step over it
    }
    chain->last_generation = generation;
    if (chain->skip) {
        chain->skip->next = next;
        if (next == chain->skip->count) cdt_generations_free(chain); // passed its last value
    }
    *generation_out = generation;
    return 0;
}

int cdt_generations_may_reissue(const cdt_chain *chain, uint32_t generation) {
    if (chain->rescan || generation <= chain->last_generation) return 0;
    const struct cdt_generation_skip *skip = chain->skip;
    if (!skip) return 1;
    uint32_t low = skip->next, high = skip->count;
    while (low < high) {
        uint32_t mid = low + (high - low) / 2;
        if (skip->values[mid] < generation) low = mid + 1; else high = mid;
    }
    return !(low < skip->count && skip->values[low] == generation);
}

void cdt_generations_free(cdt_chain *chain) {
    cdt_free(chain->skip);
    chain->skip = NULL;
}

void cdt_generations_set_next(cdt_chain *chain, uint32_t next) {
    chain->last_generation = next == 0 ? 0 : next - 1;
    chain->rescan = 1;
}
