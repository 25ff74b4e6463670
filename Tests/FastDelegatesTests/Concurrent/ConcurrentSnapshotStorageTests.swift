import FastDelegatesTestSupport
import Testing

@testable import FastDelegates

#if canImport(Darwin)
import Darwin
#else
/// glibc's `malloc_usable_size` (in malloc.h, which the Glibc module leaves out).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif

/// Where a concurrent chain's snapshot keeps its table: the buckets and the entries in one heap
/// block (the buckets first), so that a publish allocates one block for them, not two.
@Suite("Concurrent snapshot storage")
struct ConcurrentSnapshotStorageTests {
    /// The usable size of the heap block at `pointer`.
    private static func blockSize(_ pointer: UnsafeRawPointer) -> Int {
        #if canImport(Darwin)
        malloc_size(pointer)
        #else
        mallocUsableSize(UnsafeMutableRawPointer(mutating: pointer))
        #endif
    }

    @Test(arguments: [1, 3, 9])
    func bucketsAndEntriesShareOneBlock(listeners: Int) {
        let chain = ConcurrentDelegateChain()
        let log = Log()
        let probes = (0..<listeners).map { Probe("p\($0)", log: log) }
        for probe in probes { chain.add(probe) }
        let layout = chain.snapshotLayoutForTesting(of: Scroll.didScroll)
        let end = layout.block + UInt(Self.blockSize(UnsafeRawPointer(bitPattern: layout.block).unsafelyUnwrapped))
        // The buckets, then the entries of `didScroll` past them, all inside the one block.
        #expect(layout.buckets > layout.block)
        let bucketBytes = UInt(layout.bucketCount * MemoryLayout<ConcurrentSnapshot.Bucket>.stride)
        #expect(layout.entries.lowerBound >= layout.buckets + bucketBytes)
        #expect(layout.entries.count == listeners * MemoryLayout<ConcurrentEntry>.stride)
        #expect(layout.entries.upperBound <= end)
        // The snapshot in that block dispatches to every listener in order.
        chain.send(Scroll.didScroll, 3)
        #expect(log.events == (0..<listeners).map { "p\($0).didScroll(3)" })
        withExtendedLifetime(probes) {}
    }
}
