/// The size, in bytes, of the unit of cache coherence (what two cores writing near each other
/// contend for) on a CPU architecture: 128 on 64-bit ARM (Apple Silicon's cache lines; on other
/// ARM cores it covers the pair of lines their prefetchers fetch together), 64 elsewhere.
func cacheLineBytes(arm64: Bool) -> Int {
    arm64 ? 128 : 64
}

#if arch(arm64)
/// The cache line size of the architecture this is built for.
let cacheLineSize = cacheLineBytes(arm64: true)
/// Fills one cache line (``cacheLineSize`` bytes).
typealias CacheLinePad = (
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
)
let cacheLinePadding: CacheLinePad = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#else
/// The cache line size of the architecture this is built for.
let cacheLineSize = cacheLineBytes(arm64: false)
/// Fills one cache line (``cacheLineSize`` bytes).
typealias CacheLinePad = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
let cacheLinePadding: CacheLinePad = (0, 0, 0, 0, 0, 0, 0, 0)
#endif
