// Randomness for hash seeds: arc4random (libbsd on Linux, the C library on Apple platforms).
#ifndef CDT_RANDOM_H
#define CDT_RANDOM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 64 unpredictable bits from arc4random. Thread-safe.
uint64_t cdt_random64(void);

#ifdef __cplusplus
}
#endif

#endif
