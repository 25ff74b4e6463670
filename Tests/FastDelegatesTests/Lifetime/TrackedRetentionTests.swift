import Dispatch
import Synchronization
import Testing
@testable import FastDelegates

/// A target that tracks its lifetime and logs its calls and its death.
final class Tracked: DelegateResponder, DelegateLifetimeTracking {
    let delegateLifetime = DelegateLifetime()
    let name: String
    let log: Log
    /// Run inside the didScroll handler.
    var onScroll: ((Tracked) -> Void)?
    /// Run inside deinit.
    var onDeinit: (() -> Void)?

    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    deinit {
        log.record("\(name).deinit")
        onDeinit?()
    }

    static let responses = SendableResponses<Tracked>()
        .on(Scroll.didScroll) { me, offset in
            me.log.record("\(me.name).didScroll(\(offset))")
            me.onScroll?(me)
        }
        .on(Scroll.viewForZooming) { me in "view of \(me.name)" }
}

/// Keeps a target alive until a handler lets it go.
final class Holder {
    var target: Tracked?
}

@Suite("Tracked retention")
struct TrackedRetentionTests {
    @Test func aTrackingTargetIsHeldTrackedNotWeaklyAndDiesWhenItsOwnersLetGo() {
        let log = Log()
        let chain = DelegateChain()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked("t", log: log)
            weakTracked = tracked
            chain.add(tracked)
            #expect(chain.retention(of: tracked) == .weak)
            #expect(chain.holdForTesting(of: tracked) == .tracked)
            chain.send(Scroll.didScroll, 1)
            #expect(chain.send(Scroll.viewForZooming) == .some("view of t"))
        }
        #expect(weakTracked == nil)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["t.didScroll(1)", "t.deinit"])
    }

    @Test func aDeadTargetsSlotIsReclaimedWithoutAnySendFindingIt() {
        let log = Log()
        let chain = DelegateChain()
        let survivor = Tracked("survivor", log: log)
        chain.add(survivor)
        do {
            let doomed = Tracked("doomed", log: log)
            chain.add(doomed)
        }
        // No send has run since the death: the lifetime reported it.
        #expect(chain.table.inbox.hasReports)
        #expect(chain.registrationCount == 1)
        #expect(chain.tableStats.liveSlots == 1)
        #expect(chain.invariantViolation == 0)
    }

    @Test func aTargetReleasingItselfInsideItsOwnHandlerFinishesTheCallAlive() {
        let log = Log()
        let chain = DelegateChain()
        let holder = Holder()
        holder.target = Tracked("self-releaser", log: log)
        holder.target!.onScroll = { me in
            holder.target = nil // the last strong reference, outside the chain
            me.log.record("\(me.name) still alive in its handler")
        }
        chain.add(holder.target!)
        let after = Tracked("after", log: log)
        chain.add(after)
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == [
            "self-releaser.didScroll(1)", "self-releaser still alive in its handler", "self-releaser.deinit",
            "after.didScroll(1)", "after.didScroll(2)",
        ])
        #expect(chain.registrationCount == 1)
    }

    @Test func aTargetKilledByAnEarlierHandlerIsNotCalledInTheSameDispatch() {
        let log = Log()
        let chain = DelegateChain()
        let killer = Tracked("killer", log: log)
        let holder = Holder()
        holder.target = Tracked("victim", log: log)
        chain.add(killer)
        chain.add(holder.target!)
        killer.onScroll = { _ in holder.target = nil }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["killer.didScroll(1)", "victim.deinit"])
        #expect(chain.registrationCount == 1)
    }

    @Test func aSendFromADyingTargetsDeinitSkipsThatTarget() {
        let log = Log()
        let chain = DelegateChain()
        let other = Tracked("other", log: log)
        chain.add(other)
        do {
            let dying = Tracked("dying", log: log)
            dying.onDeinit = { chain.send(Scroll.didScroll, 9) }
            chain.add(dying)
        }
        #expect(log.events == ["dying.deinit", "other.didScroll(9)"])
    }

    @Test func strongRetentionStillKeepsATrackingTargetAlive() {
        let log = Log()
        let chain = DelegateChain()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked("t", log: log)
            weakTracked = tracked
            chain.add(tracked, retention: .strong)
            #expect(chain.holdForTesting(of: tracked) == .strong)
        }
        #expect(weakTracked != nil)
        chain.add(weakTracked!) // back to the tracked hold: nothing else keeps it alive
        #expect(weakTracked == nil)
        #expect(chain.registrationCount == 0)
    }

    @Test func tokensAndRemovalWorkOnTrackedTargets() {
        let log = Log()
        let chain = DelegateChain()
        let a = Tracked("a", log: log), b = Tracked("b", log: log)
        let token = chain.add(a)
        chain.add(b)
        token.cancel()
        chain.remove(b)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events.isEmpty)
        #expect(chain.tableStats.liveSlots == 0)
    }

    /// The deterministic form of the race: while a target's handler runs, another thread drops
    /// the last owner's reference. The target must stay alive until the handler returns, then
    /// die on the sending thread.
    @Test func aLastReleaseOnAnotherThreadDuringTheHandlerWaitsForTheCallToFinish() {
        let shared = StressShared()
        let owner = Mutex<HandoffTarget?>(nil)
        let chain = DelegateChain()
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
            owner.withLock { $0 = target }
        }
        #expect(shared.deaths.load(ordering: .acquiring) == 0)
        chain.send(StressTarget.tick, 1)
        #expect(shared.calls.load(ordering: .acquiring) == 1)
        #expect(shared.violations.load(ordering: .acquiring) == 0)
        #expect(shared.deaths.load(ordering: .acquiring) == 1) // died when the send let go
        chain.send(StressTarget.tick, 1)
        #expect(shared.calls.load(ordering: .acquiring) == 1)
        #expect(chain.registrationCount == 0)
    }

    /// Targets die on one thread (their last release) while another thread sends to them.
    @Test func targetsDyingOnAnotherThreadWhileSendsRunAreNeverCalledDuringOrAfterDeinit() {
        let shared = StressShared()
        let handoff = Mutex<[StressTarget]>([])
        let producerDone = Atomic<Bool>(false)
        let group = DispatchGroup()
        let total = 2_000

        DispatchQueue.global().async(group: group) {
            // The producer: makes targets, hands them to the sender, then lets them go.
            var owned: [StressTarget] = []
            var generator = SeededGenerator(seed: 42)
            for index in 0..<total {
                let target = StressTarget(shared: shared)
                owned.append(target)
                handoff.withLock { $0.append(target) }
                if index % 7 == 0 || owned.count > 40 {
                    let victim = Int.random(in: 0..<owned.count, using: &generator)
                    owned.swapAt(victim, owned.count - 1)
                    owned.removeLast() // likely the last strong reference: dies here, mid-send
                }
            }
            owned.removeAll()
            producerDone.store(true, ordering: .releasing)
        }
        DispatchQueue.global().async(group: group) {
            // The sender owns the chain.
            let chain = DelegateChain()
            var sends = 0
            while true {
                let done = producerDone.load(ordering: .acquiring)
                let arrivals = handoff.withLock { list in
                    defer { list.removeAll() }
                    return list
                }
                for target in arrivals { chain.add(target) }
                chain.send(StressTarget.tick, 1)
                sends += 1
                if done && arrivals.isEmpty { break }
            }
            for _ in 0..<10 { chain.send(StressTarget.tick, 1) }
            shared.finalRegistrations.store(chain.registrationCount, ordering: .releasing)
            shared.sends.store(sends, ordering: .releasing)
        }
        group.wait()
        #expect(shared.violations.load(ordering: .acquiring) == 0)
        #expect(shared.deaths.load(ordering: .acquiring) == total)
        #expect(shared.calls.load(ordering: .acquiring) > 0)
        #expect(shared.finalRegistrations.load(ordering: .acquiring) == 0)
        #expect(shared.sends.load(ordering: .acquiring) > 0)
    }
}

