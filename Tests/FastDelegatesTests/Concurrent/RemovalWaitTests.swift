import Foundation
import Synchronization
import Testing

@testable import FastDelegates

/// A target whose handler, on the thread that sends `block`, announces itself and then waits
/// until the test releases it.
final class BlockingTarget: DelegateResponder, Sendable {
    static let block = Message<Int, Void>("removalWait.block:")
    static let other = Message<Int, Void>("removalWait.other:")
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let running = Atomic<Bool>(false)
    let onDeinit: @Sendable () -> Void

    init(onDeinit: @escaping @Sendable () -> Void = {}) { self.onDeinit = onDeinit }

    static let responses = SendableResponses<BlockingTarget>()
        .on(block) { me, _ in
            me.running.store(true, ordering: .sequentiallyConsistent)
            me.entered.signal()
            me.release.wait()
            me.running.store(false, ordering: .sequentiallyConsistent)
        }

    deinit { onDeinit() }
}

/// Runs `body` on a new thread; the returned flag is set when it has returned.
func startThread(_ body: @escaping @Sendable () -> Void) -> (done: DispatchSemaphore, returned: ReturnFlag) {
    let done = DispatchSemaphore(value: 0)
    let returned = ReturnFlag()
    Thread {
        body()
        returned.value.store(true, ordering: .sequentiallyConsistent)
        done.signal()
    }.start()
    return (done, returned)
}

final class ReturnFlag: Sendable {
    let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

@Suite("Every removal waits for the running calls of its target")
struct RemovalWaitTests {
    enum SecondRemoval: CaseIterable, Sendable {
        case cancel, remove, removeAll
    }

    /// A handler blocks on thread A; thread B removes its target (and waits); then thread C
    /// removes it again (by token, by target, or all targets). C must not return while the
    /// handler runs, although B already took the target out.
    @Test(arguments: SecondRemoval.allCases)
    func aSecondRemoverWaitsForTheCallTheFirstOneWaitsFor(second: SecondRemoval) {
        let chain = ConcurrentDelegateChain()
        let target = BlockingTarget()
        let token = chain.add(target)
        let sender = startThread { chain.send(BlockingTarget.block, 1) }
        target.entered.wait()
        let first = startThread { chain.remove(target) }
        while chain.contains(target) { usleep(1_000) } // B has taken it out and waits
        let third = startThread {
            switch second {
            case .cancel: token.cancel()
            case .remove: #expect(!chain.remove(target)) // already removed: false, yet waits
            case .removeAll: chain.removeAll()
            }
        }
        usleep(100_000)
        #expect(!third.returned.isSet, "the second removal returned while the handler ran")
        #expect(!first.returned.isSet)
        target.release.signal()
        for thread in [sender, first, third] { thread.done.wait() }
        let stillRunning = target.running.load(ordering: .sequentiallyConsistent)
        #expect(!stillRunning)
    }

    /// A removed strong target can die when the last dispatch that walked it ends; its deinit
    /// then runs outside that dispatch, so a removal it makes waits for the removed target's
    /// running calls (here: a handler blocked on another thread).
    @Test func aDeinitRunAtTheEndOfADispatchStillWaits() {
        let chain = ConcurrentDelegateChain()
        let blocked = BlockingTarget()
        chain.add(
            blocked,
            responses: SendableResponses<BlockingTarget>().on(BlockingTarget.other) { me, _ in
                me.running.store(true, ordering: .sequentiallyConsistent)
                me.entered.signal()
                me.release.wait()
                me.running.store(false, ordering: .sequentiallyConsistent)
            })
        let removalReturned = ReturnFlag()
        let runningWhenReturned = ReturnFlag()
        do {
            let dying = BlockingTarget {
                // Runs where the last reference goes: must wait for `blocked`'s call.
                chain.remove(blocked)
                removalReturned.value.store(true, ordering: .sequentiallyConsistent)
                if blocked.running.load(ordering: .sequentiallyConsistent) {
                    runningWhenReturned.value.store(true, ordering: .sequentiallyConsistent)
                }
            }
            chain.add(dying, retention: .strong)
            let otherSender = startThread { chain.send(BlockingTarget.other, 1) }
            blocked.entered.wait()
            let sender = startThread { chain.send(BlockingTarget.block, 1) }
            dying.entered.wait()
            let remover = startThread { chain.remove(dying) }
            while chain.contains(dying) { usleep(1_000) }
            dying.release.signal() // the sender's dispatch ends
            sender.done.wait()
            remover.done.wait()
            usleep(100_000)
            #expect(!removalReturned.isSet, "the deinit's removal returned while the handler ran")
            blocked.release.signal()
            otherSender.done.wait()
        }
        while !removalReturned.isSet { usleep(1_000) }
        #expect(!runningWhenReturned.isSet)
    }
}

/// Relays `relay(n)` through the same chain n - 1 more times, then sends `BlockingTarget.block`:
/// the blocking call runs at dispatch depth n on its thread.
final class Relay: DelegateResponder, Sendable {
    static let relay = Message<Int, Void>("removalWait.relay:")
    let chain: ConcurrentDelegateChain

