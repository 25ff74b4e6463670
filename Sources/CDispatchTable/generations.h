// The generation counter (generations.c) and the skip list it steps over after a wrap.
// Internal. Depends on: alloc. What is in use (live slots, orphaned entries, retired arrays) is
// the caller's knowledge, handed in as `cdt_generations_in_use`, so this layer calls no file
// above it.
#ifndef CDT_GENERATIONS_H
#define CDT_GENERATIONS_H

#include "cdt_chain.h"

/// Receives one generation in use.
typedef void (*cdt_generation_visitor)(uint32_t generation, void *context);

/// The generations a new one must not repeat, as the chain knows them; read only when the
/// counter goes back (the wrap, or the debug hook).
typedef struct cdt_generations_in_use {
    /// At least as many as `for_each` visits.
    size_t (*bound)(const cdt_chain *chain);
    /// Calls `body` with every generation in use (0 for a free slot may be among them; it is
    /// ignored).
    void (*for_each)(const cdt_chain *chain, cdt_generation_visitor body, void *context);
} cdt_generations_in_use;

/// The generation for the next acquisition, committed: unique among every generation `in_use`
/// reports. Returns 0, or -1 if out of memory (nothing changed; only possible when the counter
/// wraps or was moved by `cdt_generations_set_next`).
int cdt_generations_next(cdt_chain *chain, const cdt_generations_in_use *in_use, uint32_t *generation_out);

/// Whether the counter could issue `generation` again before it next wraps: it lies ahead of
/// the counter and is not in the skip list (for the invariant check).
int cdt_generations_may_reissue(const cdt_chain *chain, uint32_t generation);

/// Moves the counter so that the next acquisition takes `next` (0 means 1) or the first one
/// after it not in use (the test hook `cdt_chain_debug_set_next_generation`).
void cdt_generations_set_next(cdt_chain *chain, uint32_t next);

/// Frees the skip list.
void cdt_generations_free(cdt_chain *chain);

#endif
