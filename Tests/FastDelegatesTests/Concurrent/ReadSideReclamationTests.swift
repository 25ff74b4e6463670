import Foundation
import Synchronization
import Testing

@testable import FastDelegates

/// When the read side releases a displaced snapshot (and the removed strong targets it holds)
/// across chains and nesting levels.
@Suite("Concurrent read side, reclamation across chains")
struct ReadSideReclamationTests {
    /// A mutation of chain `c` inside a handler of chain `b` leaves its displaced snapshot to the
    /// thread's outermost dispatch, which releases it when it leaves (`deferredReclaims`): the
    /// strong target removed from `c` is gone once the send on `b` returns, and its deinit ran
    /// outside every dispatch. (Before, only `b`'s own snapshots were released there, and the
    /// target lived on until `c` was mutated again.)
    @Test func aStrongTargetRemovedInAnotherChainsHandlerIsReleasedOnceTheSendReturns() {
        let log = Log()
        let b = ConcurrentDelegateChain(), c = ConcurrentDelegateChain()
        weak var weakTarget: Probe?
        do {
            let target = Probe("target", log: log)
            weakTarget = target
            c.add(target, retention: .strong)
        }
        let remover = Probe("remover", log: log)
        remover.onScroll = { _, _ in
            if let target = weakTarget { c.remove(target) }
        }
        b.add(remover)
        b.send(Scroll.didScroll, 1)
        #expect(weakTarget == nil)
        c.send(Scroll.didScroll, 2)
        #expect(c.count == 0)
        #expect(!log.events.contains("target.didScroll(2)"))
    }

    /// A removed strong target released when a nested dispatch leaves is deinitialized outside
    /// every dispatch: here a handler of chain `b` sends on chain `c`, whose handler removes the
    /// target from `c`; `c`'s dispatch ends inside `b`'s, which must release it only when it
    /// leaves. (Before, the nested leave released it at once, inside `b`'s dispatch.)
    @Test func aDeinitOfARemovedStrongTargetRunsOutsideEveryDispatch() {
        let b = ConcurrentDelegateChain(), c = ConcurrentDelegateChain()
        let insideWhenDeinit = HandoffMutex<Bool?>(nil)
        weak var weakTarget: DeinitProbe?
        do {
            let target = DeinitProbe { insideWhenDeinit.withLock { $0 = isInsideConcurrentDispatch() } }
            weakTarget = target
            c.add(target, retention: .strong, responses: SendableResponses())
        }
        let log = Log()
        let remover = Probe("remover", log: log)
        remover.onScroll = { _, _ in
            if let target = weakTarget { c.remove(target) }
        }
        c.add(remover)
        let relay = Probe("relay", log: log)
        relay.onScroll = { _, value in c.send(Scroll.didScroll, value) }
        b.add(relay)
        b.send(Scroll.didScroll, 1)
        #expect(weakTarget == nil)
        #expect(insideWhenDeinit.withLock { $0 } == false)
    }

    /// A thread nested deeper than `announcedDepth` holds back only the chains it dispatches in
    /// there (`SnapshotCell.deepDispatches`): a strong target that another thread removes from
    /// chain `c` (with its token) meanwhile is released at once, while the thread is still deep.
    /// (Before, a deep thread held back every chain's retirements, and left them stranded.)
    @Test func aStrongTargetRemovedWhileAnotherThreadIsNestedDeepInAnotherChainIsReleasedAtOnce() {
        let log = Log()
        let a = ConcurrentDelegateChain(), c = ConcurrentDelegateChain()
        weak var weakTarget: Probe?
        let token: ConcurrentDelegateToken
        do {
            let target = Probe("target", log: log)
            weakTarget = target
            token = c.add(target, retention: .strong)
        }
        let deepest = announcedDepth + 2
        let arrived = DispatchSemaphore(value: 0), removed = DispatchSemaphore(value: 0)
        var releasedWhileDeep: Bool?
        let nester = Probe("nester", log: log)
        nester.onScroll = { _, depth in
            if depth < deepest {
                a.send(Scroll.didScroll, depth + 1)
            } else {
                arrived.signal()
                removed.wait()
                releasedWhileDeep = weakTarget == nil
            }
        }
        a.add(nester)
        let remover = Thread {
            arrived.wait()
            token.cancel()
            removed.signal()
        }
        remover.start()
        a.send(Scroll.didScroll, 1)
        #expect(c.count == 0)
        #expect(releasedWhileDeep == true)
        #expect(weakTarget == nil)
    }
}

/// Calls `onDeinit` from its deinit.
final class DeinitProbe: Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
