import Foundation
import Synchronization
import Testing

@testable import FastDelegates

/// The read side's platform-dependent pieces, checked here through their portable logic: the
/// thread key's destructor and the cache line padding.
@Suite("Concurrent read side, platform pieces")
struct ReadSidePlatformTests {
    /// The destructor gives an ended thread's record back, also one that ended inside a handler
    /// (its announcements withdrawn first), and ignores nil (Linux passes an optional pointer,
    /// Darwin does not).
    @Test func theThreadKeyDestructorReleasesTheRecordOfAnEndedThread() {
        let idle = ReaderRecord(), busy = ReaderRecord()
        busy.depth = 1
        busy.epoch.store(6, ordering: .relaxed)
        busy.chain1.store(1, ordering: .relaxed)
        busy.callSlot(level: 0).pointee.store(1, ordering: .relaxed)
        let done = DispatchSemaphore(value: 0)
        let records = Unchecked((idle, busy))
        // On a thread of its own: the destructor clears the calling thread's record pointer.
        let thread = Thread {
            releaseThreadRecord(nil)
            releaseThreadRecord(Unmanaged.passUnretained(records.value.0).toOpaque())
            releaseThreadRecord(Unmanaged.passUnretained(records.value.1).toOpaque())
            done.signal()
        }
        thread.start()
        done.wait()
        let idleOwned = idle.owned.load(ordering: .acquiring), busyOwned = busy.owned.load(ordering: .acquiring)
        #expect(!idleOwned)
        #expect(!busyOwned)
        #expect(busy.depth == 0)
        #expect(busy.epoch.load(ordering: .acquiring) == 0)
        #expect(busy.chain1.load(ordering: .acquiring) == 0)
        #expect(busy.announcedCall(level: 0) == 0)
    }

    /// Contended records are padded to the cache line of the architecture: 128 bytes on 64-bit
    /// ARM (Apple Silicon), 64 elsewhere; the pad and the call slots' line follow it.
    @Test func paddingFollowsTheArchitecturesCacheLine() {
        #expect(cacheLineBytes(arm64: true) == 128)
        #expect(cacheLineBytes(arm64: false) == 64)
        #if arch(arm64)
        #expect(cacheLineSize == 128)
        #else
        #expect(cacheLineSize == 64)
        #endif
        #expect(MemoryLayout<CacheLinePad>.size == cacheLineSize)
        let record = ReaderRecord()
        #expect(UInt(bitPattern: record.calls) % UInt(cacheLineSize) == 0)
        #expect(MemoryLayout<Atomic<UInt>>.stride * announcedDepth <= cacheLineSize)
    }
}
