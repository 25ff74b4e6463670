// The message table: an open-addressing hash table (linear probing, backward-shift deletion)
// from message id to the ordered span of that message's responders, and the orphaned entries
// an out-of-memory release may leave in it. Reads the slots' sort keys and generations, calls
// no other file but entries and alloc. Depends on: entries, alloc.
#include "table.h"

#include "alloc.h"
#include "entries.h"

#include <stdatomic.h>
#include <string.h>

// The first arrays of a tiny chain: one message fits 2 buckets (at most half full), and a
// message's first responder an array of 1; both inside the chain (CDT_INLINE_BUCKETS, ...).
enum { MIN_BUCKETS = 2, MIN_ENTRIES = 1 };
_Static_assert((int)MIN_BUCKETS == (int)CDT_INLINE_BUCKETS, "the first bucket array is the inline one");
_Static_assert((int)MIN_ENTRIES <= (int)CDT_INLINE_ENTRIES, "a message's first entry array fits the inline one");

static _Atomic uint64_t last_version;

void cdt_table_touch(cdt_chain *chain) {
    chain->version = atomic_fetch_add_explicit(&last_version, 1, memory_order_relaxed) + 1;
}

// Moves every bucket into a new array of `capacity` buckets: the chain's inline one at its
// capacity (never the current array: the capacity changes), else a heap one. Buckets are
// copied by value and a dispatch holds only a span, so the old array can go (or be used
// again) at once. Returns 0, or -1 if out of memory (nothing changed).
static int rehash(cdt_chain *chain, uint32_t capacity) {
    cdt_bucket *buckets;
    if (capacity == CDT_INLINE_BUCKETS) {
        buckets = chain->inline_buckets;
        memset(buckets, 0, sizeof chain->inline_buckets);
    } else {
        buckets = cdt_calloc(capacity, sizeof *buckets);
        if (!buckets) return -1;
    }
    cdt_bucket *old = chain->buckets;
    uint32_t old_capacity = chain->bucket_capacity;
    chain->buckets = buckets;
    chain->bucket_capacity = capacity;
    chain->shift = (uint8_t)(64 - __builtin_ctz(capacity)); // capacity is a power of two
    for (uint32_t b = 0; b < old_capacity; b++) {
        if (old[b].message == 0) continue;
        uint32_t i = cdt_table_home(chain, old[b].message);
        while (buckets[i].message != 0) i = (i + 1) & (capacity - 1);
        buckets[i] = old[b];
    }
    if (old != chain->inline_buckets) cdt_free(old);
    return 0;
}

static cdt_bucket *find_bucket(const cdt_chain *chain, uint32_t message) {
    if (chain->bucket_capacity == 0) return NULL;
    for (uint32_t i = cdt_table_home(chain, message);; i = (i + 1) & (chain->bucket_capacity - 1)) {
        cdt_bucket *bucket = &chain->buckets[i];
        if (bucket->message == message) return bucket;
        if (bucket->message == 0) return NULL;
    }
}

static cdt_bucket *find_or_add_bucket(cdt_chain *chain, uint32_t message) {
    cdt_bucket *bucket = find_bucket(chain, message);
    if (bucket) return bucket;
    if ((chain->bucket_used + 1) * 2 > chain->bucket_capacity) {
        uint32_t capacity = chain->bucket_capacity ? chain->bucket_capacity * 2 : MIN_BUCKETS;
        if (capacity == 0 || rehash(chain, capacity) != 0) return NULL;
    }
    uint32_t i = cdt_table_home(chain, message);
    while (chain->buckets[i].message != 0) i = (i + 1) & (chain->bucket_capacity - 1);
    chain->buckets[i] = (cdt_bucket){message, 0, 0, 0, NULL};
    chain->bucket_used += 1;
    return &chain->buckets[i];
}

// Backward-shift deletion keeps every bucket reachable from its home without tombstones.
static void remove_bucket(cdt_chain *chain, uint32_t hole) {
    uint32_t mask = chain->bucket_capacity - 1;
    for (uint32_t j = (hole + 1) & mask; chain->buckets[j].message != 0; j = (j + 1) & mask) {
        uint32_t home = cdt_table_home(chain, chain->buckets[j].message);
        // Move j into the hole unless its home lies cyclically in (hole, j].
        int stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            chain->buckets[hole] = chain->buckets[j];
            hole = j;
        }
    }
    chain->buckets[hole] = (cdt_bucket){0, 0, 0, 0, NULL};
    chain->bucket_used -= 1;
}

