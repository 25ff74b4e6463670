import Foundation
import Synchronization
import Testing

@testable import FastDelegates

/// A stream that ends on another thread while the dispatcher prunes ended streams is dropped
/// by that prune or the next one, never stranded.
@Suite("Streams ending on other threads")
struct EndedStreamsTests {
    /// Rounds of 8 streams, each dropped on its own thread while the chain's thread sends (each
    /// send prunes the streams ended so far); after each round one more send must leave no
    /// observer. A prune that cleared its flag with a plain store after reading the observers'
    /// flags could erase the flag of a stream that ended in between, and strand it.
    @Test func aStreamEndingDuringAPruneIsDroppedByTheNextSend() {
        let chain = DelegateChain()
        let rounds = ProcessInfo.processInfo.environment["FASTDELEGATES_TEST_SCALE"] == "sanitizer" ? 40 : 200
        for _ in 0..<rounds {
            let streams = Streams((0..<8).map { _ in chain.invocations(of: Scroll.didScroll) })
            let done = EndCounter()
            for index in 0..<8 {
                Thread {
                    // Dropping the last reference to a stream ends it (its onTermination runs here).
                    streams.drop(index)
                    done.value.add(1, ordering: .releasing)
                }.start()
            }
            while done.value.load(ordering: .acquiring) < 8 { chain.send(Scroll.didScroll, 1) }
            chain.send(Scroll.didScroll, 2)
            #expect(chain.observerCount(of: Scroll.didScroll) == 0)
        }
    }
}

/// The streams, each dropped by one thread. Behind an `NSLock` (a pthread mutex), not a
/// `Mutex`: ThreadSanitizer does not see the ordering of `Mutex`'s priority-inheriting futex
/// hand-over and reported the list's accesses under it as a race (a false positive, in one of
/// five `make test` runs).
private final class Streams: @unchecked Sendable {
    // Sound: `list` is read and written under `lock` only.
    private let lock = NSLock()
    private var list: [AsyncStream<Int>?]
    init(_ streams: [AsyncStream<Int>]) { list = streams }
    func drop(_ index: Int) {
        let stream = lock.withLock { () -> AsyncStream<Int>? in
            defer { list[index] = nil }
            return list[index]
        }
        _ = consume stream
    }
}

private final class EndCounter: Sendable {
    let value = Atomic<Int>(0)
}
