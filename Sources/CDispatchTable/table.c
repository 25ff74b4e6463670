#include "chain_internal.h"

#include <stdlib.h>
#include <string.h>

enum { MIN_BUCKETS = 8, MIN_ENTRIES = 4 };

static uint32_t log2_of(uint32_t power_of_two) {
    uint32_t log = 0;
    while ((1u << log) < power_of_two) log++;
    return log;
}

static uint32_t home_of(const cdt_chain *chain, uint32_t message) {
    return (uint32_t)(((uint64_t)message * chain->multiplier) >> chain->shift) & (chain->bucket_capacity - 1);
}

// Moves every bucket into a new array of `capacity` buckets. Buckets are copied by value and
// a dispatch holds only a span, so the old array can go at once.
static int rehash(cdt_chain *chain, uint32_t capacity) {
    cdt_bucket *buckets = calloc(capacity, sizeof *buckets);
    if (!buckets) return -1;
    cdt_bucket *old = chain->buckets;
    uint32_t old_capacity = chain->bucket_capacity;
    chain->buckets = buckets;
    chain->bucket_capacity = capacity;
    chain->shift = 64 - log2_of(capacity);
    for (uint32_t b = 0; b < old_capacity; b++) {
        if (old[b].message == 0) continue;
        uint32_t i = home_of(chain, old[b].message);
        while (buckets[i].message != 0) i = (i + 1) & (capacity - 1);
        buckets[i] = old[b];
    }
    free(old);
    return 0;
}

static cdt_bucket *find_bucket(const cdt_chain *chain, uint32_t message) {
    if (chain->bucket_capacity == 0) return NULL;
    for (uint32_t i = home_of(chain, message);; i = (i + 1) & (chain->bucket_capacity - 1)) {
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
    uint32_t i = home_of(chain, message);
    while (chain->buckets[i].message != 0) i = (i + 1) & (chain->bucket_capacity - 1);
    chain->buckets[i] = (cdt_bucket){message, 0, 0, 0, NULL};
    chain->bucket_used += 1;
    return &chain->buckets[i];
}

// Backward-shift deletion keeps every bucket reachable from its home without tombstones.
static void delete_bucket(cdt_chain *chain, cdt_bucket *bucket) {
    uint32_t mask = chain->bucket_capacity - 1;
    uint32_t hole = (uint32_t)(bucket - chain->buckets);
    for (uint32_t j = (hole + 1) & mask; chain->buckets[j].message != 0; j = (j + 1) & mask) {
        uint32_t home = home_of(chain, chain->buckets[j].message);
        // Move j into the hole unless its home lies cyclically in (hole, j].
        int stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            chain->buckets[hole] = chain->buckets[j];
            hole = j;
        }
    }
    chain->buckets[hole] = (cdt_bucket){0, 0, 0, 0, NULL};
    chain->bucket_used -= 1;
    if (chain->bucket_capacity > MIN_BUCKETS && chain->bucket_used * 8 < chain->bucket_capacity) {
        (void)rehash(chain, chain->bucket_capacity / 2); // on failure the larger table stays valid
    }
}

static uint64_t order_of(const cdt_chain *chain, const cdt_entry *entry) {
    return chain->slots[entry->slot].order;
}

static int64_t find_entry(const cdt_bucket *bucket, cdt_handle handle) {
    for (uint32_t e = 0; e < bucket->count; e++) {
        if (bucket->entries[e].generation == handle.generation) return e;
    }
    return -1;
}

int cdt_chain_insert_entry(cdt_chain *chain, cdt_handle handle, uint32_t message, const void *handler) {
    if (message == 0 || !cdt_slot_is_live(chain, handle)) return -1;
    if (chain->total_entries == UINT32_MAX) return -1;
    cdt_bucket *bucket = find_or_add_bucket(chain, message);
    if (!bucket) return -1;
    cdt_entry entry = {handle.slot, handle.generation, handler};
    int64_t existing = find_entry(bucket, handle);
    if (existing >= 0 && chain->depth == 0) {
        bucket->entries[existing].handler = handler;
        return 0;
    }
    uint64_t order = chain->slots[handle.slot].order;
    uint32_t low = 0, high = bucket->count;
    while (low < high) {
        uint32_t mid = low + (high - low) / 2;
        if (order_of(chain, &bucket->entries[mid]) < order) low = mid + 1; else high = mid;
    }
    uint32_t count = existing >= 0 ? bucket->count : bucket->count + 1;
    if (chain->depth == 0 && bucket->count < bucket->capacity) {
        memmove(&bucket->entries[low + 1], &bucket->entries[low], (bucket->count - low) * sizeof entry);
        bucket->entries[low] = entry;
    } else {
        // Copy-on-write: a dispatch may be reading the current array.
        uint32_t capacity = bucket->capacity;
        if (count > capacity) capacity = capacity ? capacity * 2 : MIN_ENTRIES;
        cdt_entry *entries = cdt_entries_allocate(capacity);
        if (!entries) {
            if (bucket->count == 0) delete_bucket(chain, bucket);
            return -1;
        }
        if (existing >= 0) {
            memcpy(entries, bucket->entries, bucket->count * sizeof entry);
            entries[existing] = entry;
        } else {
            if (low) memcpy(entries, bucket->entries, low * sizeof entry);
            entries[low] = entry;
            if (bucket->count > low) memcpy(&entries[low + 1], &bucket->entries[low], (bucket->count - low) * sizeof entry);
        }
        cdt_entries_discard(chain, bucket->entries);
        bucket->entries = entries;
        bucket->capacity = capacity;
    }
    if (existing < 0) chain->total_entries += 1;
    bucket->count = count;
    return 0;
}

void cdt_table_remove_handle(cdt_chain *chain, cdt_handle handle, uint32_t message) {
    cdt_bucket *bucket = find_bucket(chain, message);
    if (!bucket) return;
    int64_t found = find_entry(bucket, handle);
    if (found < 0) return;
    uint32_t index = (uint32_t)found;
    chain->total_entries -= 1;
    if (bucket->count == 1) {
        cdt_entries_discard(chain, bucket->entries);
        delete_bucket(chain, bucket);
        return;
    }
    if (chain->depth == 0) {
        memmove(&bucket->entries[index], &bucket->entries[index + 1], (bucket->count - index - 1) * sizeof(cdt_entry));
        bucket->count -= 1;
        return;
    }
    // Copy-on-write: a dispatch may be reading the current array.
    cdt_entry *entries = cdt_entries_allocate(bucket->capacity);
    if (!entries) abort(); // out of memory: an entry must never outlive its slot
    memcpy(entries, bucket->entries, index * sizeof(cdt_entry));
    memcpy(&entries[index], &bucket->entries[index + 1], (bucket->count - index - 1) * sizeof(cdt_entry));
    cdt_entries_discard(chain, bucket->entries);
    bucket->entries = entries;
    bucket->count -= 1;
}

void cdt_chain_remove_entry(cdt_chain *chain, cdt_handle handle, uint32_t message) {
    if (cdt_slot_is_live(chain, handle)) cdt_table_remove_handle(chain, handle, message);
}

void cdt_table_free_all(cdt_chain *chain) {
    for (uint32_t b = 0; b < chain->bucket_capacity; b++) cdt_entries_free(chain->buckets[b].entries);
    free(chain->buckets);
    chain->buckets = NULL;
    chain->bucket_capacity = 0;
    chain->bucket_used = 0;
    chain->total_entries = 0;
}