// Halves a table at most an eighth full, so its size stays bounded by its messages.
static void shrink_if_sparse(cdt_chain *chain) {
    if (chain->bucket_capacity > MIN_BUCKETS && chain->bucket_used * 8 < chain->bucket_capacity) {
        (void)rehash(chain, chain->bucket_capacity / 2); // out of memory: the larger table stays valid
    }
}

static void delete_bucket(cdt_chain *chain, cdt_bucket *bucket) {
    remove_bucket(chain, (uint32_t)(bucket - chain->buckets));
    shrink_if_sparse(chain);
}

static uint64_t order_of(const cdt_chain *chain, const cdt_entry *entry) {
    return chain->slots[entry->slot].order;
}

// An entry array's allocation begins `front` entries before `entries` and holds `capacity`
// entries in all: a removal near the front advances `entries` instead of moving the rest, so
// removing responders in registration order or in reverse costs O(1) each, and any removal
// moves at most half of the responders.
static cdt_entry *allocation_of(const cdt_bucket *bucket) {
    return bucket->entries ? bucket->entries - bucket->front : NULL;
}

// Whether the bucket's array may be changed in place: no dispatch is inside, or it was copied in
// the open copy window, at the current depth, so no running dispatch reads it (cdt_chain.h).
static int writable(const cdt_chain *chain, const cdt_bucket *bucket) {
    if (chain->depth == 0) return 1;
    return bucket->entries && chain->fresh_depth == chain->depth &&
           cdt_entries_window(allocation_of(bucket)) == chain->fresh_serial;
}

// Frees the bucket's array now if it is `writable` (no dispatch reads it), else retires it.
static void discard_array(cdt_chain *chain, const cdt_bucket *bucket, int writable) {
    if (writable) {
        cdt_entries_free(chain, allocation_of(bucket));
    } else {
        cdt_entries_discard(chain, allocation_of(bucket), bucket->front, bucket->count);
    }
}

// Records a new array made during a dispatch in the open copy window, opening one at this depth
// if none is (which sets `pending`, so that leaves close it: see `cdt_chain_leave`).
static void stamp_copy(cdt_chain *chain, cdt_entry *entries) {
    if (chain->depth == 0) return;
    if (chain->fresh_depth != chain->depth) {
        chain->fresh_serial += 1;
        chain->fresh_depth = chain->depth;
        chain->pending = 1;
    }
    cdt_entries_set_window(entries, chain->fresh_serial);
}

// Where a target of sort key `order` goes among the responders: the index of the first live
// entry whose key is not below it (or `count`). Live entries are sorted by key and keys are
// unique among live slots. Orphans may sit anywhere (their slots were freed, their keys are
// gone), so while there may be some, the search probes past them.
static uint32_t lower_bound(const cdt_chain *chain, const cdt_bucket *bucket, uint64_t order) {
    const cdt_entry *entries = bucket->entries;
    uint32_t low = 0, high = bucket->count;
    if (!chain->orphans) {
        while (low < high) {
            uint32_t mid = low + (high - low) / 2;
            if (order_of(chain, &entries[mid]) < order) low = mid + 1; else high = mid;
        }
        return low;
    }
    // Live entries in [0, low) are below `order`, live entries in [high, count) are not.
    while (low < high) {
        uint32_t mid = low + (high - low) / 2, probe = mid;
        while (probe < high && cdt_table_is_orphan(chain, &entries[probe])) probe++;
        if (probe < high && order_of(chain, &entries[probe]) < order) low = probe + 1; else high = mid;
    }
    while (low < bucket->count && cdt_table_is_orphan(chain, &entries[low])) low++;
    return low;
}

// The index of the live handle's entry, or -1. O(log n) (more while orphans are pending).
// lower_bound never stops at an orphan, and live generations are unique, so the generation
// alone identifies the entry.
static int64_t find_entry(const cdt_chain *chain, const cdt_bucket *bucket, cdt_handle handle) {
    uint32_t index = lower_bound(chain, bucket, chain->slots[handle.slot].order);
    return index < bucket->count && bucket->entries[index].generation == handle.generation ? (int64_t)index : -1;
}

