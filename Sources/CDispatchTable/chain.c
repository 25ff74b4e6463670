// The chain's public interface (cdt_chain.h) over the layers below: creation and destruction,
// acquiring and releasing a target (slot, generation and entries together), its entries and
// how the hot path reaches it, reclaiming after dispatches, statistics and the test hooks. The
// top layer: the one file that knows what every generation in use is (live slots, orphaned
// entries, retired arrays), which it hands to the generation counter. Depends on: table,
// generations, entries, slots, random, alloc.
#include "cdt_chain.h"

#include "alloc.h"
#include "cdt_random.h"
#include "entries.h"
#include "generations.h"
#include "slots.h"
#include "table.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

// What cdt_chain.h promises of the layout: no padding on 64-bit targets, and the fields the hot
// path reads before the inline arrays.
_Static_assert(sizeof(void *) != 8 || sizeof(cdt_chain) == 224, "cdt_chain has padding");
_Static_assert(sizeof(void *) != 8 || offsetof(cdt_chain, inline_slots) == 104, "cdt_chain's header has padding");

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
    cdt_generations_set_next(chain, next);
}

static _Atomic uint64_t hash_seed; // 0: unpredictable multipliers (multiplier_key)

void cdt_debug_set_hash_seed(uint64_t seed) {
    atomic_store(&hash_seed, seed);
}

// The process's secret for unpredictable multipliers: 64 bits of arc4random, drawn once (0 until
// then), so that a chain's creation makes no system call (arc4random may make one or two).
static _Atomic uint64_t multiplier_key;

static const uint64_t golden = 0x9E3779B97F4A7C15u;

// SplitMix64's output function: a bijection that spreads every input bit over the output.
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((cold, noinline))
#endif
static uint64_t draw_multiplier_key(void) {
    uint64_t key = cdt_random64() | 1, none = 0;
    // Another thread may have drawn one first: everyone keeps the one stored.
    return atomic_compare_exchange_strong(&multiplier_key, &none, key) ? key : none;
}

// An odd multiplier for a chain whose (unique) version is `version`: element `version` of the
// SplitMix64 sequence the secret key starts, unpredictable without the key; or the next of the
// fixed sequence while a seed is set.
static uint64_t next_multiplier(uint64_t version) {
    if (atomic_load_explicit(&hash_seed, memory_order_relaxed) != 0) {
        return mix64(atomic_fetch_add(&hash_seed, golden) + golden) | 1;
    }
    uint64_t key = atomic_load_explicit(&multiplier_key, memory_order_relaxed);
    if (__builtin_expect(key == 0, 0)) key = draw_multiplier_key();
    return mix64(key + version * golden) | 1;
}

void cdt_chain_init(cdt_chain *chain) {
    // The fields before the inline arrays: those are written before they are read.
    memset(chain, 0, offsetof(cdt_chain, inline_slots));
    cdt_table_touch(chain);
    chain->multiplier = atomic_load_explicit(&force_collisions, memory_order_relaxed) ? 0 : next_multiplier(chain->version);
}

void cdt_chain_deinit(cdt_chain *chain) {
    cdt_table_free_all(chain);
    if (chain->retired) cdt_entries_free_retired(chain);
    if (chain->skip) cdt_generations_free(chain);
    if (chain->slots != chain->inline_slots) cdt_free(chain->slots);
}

cdt_chain *cdt_chain_create(void) {
    cdt_chain *chain = cdt_malloc(sizeof *chain);
    if (chain) cdt_chain_init(chain);
    return chain;
}

void cdt_chain_destroy(cdt_chain *chain) {
    if (!chain) return;
    cdt_chain_deinit(chain);
    cdt_free(chain);
}

// MARK: - The generations in use

// A generation must never be issued while anything may still name it: a live slot, an orphaned
// entry in the table, or (while a dispatch is inside) an entry of a retired array that dispatch
// may read.
static size_t generations_in_use_bound(const cdt_chain *chain) {
    size_t bound = chain->live_slots;
    if (chain->orphans) bound += chain->total_entries;
    if (chain->depth != 0) bound += cdt_entries_retired_in_use(chain);
    return bound;
}

static void for_each_generation_in_use(const cdt_chain *chain, cdt_generation_visitor body, void *context) {
    for (uint32_t i = 0; i < chain->slot_count; i++) body(chain->slots[i].generation, context);
    cdt_table_for_each_orphan(chain, body, context);
    if (chain->depth != 0) cdt_entries_for_each_retired(chain, body, context);
}

static const cdt_generations_in_use generations_in_use = {generations_in_use_bound, for_each_generation_in_use};

// MARK: - Targets

int cdt_chain_acquire(cdt_chain *chain, void *object, uint64_t order, cdt_handle *handle_out) {
    if (!object) return -1;
    // Room first, then the generation: a failure of either leaves the slots as they were (the
    // array may have grown).
    const cdt_slot *before = chain->slots;
    if (cdt_slots_reserve(chain) != 0) return -1;
    if (chain->slots != before) {
        // The entries follow the slots, those of arrays a running dispatch reads included.
        cdt_table_rebase_slots(chain);
        cdt_entries_rebase_retired(chain);
    }
    uint32_t generation;
    if (cdt_generations_next(chain, &generations_in_use, &generation) != 0) return -1;
    *handle_out = (cdt_handle){cdt_slots_take(chain, object, order, generation), generation};
    return 0;
}

void *cdt_chain_release(cdt_chain *chain, cdt_handle handle, const uint32_t *messages, size_t count) {
    if (!cdt_slots_is_live(chain, handle)) return NULL;
    for (size_t i = 0; i < count; i++) {
        // Out of memory during a dispatch: the entry stays, orphaned once the slot is freed below.
        if (cdt_table_remove(chain, handle, messages[i]) != 0) chain->orphans = chain->pending = 1;
    }
    return cdt_slots_free(chain, handle.slot);
}

void cdt_chain_set_order(cdt_chain *chain, cdt_handle handle, uint64_t order) {
    if (cdt_slots_is_live(chain, handle)) chain->slots[handle.slot].order = order;
}

void cdt_chain_set_target(cdt_chain *chain, cdt_handle handle, void *target, cdt_target_kind kind) {
    if (!cdt_slots_is_live(chain, handle)) return;
    chain->slots[handle.slot].target = target;
    chain->slots[handle.slot].kind = (uint32_t)kind;
}

// MARK: - Entries

int cdt_chain_insert_entry(cdt_chain *chain, cdt_handle handle, uint32_t message, const void *handler) {
    if (message == 0 || !cdt_slots_is_live(chain, handle)) return -1;
    return cdt_table_insert(chain, handle, message, handler);
}

int cdt_chain_remove_entry(cdt_chain *chain, cdt_handle handle, uint32_t message) {
    return cdt_slots_is_live(chain, handle) ? cdt_table_remove(chain, handle, message) : 0;
}

// MARK: - After dispatches

void cdt_chain_touch(cdt_chain *chain) {
    cdt_table_touch(chain);
}

int cdt_chain_leave_pending(cdt_chain *chain) {
    // A copy window is open only while `pending` is set (opening one sets it), so only this path
    // closes one: a dispatch running at the window's depth left.
    if (chain->depth < chain->fresh_depth) chain->fresh_depth = 0;
    return chain->depth == 0;
}

void cdt_chain_reclaim(cdt_chain *chain) {
    if (chain->depth != 0) return;
    chain->pending = 0;
    chain->fresh_depth = 0;
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
