import CDispatchTable
import Dispatch
import Synchronization
import Testing

@testable import FastDelegates

/// Issue 13 item 4: `ConcurrentDelegateChain` holds a plain Swift class on the zeroing fast path
/// (an unowned reference, each call under `swift_tryRetain`), with the weak contract intact
/// across threads.
@Suite("Concurrent zeroing hold")
struct ConcurrentZeroingHoldTests {
    /// Four threads: two make targets, add them and let them die (their last release, often
    /// mid-send), two send. No target is called during or after its deinit, every target dies,
    /// and the chain ends empty.
    @Test func targetsDyingUnderFourThreadsAreNeverCalledDuringOrAfterDeinit() {
        let shared = StressShared()
        let chain = ConcurrentDelegateChain()
        let perProducer = TestScale.count(4_000)
        let producersDone = Atomic<Int>(0)
        runOnThreads(4) { index in
            if index < 2 {
                var owned: [StressTarget] = []
                var generator = SeededGenerator(seed: UInt64(index + 1))
                for step in 0..<perProducer {
                    let target = StressTarget(shared: shared)
                    chain.add(target)
                    owned.append(target)
                    if step % 3 == 0 || owned.count > 16 {
                        let victim = Int.random(in: 0..<owned.count, using: &generator)
                        owned.swapAt(victim, owned.count - 1)
                        owned.removeLast() // the last strong reference: dies here, maybe mid-send
                    }
                }
                owned.removeAll()
                producersDone.add(1, ordering: .releasing)
            } else {
                var sends = 0
                while producersDone.load(ordering: .acquiring) < 2 {
                    chain.send(StressTarget.tick, 1)
                    sends += 1
                }
                shared.sends.add(sends, ordering: .relaxed)
            }
        }
        chain.send(StressTarget.tick, 1)
        #expect(shared.violations.load(ordering: .acquiring) == 0)
        #expect(shared.deaths.load(ordering: .acquiring) == perProducer * 2)
        #expect(shared.calls.load(ordering: .acquiring) > 0)
        #expect(chain.count == 0)
        #expect(chain.targets.isEmpty)
        chain.removeAll()
        #expect(chain.registrationCount == 0)
    }
}