// Moves the bucket's entries into a new array of `capacity` (at least `count`), at its front;
// `skip` (an index, or UINT32_MAX for none) is left out and `gap` (an index, or UINT32_MAX) is
// left free for the caller to fill. The old array is freed if `writable`, else retired (a
// dispatch may read it); during a dispatch the new one joins the open copy window. Returns the
// new array, or NULL if out of memory (nothing changed).
static cdt_entry *reallocate(cdt_chain *chain, cdt_bucket *bucket, uint32_t capacity, uint32_t skip, uint32_t gap,
                             int writable) {
    cdt_entry *entries = cdt_entries_allocate(chain, capacity);
    if (!entries) return NULL;
    uint32_t out = 0;
    for (uint32_t in = 0; in < bucket->count; in++) {
        if (in == gap) out++;
        if (in == skip) continue;
        entries[out++] = bucket->entries[in];
    }
    discard_array(chain, bucket, writable);
    stamp_copy(chain, entries);
    bucket->entries = entries;
    bucket->front = 0;
    bucket->capacity = capacity;
    return entries;
}

int cdt_table_insert(cdt_chain *chain, cdt_handle handle, uint32_t message, const void *handler) {
    cdt_table_touch(chain);
    if (chain->total_entries == UINT32_MAX) return -1;
    cdt_bucket *bucket = find_or_add_bucket(chain, message);
    if (!bucket) return -1;
    cdt_entry entry = {handle.slot, handle.generation, handler, &chain->slots[handle.slot]};
    uint32_t low = lower_bound(chain, bucket, chain->slots[handle.slot].order);
    int existing = low < bucket->count && bucket->entries[low].generation == handle.generation;
    int in_place = writable(chain, bucket);
    if (existing) {
        if (in_place) {
            bucket->entries[low].handler = handler;
        } else {
            // Copy-on-write: a dispatch may be reading the current array.
            if (!reallocate(chain, bucket, bucket->capacity, UINT32_MAX, UINT32_MAX, 0)) return -1;
            bucket->entries[low] = entry;
        }
        return 0;
    }
    uint32_t count = bucket->count;
    uint32_t room_behind = bucket->capacity - bucket->front - count;
    if (in_place && bucket->front > 0 && (low < count - low || room_behind == 0)) {
        // Room in front: move the responders before the new one down.
        memmove(bucket->entries - 1, bucket->entries, low * sizeof entry);
        bucket->entries -= 1;
        bucket->front -= 1;
        bucket->entries[low] = entry;
    } else if (in_place && room_behind > 0) {
        memmove(&bucket->entries[low + 1], &bucket->entries[low], (count - low) * sizeof entry);
        bucket->entries[low] = entry;
    } else {
        // Full, or a dispatch may be reading the current array: a new one, at least half free
        // so that growing stays amortized O(1); but a message's first array holds just its one
        // responder (most messages have one).
        // Up to 2^31 entries: past it (or a test's limit, at least 1) the insert fails as out
        // of memory.
        uint32_t capacity = MIN_ENTRIES;
        if (count > 0) {
            uint32_t limit = cdt_capacity_limit(UINT32_C(1) << 31);
            uint64_t needed = ((uint64_t)count + 1) * 2;
            uint64_t wanted = bucket->capacity;
            while (wanted < needed) wanted *= 2;
            capacity = wanted > limit ? limit : (uint32_t)wanted;
        }
        if ((uint64_t)count + 1 > capacity || !reallocate(chain, bucket, capacity, UINT32_MAX, low, in_place)) {
            if (count == 0) delete_bucket(chain, bucket);
            return -1;
        }
        bucket->entries[low] = entry;
    }
    chain->total_entries += 1;
    bucket->count = count + 1;
    return 0;
}

