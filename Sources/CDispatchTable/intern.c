// Message interning (cdt_intern.h): a process-wide table from (name, site, signature) to a dense id,
// behind one mutex. Independent of chains. Depends on: random, alloc.
#include "alloc.h"
#include "cdt_debug.h"
#include "cdt_intern.h"
#include "cdt_random.h"

#include <pthread.h>
#include <string.h>

// Records are indexed by id - 1; the hash index maps a message's hash to id (0 = empty).
typedef struct intern_record {
    char *name;
    size_t length;
    uint64_t hash;
    const void *signature;
    char *signature_name;
    bool has_site;
    cdt_message_site site; // its file owned by the record
} intern_record;

static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static intern_record *records;
static uint32_t record_count;
static uint32_t record_capacity;
static uint32_t *index_ids;
static uint32_t index_capacity; // a power of two, or 0
static uint64_t hash_seed;

static uint64_t fnv1a(uint64_t hash, const char *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)bytes[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

// FNV-1a over the name and the site's file, seeded, with the site's line and column and the
// signature's address mixed in.
static uint64_t hash_message(const char *name, size_t length, const cdt_message_site *site, const void *signature) {
    uint64_t hash = fnv1a(0xcbf29ce484222325ULL ^ hash_seed, name, length);
    if (site) {
        hash = fnv1a(hash ^ 0xff, site->file, site->file_length);
        hash ^= (site->line * 0x9e3779b97f4a7c15ULL) ^ (site->column * 0xc2b2ae3d27d4eb4fULL);
        hash *= 0x100000001b3ULL;
    }
    hash ^= (uint64_t)(uintptr_t)signature * 0x9e3779b97f4a7c15ULL;
    hash ^= hash >> 29;
    return hash;
}

static bool same_site(const intern_record *record, const cdt_message_site *site) {
    if (!site) return !record->has_site;
    return record->has_site && record->site.line == site->line && record->site.column == site->column &&
           record->site.file_length == site->file_length &&
           (site->file_length == 0 || memcmp(record->site.file, site->file, site->file_length) == 0);
}

// Doubles the hash index, up to 2^31 slots (the largest power of two a uint32_t holds).
static int grow_index(void) {
    uint32_t limit = cdt_capacity_limit(UINT32_C(1) << 31);
    uint32_t capacity = index_capacity ? (index_capacity < limit ? index_capacity * 2 : 0) : 64;
    if (capacity == 0 || capacity > limit) return -1;
    uint32_t *ids = cdt_calloc(capacity, sizeof *ids);
    if (!ids) return -1;
    uint32_t mask = capacity - 1;
    for (uint32_t i = 0; i < record_count; i++) {
        uint32_t slot = (uint32_t)records[i].hash & mask;
        while (ids[slot] != 0) slot = (slot + 1) & mask;
        ids[slot] = i + 1;
    }
    cdt_free(index_ids);
    index_ids = ids;
    index_capacity = capacity;
    return 0;
}

static char *copy_bytes(const char *bytes, size_t length) {
    char *copy = cdt_malloc(length + 1);
    if (!copy) return NULL;
    if (length) memcpy(copy, bytes, length);
    copy[length] = 0;
    return copy;
}

// The id of (name, site, signature), or 0 if it is not interned yet. Called with the lock held.
static uint32_t find(const char *name, size_t length, const cdt_message_site *site, const void *signature,
                     uint64_t hash) {
    if (index_capacity == 0) return 0;
    uint32_t mask = index_capacity - 1;
    for (uint32_t slot = (uint32_t)hash & mask; index_ids[slot] != 0; slot = (slot + 1) & mask) {
        const intern_record *record = &records[index_ids[slot] - 1];
        if (record->hash == hash && record->signature == signature && record->length == length &&
            memcmp(record->name, name, length) == 0 && same_site(record, site)) {
            return index_ids[slot];
        }
    }
    return 0;
}

// Adds (name, site, signature) as a new record. Called with the lock held. Returns its id, or 0
// if out of memory (nothing changed).
static uint32_t add(const char *name, size_t length, const cdt_message_site *site, const void *signature,
                    const char *signature_name, uint64_t hash) {
    // Ids run from 1 to UINT32_MAX - 1 (record_count + 1 never wraps), the index stays half free.
    uint32_t record_limit = cdt_capacity_limit(UINT32_MAX - 1);
    if (record_count >= record_limit) return 0;
    if ((uint64_t)record_count * 2 + 2 > index_capacity && grow_index() != 0) return 0;
    if (record_count == record_capacity) {
        uint64_t wanted = record_capacity ? (uint64_t)record_capacity * 2 : 64;
        uint32_t capacity = wanted > record_limit ? record_limit : (uint32_t)wanted;
#if SIZE_MAX <= UINT32_MAX
        if (capacity > SIZE_MAX / sizeof *records) return 0; // a 32-bit size_t
#endif
        intern_record *grown = cdt_realloc(records, (size_t)capacity * sizeof *grown);
        if (!grown) return 0;
        records = grown;
        record_capacity = capacity;
    }
    char *copy = copy_bytes(name, length);
    char *described = signature_name ? copy_bytes(signature_name, strlen(signature_name)) : NULL;
    char *file = site ? copy_bytes(site->file, site->file_length) : NULL;
    if (!copy || (signature_name && !described) || (site && !file)) {
        cdt_free(copy);
        cdt_free(described);
        cdt_free(file);
        return 0;
    }
    cdt_message_site kept = {0};
    if (site) kept = (cdt_message_site){file, site->file_length, site->line, site->column};
    records[record_count] = (intern_record){copy, length, hash, signature, described, site != NULL, kept};
    record_count += 1;
    uint32_t mask = index_capacity - 1;
    uint32_t slot = (uint32_t)hash & mask;
    while (index_ids[slot] != 0) slot = (slot + 1) & mask;
    index_ids[slot] = record_count;
    return record_count;
}

cdt_intern_status cdt_intern_declared(const char *name, size_t length, const cdt_message_site *site,
                                      const void *signature, const char *signature_name, uint32_t *id_out) {
    pthread_mutex_lock(&intern_lock);
    if (record_count == 0) hash_seed = cdt_random64(); // no hash computed with the old seed is kept
    uint64_t hash = hash_message(name, length, site, signature);
    uint32_t id = find(name, length, site, signature, hash);
    if (id == 0) id = add(name, length, site, signature, signature_name, hash);
    pthread_mutex_unlock(&intern_lock);
    if (id == 0) return CDT_INTERN_NO_MEMORY;
    *id_out = id;
    return CDT_INTERN_OK;
}

uint32_t cdt_intern_lookup_declared(const char *name, size_t length, const cdt_message_site *site,
                                    const void *signature) {
    pthread_mutex_lock(&intern_lock);
    uint32_t id = record_count == 0 ? 0 : find(name, length, site, signature, hash_message(name, length, site, signature));
    pthread_mutex_unlock(&intern_lock);
    return id;
}

cdt_intern_status cdt_intern(const char *name, size_t length, const void *signature,
                             const char *signature_name, uint32_t *id_out) {
    return cdt_intern_declared(name, length, NULL, signature, signature_name, id_out);
}

bool cdt_intern_site(uint32_t id, cdt_message_site *site_out) {
    bool found = false;
    pthread_mutex_lock(&intern_lock);
    if (id != 0 && id <= record_count && records[id - 1].has_site) {
        *site_out = records[id - 1].site;
        found = true;
    }
    pthread_mutex_unlock(&intern_lock);
    return found;
}

const char *cdt_intern_name(uint32_t id, size_t *length_out) {
    const char *name = NULL;
    pthread_mutex_lock(&intern_lock);
    if (id != 0 && id <= record_count) {
        name = records[id - 1].name;
        if (length_out) *length_out = records[id - 1].length;
    }
    pthread_mutex_unlock(&intern_lock);
    return name;
}

const char *cdt_intern_signature_name(uint32_t id) {
    const char *described = NULL;
    pthread_mutex_lock(&intern_lock);
    if (id != 0 && id <= record_count) described = records[id - 1].signature_name;
    pthread_mutex_unlock(&intern_lock);
    return described;
}

uint32_t cdt_intern_count(void) {
    pthread_mutex_lock(&intern_lock);
    uint32_t count = record_count;
    pthread_mutex_unlock(&intern_lock);
    return count;
}

// Its address is the selectors' signature: no other object, so no Swift metadata, has it.
static const char selector_tag;

cdt_intern_status cdt_intern_selector(const char *name, size_t length, uint32_t *id_out) {
    return cdt_intern(name, length, &selector_tag, "Objective-C selector", id_out);
}

uint32_t cdt_debug_intern_index_capacity(void) {
    pthread_mutex_lock(&intern_lock);
    uint32_t capacity = index_capacity;
    pthread_mutex_unlock(&intern_lock);
    return capacity;
}
