#if canImport(Darwin)
import Darwin
#else
/// glibc's `malloc_usable_size` (in malloc.h, which the Glibc module leaves out).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif

/// The usable size of the heap block at `pointer` (the start of a malloc'd block), for the tests
/// that check what lives in one allocation.
package func heapBlockSize(_ pointer: UnsafeRawPointer) -> Int {
    #if canImport(Darwin)
    malloc_size(pointer)
    #else
    mallocUsableSize(UnsafeMutableRawPointer(mutating: pointer))
    #endif
}