final class StressShared: Sendable {
    let violations = Atomic<Int>(0)
    let deaths = Atomic<Int>(0)
    let calls = Atomic<Int>(0)
    let sends = Atomic<Int>(0)
    let finalRegistrations = Atomic<Int>(-1)
}

final class StressTarget: DelegateResponder, DelegateLifetimeTracking, Sendable {
    static let tick = Message<Int, Void>("stress.tick:")

    let delegateLifetime = DelegateLifetime()
    let shared: StressShared
    let deinitStarted = Atomic<Bool>(false)
    let inHandler = Atomic<Int>(0)

    init(shared: StressShared) { self.shared = shared }

    deinit {
        deinitStarted.store(true, ordering: .sequentiallyConsistent)
        if inHandler.load(ordering: .sequentiallyConsistent) != 0 {
            shared.violations.add(1, ordering: .relaxed)
        }
        shared.deaths.add(1, ordering: .relaxed)
    }

    static let responses = SendableResponses<StressTarget>().on(tick) { me, value in
        me.inHandler.add(1, ordering: .sequentiallyConsistent)
        if me.deinitStarted.load(ordering: .sequentiallyConsistent) {
            me.shared.violations.add(1, ordering: .relaxed)
        }
        me.shared.calls.add(value, ordering: .relaxed)
        me.inHandler.subtract(1, ordering: .sequentiallyConsistent)
    }
}

/// A target whose handler runs `duringCall` (which lets another thread release it), recording
/// a violation if its deinit starts while a call is in progress or a call starts after it.
final class HandoffTarget: DelegateResponder, DelegateLifetimeTracking, Sendable {
    let delegateLifetime = DelegateLifetime()
    let shared: StressShared
    let duringCall: @Sendable () -> Void
    let deinitStarted = Atomic<Bool>(false)
    let inHandler = Atomic<Int>(0)

    init(shared: StressShared, duringCall: @escaping @Sendable () -> Void) {
        self.shared = shared
        self.duringCall = duringCall
    }

    deinit {
        deinitStarted.store(true, ordering: .sequentiallyConsistent)
        if inHandler.load(ordering: .sequentiallyConsistent) != 0 {
            shared.violations.add(1, ordering: .relaxed)
        }
        shared.deaths.add(1, ordering: .relaxed)
    }

    static let responses = SendableResponses<HandoffTarget>().on(StressTarget.tick) { me, value in
        me.inHandler.add(1, ordering: .sequentiallyConsistent)
        me.duringCall()
        if me.deinitStarted.load(ordering: .sequentiallyConsistent) {
            me.shared.violations.add(1, ordering: .relaxed)
        }
        me.shared.calls.add(value, ordering: .relaxed)
        me.inHandler.subtract(1, ordering: .sequentiallyConsistent)
    }
}
