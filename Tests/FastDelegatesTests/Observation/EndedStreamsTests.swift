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

/// The streams, each dropped by one thread.
private final class Streams: Sendable {
    private let list: HandoffMutex<[AsyncStream<Int>?]>
    init(_ streams: [AsyncStream<Int>]) { list = HandoffMutex(streams) }
    func drop(_ index: Int) {
        let stream = list.withLock { list -> AsyncStream<Int>? in
            defer { list[index] = nil }
            return list[index]
        }
        _ = consume stream
    }
}

private final class EndCounter: Sendable {
    let value = Atomic<Int>(0)
}
