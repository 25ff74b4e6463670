// The C core's allocator: malloc and friends behind the failure-injection hook of cdt_debug.h.
// Internal; every allocation of the core goes through these (no direct malloc/calloc/realloc).
#ifndef CDT_ALLOC_H
#define CDT_ALLOC_H

#include <stddef.h>

void *cdt_malloc(size_t size);
void *cdt_calloc(size_t count, size_t size);
void *cdt_realloc(void *pointer, size_t size);
void cdt_free(void *pointer);

#endif
