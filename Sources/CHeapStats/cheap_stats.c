#define _GNU_SOURCE
#include "cheap_stats.h"

// Any C library header defines __GLIBC__ on glibc (stddef.h is the compiler's).
#include <stdlib.h>

#if defined(__GLIBC__)
#include <dlfcn.h>
#include <malloc.h>
#endif

int cdt_heap_stats_available(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    // A sanitizer's runtime replaces malloc, and glibc's figures then count none of it.
    static const char *const sanitizers[] = {"__asan_init", "__tsan_init", "__msan_init", "__hwasan_init"};
    for (size_t i = 0; i < sizeof sanitizers / sizeof sanitizers[0]; i++) {
        if (dlsym(RTLD_DEFAULT, sanitizers[i]) != NULL) return 0;
    }
    return 1;
#else
    return 0;
#endif
}

size_t cdt_heap_in_use_bytes(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}