int cdt_table_remove(cdt_chain *chain, cdt_handle handle, uint32_t message) {
    cdt_table_touch(chain);
    cdt_bucket *bucket = find_bucket(chain, message);
    if (!bucket) return 0;
    int64_t found = find_entry(chain, bucket, handle);
    if (found < 0) return 0;
    uint32_t index = (uint32_t)found;
    int in_place = writable(chain, bucket);
    if (bucket->count == 1) {
        discard_array(chain, bucket, in_place);
        delete_bucket(chain, bucket);
        chain->total_entries -= 1;
        return 0;
    }
    uint32_t count = bucket->count - 1;
    // Shrink an array that is at most an eighth full, so its size stays bounded by its responders.
    int shrink = bucket->capacity > MIN_ENTRIES * 2 && count * 8 < bucket->capacity;
    if (in_place && !shrink) {
        if (index < count - index) {
            memmove(bucket->entries + 1, bucket->entries, index * sizeof(cdt_entry));
            bucket->entries += 1;
            bucket->front += 1;
        } else {
            memmove(&bucket->entries[index], &bucket->entries[index + 1], (count - index) * sizeof(cdt_entry));
        }
    } else if (!reallocate(chain, bucket, shrink ? bucket->capacity / 2 : bucket->capacity, index, UINT32_MAX,
                           in_place)) {
        // Copy-on-write (a dispatch may be reading the current array) or shrinking, out of memory.
        if (!in_place) return -1; // the running dispatch's array must stay as it is
        // Not shrunk, but still correct: remove in place.
        memmove(&bucket->entries[index], &bucket->entries[index + 1], (count - index) * sizeof(cdt_entry));
    }
    bucket->count = count;
    chain->total_entries -= 1;
    return 0;
}

void cdt_table_for_each_orphan(const cdt_chain *chain, void (*body)(uint32_t generation, void *context),
                               void *context) {
    if (!chain->orphans) return;
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        const cdt_bucket *bucket = &chain->buckets[b];
        for (uint32_t e = 0; e < bucket->count; e++) {
            if (cdt_table_is_orphan(chain, &bucket->entries[e])) body(bucket->entries[e].generation, context);
        }
    }
}

static void count_one(uint32_t generation, void *context) {
    (void)generation;
    *(uint32_t *)context += 1;
}

uint32_t cdt_table_orphan_count(const cdt_chain *chain) {
    uint32_t count = 0;
    cdt_table_for_each_orphan(chain, count_one, &count);
    return count;
}

void cdt_table_purge_orphans(cdt_chain *chain) {
    if (!chain->orphans) return;
    cdt_table_touch(chain);
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        cdt_bucket *bucket = &chain->buckets[b];
        uint32_t kept = 0;
        for (uint32_t e = 0; e < bucket->count; e++) {
            if (!cdt_table_is_orphan(chain, &bucket->entries[e])) bucket->entries[kept++] = bucket->entries[e];
        }
        chain->total_entries -= bucket->count - kept;
        bucket->count = kept;
    }
    // Delete the buckets left empty. A deletion shifts later buckets of its probe run back, maybe
    // into `b`, so `b` is examined again. No bucket from after `b` lands before it (a run that
    // wraps past the end only brings buckets from the start, already examined), so none is missed.
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        while (chain->buckets[b].message != 0 && chain->buckets[b].count == 0) {
            cdt_entries_free(chain, allocation_of(&chain->buckets[b]));
            remove_bucket(chain, b);
        }
    }
    chain->orphans = 0;
    shrink_if_sparse(chain);
}

void cdt_table_remap_slots(cdt_chain *chain, const uint32_t *remap) {
    cdt_table_touch(chain);
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        cdt_bucket *bucket = &chain->buckets[b];
        for (uint32_t e = 0; e < bucket->count; e++) bucket->entries[e].slot = remap[bucket->entries[e].slot];
    }
}

void cdt_table_rebase_slots(cdt_chain *chain) {
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
        cdt_entries_rebase(chain, chain->buckets[b].entries, chain->buckets[b].count);
    }
}

void cdt_table_free_all(cdt_chain *chain) {
    // Every used bucket has an array; the empty ones have none.
    for (uint32_t b = 0, left = chain->bucket_used; left > 0; b++) {
        if (chain->buckets[b].message == 0) continue;
        cdt_entries_free(chain, allocation_of(&chain->buckets[b]));
        left--;
    }
    if (chain->buckets != chain->inline_buckets) cdt_free(chain->buckets);
    chain->buckets = NULL;
    chain->bucket_capacity = 0;
    chain->bucket_used = 0;
    chain->total_entries = 0;
}