    init(chain: ConcurrentDelegateChain) { self.chain = chain }

    static let responses = SendableResponses<Relay>()
        .on(relay) { me, depth in
            if depth > 2 {
                me.chain.send(relay, depth - 1)
            } else {
                me.chain.send(BlockingTarget.block, 0)
            }
        }
}

/// The CPU time the calling thread has used.
func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

@Suite("A removal waits for calls at any nesting depth, blocking")
struct NestedRemovalWaitTests {
    /// The blocked call runs at dispatch depth 1, 2, 4 (the last level with a call slot in the
    /// thread's record) and 6 (counted in the registration instead): every one is waited for.
    @Test(arguments: [1, 2, 4, 6])
    func aRemovalWaitsForACallAtThisDepth(depth: Int) {
        let chain = ConcurrentDelegateChain()
        let relay = Relay(chain: chain)
        let target = BlockingTarget()
        chain.add(relay)
        chain.add(target)
        let sender = startThread {
            if depth == 1 {
                chain.send(BlockingTarget.block, 0)
            } else {
                chain.send(Relay.relay, depth)
            }
        }
        target.entered.wait()
        let remover = startThread { chain.remove(target) }
        usleep(100_000)
        #expect(!remover.returned.isSet, "the removal returned while the handler ran")
        target.release.signal()
        remover.done.wait()
        sender.done.wait()
        let stillRunning = target.running.load(ordering: .sequentiallyConsistent)
        #expect(!stillRunning)
        chain.send(BlockingTarget.block, 0) // removed: not called, so this does not block
    }

    /// A remover that waits for a long handler blocks instead of spinning: over 300 ms of
    /// waiting it uses a small fraction of a core.
    @Test func aWaitingRemoverBlocks() {
        let chain = ConcurrentDelegateChain()
        let target = BlockingTarget()
        chain.add(target)
        let sender = startThread { chain.send(BlockingTarget.block, 0) }
        target.entered.wait()
        let used = HandoffMutex<Duration?>(nil)
        let remover = startThread {
            let start = threadCPUTime()
            chain.remove(target)
            used.withLock { $0 = threadCPUTime() - start }
        }
        usleep(300_000)
        #expect(!remover.returned.isSet)
        target.release.signal()
        remover.done.wait()
        sender.done.wait()
        let cpu = used.withLock { $0 } ?? .zero
        #expect(cpu < .milliseconds(100), "the remover used \(cpu) of CPU while it waited")
    }

    /// Targets removed from inside handlers (whose removal does not wait) do not pile up in the
    /// chain's list of registrations whose calls may still run.
    @Test func removalsFromHandlersStayBounded() {
        let chain = ConcurrentDelegateChain()
        let victims = (0..<200).map { _ in BlockingTarget() }
        for victim in victims { chain.add(victim, responses: SendableResponses()) }
        let remover = Remover(chain: chain, victims: victims)
        chain.add(remover)
        for index in victims.indices { chain.send(Remover.removeOne, index) }
        #expect(chain.count == 1)
        #expect(chain.drainingCount <= ConcurrentDelegateChain.drainingScanThreshold)
    }
}

/// Removes `victims[index]` from inside its handler.
final class Remover: DelegateResponder, Sendable {
    static let removeOne = Message<Int, Void>("removalWait.removeOne:")
    let chain: ConcurrentDelegateChain
    let victims: [BlockingTarget]

    init(chain: ConcurrentDelegateChain, victims: [BlockingTarget]) {
        self.chain = chain
        self.victims = victims
    }

    static let responses = SendableResponses<Remover>()
        .on(removeOne) { me, index in me.chain.remove(me.victims[index]) }
}
