// The C library's heap figures, for the benchmark's bytes per instance and the tests that check
// that made and dropped objects give their memory back (issue 53). Not part of the C core.
#ifndef CHEAP_STATS_H
#define CHEAP_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether `cdt_heap_in_use_bytes` measures the heap in use here: 1 with glibc's malloc (its
/// `mallinfo2`), 0 on another C library or under a sanitizer (whose allocator glibc does not see).
int cdt_heap_stats_available(void);

/// The bytes in the heap's chunks in use (glibc `mallinfo2().uordblks`); 0 where unavailable.
/// Only what glibc's malloc allocated: a sanitizer's allocator is not counted.
size_t cdt_heap_in_use_bytes(void);

#ifdef __cplusplus
}
#endif

#endif
