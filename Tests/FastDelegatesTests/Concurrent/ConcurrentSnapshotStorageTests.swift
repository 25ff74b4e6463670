import FastDelegatesTestSupport
import Testing

@testable import FastDelegates

/// Where a concurrent chain's snapshot keeps its table: the buckets and the entries in one heap
/// block (the buckets first), so that a publish allocates one block for them, not two.
@Suite("Concurrent snapshot storage")
struct ConcurrentSnapshotStorageTests {
    @Test(arguments: [1, 3, 9])
    func bucketsAndEntriesShareOneBlock(listeners: Int) {
        let chain = ConcurrentDelegateChain()
        let log = Log()
        let probes = (0..<listeners).map { Probe("p\($0)", log: log) }
        for probe in probes { chain.add(probe) }
        let layout = chain.snapshotLayoutForTesting(of: Scroll.didScroll)
        let end = layout.block + UInt(heapBlockSize(UnsafeRawPointer(bitPattern: layout.block).unsafelyUnwrapped))
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
