// Code of a chosen size, for the benchmark's code placements (fastdelegates-bench, CodeShift):
// inlined before a runner's timed loop, each function moves the loop by its size in bytes, so
// that copies of one loop sit at different offsets from cache lines and fetch windows.
//
// One-byte NOPs on x86 (run once per batch of dispatches, outside the loop), four-byte NOPs
// elsewhere. Static inline: nothing is exported.
#ifndef CODE_PLACEMENT_H
#define CODE_PLACEMENT_H

#if defined(__x86_64__) || defined(__i386__)
#define CODE_PLACEMENT_PAD(bytes) __asm__ volatile(".skip " #bytes ", 0x90")
#else
#define CODE_PLACEMENT_PAD(bytes) __asm__ volatile(".rept " #bytes " / 4\n\tnop\n\t.endr")
#endif

static inline void code_placement_pad_80(void) { CODE_PLACEMENT_PAD(80); }
static inline void code_placement_pad_160(void) { CODE_PLACEMENT_PAD(160); }
static inline void code_placement_pad_240(void) { CODE_PLACEMENT_PAD(240); }

#endif
