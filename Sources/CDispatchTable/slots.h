// The slot array (slots.c): one slot per acquired target, and a free list threaded through the
// free slots. Internal. Depends on: alloc.
#ifndef CDT_SLOTS_H
#define CDT_SLOTS_H

#include "cdt_chain.h"

/// Whether `handle` names a live slot (its index is in use and its generation matches).
static inline int cdt_slots_is_live(const cdt_chain *chain, cdt_handle handle) {
    return handle.slot < chain->slot_count && handle.generation != 0 &&
           chain->slots[handle.slot].generation == handle.generation;
}

/// Makes sure one more slot can be taken without allocating; the slot array may move (the
/// caller then points the entries at it). Returns 0, or -1 if out of memory or out of indices
/// (nothing changed).
int cdt_slots_reserve(cdt_chain *chain);

/// Takes a free slot (after `cdt_slots_reserve`) for `object` at `order` with `generation`.
/// Returns its index.
uint32_t cdt_slots_take(cdt_chain *chain, void *object, uint64_t order, uint32_t generation);

/// Frees live slot `index`: its generation becomes 0, so entries naming it resolve to no object
/// from now on, and it joins the free list. Returns its object.
void *cdt_slots_free(cdt_chain *chain, uint32_t index);

#endif
