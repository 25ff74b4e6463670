#include "cdt_random.h"

#if defined(__linux__)
#include <bsd/stdlib.h>
#else
#include <stdlib.h>
#endif

uint64_t cdt_random64(void) {
    return ((uint64_t)arc4random() << 32) | (uint64_t)arc4random();
}
