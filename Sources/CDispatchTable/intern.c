#include "cdt_intern.h"
#include "cdt_random.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Records are indexed by id - 1; the hash index maps a name's hash to id (0 = empty).
typedef struct intern_record {
    char *name;
    size_t length;
    uint64_t hash;
    const void *signature;
    char *signature_name;
} intern_record;

static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static intern_record *records;
static uint32_t record_count;
static uint32_t record_capacity;
static uint32_t *index_ids;
static uint32_t index_capacity; // a power of two, or 0
static uint64_t hash_seed;

static uint64_t hash_name(const char *name, size_t length) {
    uint64_t hash = 0xcbf29ce484222325ULL ^ hash_seed;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)name[i];
        hash *= 0x100000001b3ULL;
    }
    hash ^= hash >> 29;
    return hash;
}

static int grow_index(void) {
    uint32_t capacity = index_capacity ? index_capacity * 2 : 64;
    uint32_t *ids = calloc(capacity, sizeof *ids);
    if (!ids) return -1;
    uint32_t mask = capacity - 1;
    for (uint32_t i = 0; i < record_count; i++) {
        uint32_t slot = (uint32_t)records[i].hash & mask;
        while (ids[slot] != 0) slot = (slot + 1) & mask;
        ids[slot] = i + 1;
    }
    free(index_ids);
    index_ids = ids;
    index_capacity = capacity;
    return 0;
}

static char *copy_bytes(const char *bytes, size_t length) {
    char *copy = malloc(length + 1);
    if (!copy) return NULL;
    if (length) memcpy(copy, bytes, length);
    copy[length] = 0;
    return copy;
}

cdt_intern_status cdt_intern(const char *name, size_t length, const void *signature,
                             const char *signature_name, uint32_t *id_out,
                             const char **existing_signature_name_out) {
    cdt_intern_status status = CDT_INTERN_OK;
    pthread_mutex_lock(&intern_lock);
    if (index_capacity == 0) hash_seed = cdt_random64();
    uint64_t hash = hash_name(name, length);
    if (index_capacity != 0) {
        uint32_t mask = index_capacity - 1;
        for (uint32_t slot = (uint32_t)hash & mask; index_ids[slot] != 0; slot = (slot + 1) & mask) {
            const intern_record *record = &records[index_ids[slot] - 1];
            if (record->hash == hash && record->length == length && memcmp(record->name, name, length) == 0) {
                *id_out = index_ids[slot];
                if (record->signature != signature) {
                    if (existing_signature_name_out) *existing_signature_name_out = record->signature_name;
                    status = CDT_INTERN_SIGNATURE_MISMATCH;
                }
                goto done;
            }
        }
    }
    if ((uint64_t)(record_count + 1) * 2 > index_capacity && grow_index() != 0) {
        status = CDT_INTERN_NO_MEMORY;
        goto done;
    }
    if (record_count == record_capacity) {
        uint32_t capacity = record_capacity ? record_capacity * 2 : 64;
        intern_record *grown = realloc(records, capacity * sizeof *grown);
        if (!grown) {
            status = CDT_INTERN_NO_MEMORY;
            goto done;
        }
        records = grown;
        record_capacity = capacity;
    }
    char *copy = copy_bytes(name, length);
    char *described = signature_name ? copy_bytes(signature_name, strlen(signature_name)) : NULL;
    if (!copy || (signature_name && !described)) {
        free(copy);
        free(described);
        status = CDT_INTERN_NO_MEMORY;
        goto done;
    }
    records[record_count] = (intern_record){copy, length, hash, signature, described};
    record_count += 1;
    uint32_t mask = index_capacity - 1;
    uint32_t slot = (uint32_t)hash & mask;
    while (index_ids[slot] != 0) slot = (slot + 1) & mask;
    index_ids[slot] = record_count;
    *id_out = record_count;
done:
    pthread_mutex_unlock(&intern_lock);
    return status;
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

uint32_t cdt_intern_count(void) {
    pthread_mutex_lock(&intern_lock);
    uint32_t count = record_count;
    pthread_mutex_unlock(&intern_lock);
    return count;
}
