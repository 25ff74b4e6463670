// Allocation for the whole C core, through one failure-injection point (cdt_debug.h).
// Layer 0: depends on nothing in the core.
#include "alloc.h"
#include "cdt_debug.h"

#include <stdlib.h>

// Allocations still to succeed before the injected failure on this thread; -1 when disarmed.
static _Thread_local int64_t fail_after = -1;

int64_t cdt_debug_fail_allocation_after(int64_t count) {
    int64_t previous = fail_after;
    fail_after = count < 0 ? -1 : count;
    return previous;
}

// Whether this allocation is the injected failure (consuming one step of the countdown).
static int injected_failure(void) {
    if (fail_after < 0) return 0;
    if (fail_after == 0) {
        fail_after = -1;
        return 1;
    }
    fail_after -= 1;
    return 0;
}

// The calling thread's cap on 32-bit growths; 0 when disarmed.
static _Thread_local uint32_t capacity_limit;

uint32_t cdt_debug_set_capacity_limit(uint32_t limit) {
    uint32_t previous = capacity_limit;
    capacity_limit = limit;
    return previous;
}

uint32_t cdt_capacity_limit(uint32_t natural) {
    return capacity_limit != 0 && capacity_limit < natural ? capacity_limit : natural;
}

void *cdt_malloc(size_t size) {
    return injected_failure() ? NULL : malloc(size);
}

void *cdt_calloc(size_t count, size_t size) {
    return injected_failure() ? NULL : calloc(count, size);
}

void *cdt_realloc(void *pointer, size_t size) {
    return injected_failure() ? NULL : realloc(pointer, size);
}

void cdt_free(void *pointer) {
    free(pointer);
}
