// The C core's allocator: malloc and friends behind the failure-injection hook of cdt_debug.h.
// Internal; every allocation of the core goes through these (no direct malloc/calloc/realloc).
#ifndef CDT_ALLOC_H
#define CDT_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *cdt_malloc(size_t size);
void *cdt_calloc(size_t count, size_t size);
void *cdt_realloc(void *pointer, size_t size);
void cdt_free(void *pointer);

// The largest capacity a 32-bit growth of the core may reach: `natural` (the largest its
// arithmetic and its users' indexes allow), or the calling thread's test limit when that is
// lower (cdt_debug_set_capacity_limit). A growth past it fails as if out of memory.
uint32_t cdt_capacity_limit(uint32_t natural);

#endif
