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
    @Test func aPlainClassIsHeldZeroingAndAnObjectiveCLikeOneWithAWeakReference() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        let native = Zeroed("n", log: log), weakPath = WeakPathMortal("w", log: log)
        chain.add(native)
        chain.add(weakPath)
        #expect(chain.holdIsZeroingForTesting(of: native) == true)
        #expect(chain.holdIsZeroingForTesting(of: weakPath) == false)
        #expect(chain.retention(of: native) == .weak)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["n.didScroll(1)", "w.didScroll(1)"])
        withExtendedLifetime((native, weakPath)) {}
    }

    @Test(arguments: [false, true])
    func aDeadTargetIsNeverReportedAndIsReclaimed(weakPath: Bool) {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        let survivor = Probe("survivor", log: log)
        chain.add(survivor)
        do {
            if weakPath {
                chain.add(WeakPathMortal("doomed", log: log))
            } else {
                chain.add(Zeroed("doomed", log: log))
            }
        }
        #expect(log.events == ["doomed.deinit"])
        // No send since the death: nothing reports the dead target.
        #expect(chain.count == 1)
        #expect(chain.targets.map(ObjectIdentifier.init) == [ObjectIdentifier(survivor)])
        #expect(chain.responds(to: Scroll.didScroll))
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["doomed.deinit", "survivor.didScroll(1)"])
        #expect(chain.registrationCount == 1)
        withExtendedLifetime(survivor) {}
    }

    @Test func respondsIsFalseWhenTheOnlyResponderDied() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        do { chain.add(Zeroed("doomed", log: log)) }
        #expect(!chain.responds(to: Scroll.viewForZooming))
        #expect(chain.send(Scroll.viewForZooming) == nil)
    }

    /// The chain's unowned reference keeps a dead target's memory until the registration goes,
    /// and gives it back with the chain.
    @Test func aFreedChainGivesBackTheMemoryOfItsDeadTargets() {
        let log = Log()
        var chain: ConcurrentDelegateChain? = ConcurrentDelegateChain()
        let pointer: UnsafeMutableRawPointer
        do {
            let target = Zeroed("t", log: log)
            pointer = Unmanaged.passUnretained(target).toOpaque()
            cdt_swift_unowned_retain(pointer)
            chain!.add(target)
        }
        #expect(cdt_swift_unowned_count(pointer) == 2)
        chain = nil
        #expect(cdt_swift_unowned_count(pointer) == 1)
        cdt_swift_unowned_release(pointer)
    }

    /// While a target's handler runs, another thread drops the last owner's reference: the
    /// target stays alive until the handler returns, then dies on the sending thread, and is
    /// never called again.
    @Test func aLastReleaseOnAnotherThreadDuringTheHandlerWaitsForTheCallToFinish() {
        let shared = StressShared()
        let owner = Mutex<HandoffTarget?>(nil)
        let chain = ConcurrentDelegateChain()
        do {
            let target = HandoffTarget(shared: shared) {
                let released = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    _ = owner.withLock { $0.take() } // the last reference outside the chain
                    released.signal()
                }
                released.wait()
            }
            chain.add(target)
            #expect(chain.holdIsZeroingForTesting(of: target) == true)
            owner.withLock { $0 = target }
        }
        chain.send(StressTarget.tick, 1)
        #expect(shared.calls.load(ordering: .acquiring) == 1)
        #expect(shared.violations.load(ordering: .acquiring) == 0)
        #expect(shared.deaths.load(ordering: .acquiring) == 1)
        chain.send(StressTarget.tick, 1)
        #expect(shared.calls.load(ordering: .acquiring) == 1)
        #expect(chain.count == 0)
    }

    /// A target whose own handler lets go of its last owner finishes the call alive; another
    /// that removes itself from its handler is called no more.
    @Test func aTargetFreedOrRemovedByItsOwnHandlerFinishesTheCallAlive() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        let holder = Holder()
        holder.target = Zeroed("self-releaser", log: log)
        holder.target!.onScroll = { me in
            holder.target = nil
            me.log.record("\(me.name) still alive in its handler")
        }
        chain.add(holder.target!)
        let remover = Zeroed("self-remover", log: log)
        remover.onScroll = { me in
            chain.remove(me)
            me.log.record("\(me.name) removed itself")
        }
        chain.add(remover)
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(
            log.events == [
                "self-releaser.didScroll(1)", "self-releaser still alive in its handler", "self-releaser.deinit",
                "self-remover.didScroll(1)", "self-remover removed itself",
            ])
        #expect(chain.count == 0)
        withExtendedLifetime(remover) {}
    }

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
