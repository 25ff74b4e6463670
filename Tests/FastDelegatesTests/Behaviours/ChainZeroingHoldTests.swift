import CDispatchTable
import Dispatch
import Synchronization
import Testing

@_spi(Testing) @testable import FastDelegates

/// The zeroing hold (issue 13): both chains hold a plain Swift class by an unowned reference,
/// each call under `swift_tryRetain`, and an Objective-C-like one with a Swift `weak`
/// reference, with the weak contract intact. Checked once on every chain.
@Suite("Every chain: zeroing hold")
struct ChainZeroingHoldTests {
    @Test(arguments: ChainKind.allCases)
    func aPlainClassIsHeldZeroingAndAnObjectiveCLikeOneWithAWeakReference(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        let native = Zeroed("n", log: log), weakPath = WeakPathMortal("w", log: log)
        chain.add(native)
        chain.add(weakPath)
        #expect(chain.isHeldZeroing(native))
        #expect(!chain.isHeldZeroing(weakPath))
        #expect(chain.retention(of: native) == .weak)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["n.didScroll(1)", "w.didScroll(1)"])
        withExtendedLifetime((native, weakPath)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func aPlainClassIsHeldZeroingNotWeaklyAndDiesWhenItsOwnersLetGo(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        weak var weakZeroed: Zeroed?
        do {
            let zeroed = Zeroed("t", log: log)
            weakZeroed = zeroed
            chain.add(zeroed)
            #expect(chain.retention(of: zeroed) == .weak)
            #expect(chain.isHeldZeroing(zeroed))
            chain.send(Scroll.didScroll, 1)
            #expect(chain.send(Scroll.viewForZooming) == .some("view of t"))
        }
        #expect(weakZeroed == nil)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["t.didScroll(1)", "t.deinit"])
    }

    /// The exact contract of *Choosing a dispatch mode*: targets that die together stay held
    /// (their allocations, by the zeroing hold) until the chain next sweeps, however many more
    /// than the live targets (or 16) they are, and one send that meets them gives them back.
    @Test(arguments: ChainKind.allCases)
    func deadTargetsAreHeldUntilTheNextSweepAndOneSendReclaimsThem(kind: ChainKind) {
        let (chain, log, survivor) = kind.make(probe: "survivor")
        let doomedCount = 500
        weak var lastDoomed: Zeroed?
        do {
            var doomed: [Zeroed] = []
            for index in 0..<doomedCount { doomed.append(Zeroed("d\(index)", log: log)) }
            for target in doomed { chain.add(target) }
            lastDoomed = doomed.last
        }
        #expect(lastDoomed == nil)
        #expect(chain.count == 1)
        // No send and no add since the deaths: every dead allocation is still held.
        #expect(chain.registrationCount == doomedCount + 1)
        chain.send(Scroll.didScroll, 1)
        #expect(chain.registrationCount == 1)
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime(survivor) {}
    }

    @Test(arguments: ChainKind.allCases, [false, true])
    func aDeadTargetIsNeverReportedAndIsReclaimed(kind: ChainKind, weakPath: Bool) {
        let (chain, log, survivor) = kind.make(probe: "survivor")
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
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime(survivor) {}
    }

    @Test(arguments: ChainKind.allCases)
    func respondsIsFalseWhenTheOnlyResponderDied(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        do { chain.add(Zeroed("doomed", log: log)) }
        #expect(!chain.responds(to: Scroll.viewForZooming))
        #expect(chain.send(Scroll.viewForZooming) == nil)
    }

    /// The chain's unowned reference keeps a dead target's memory until the registration goes,
    /// and gives it back with the chain: afterwards the test's own unowned reference is the only
    /// one left.
    @Test(arguments: ChainKind.allCases)
    func aFreedChainGivesBackTheMemoryOfItsDeadTargets(kind: ChainKind) {
        let log = Log()
        var chain: (any ChainUnderTest)? = kind.make()
        let pointer: UnsafeMutableRawPointer
        do {
            let target = Zeroed("t", log: log)
            pointer = Unmanaged.passUnretained(target).toOpaque()
            cdt_swift_unowned_retain(pointer) // the test's own: the memory stays readable
            chain!.add(target)
        }
        #expect(log.events == ["t.deinit"])
        #expect(cdt_swift_unowned_count(pointer) == 2) // the chain's and the test's
        chain = nil
        #expect(cdt_swift_unowned_count(pointer) == 1)
        cdt_swift_unowned_release(pointer)
    }

    /// The deterministic form of the race: while a target's handler runs, another thread drops
    /// the last owner's reference. The target must stay alive until the handler returns, then
    /// die on the sending thread, and is never called again.
    @Test(arguments: ChainKind.allCases)
    func aLastReleaseOnAnotherThreadDuringTheHandlerWaitsForTheCallToFinish(kind: ChainKind) {
        let shared = StressShared()
        let owner = HandoffMutex<HandoffTarget?>(nil)
        let chain = kind.make()
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
            #expect(chain.isHeldZeroing(target))
            owner.withLock { $0 = target }
        }
        #expect(shared.deaths.load(ordering: .acquiring) == 0)
        chain.send(StressTarget.tick, 1)
        #expect(shared.calls.load(ordering: .acquiring) == 1)
        #expect(shared.violations.load(ordering: .acquiring) == 0)
        #expect(shared.deaths.load(ordering: .acquiring) == 1) // died when the send let go
        chain.send(StressTarget.tick, 1)
        #expect(shared.calls.load(ordering: .acquiring) == 1)
        #expect(chain.count == 0)
        #expect(chain.registrationCount == 0)
    }

    /// A new chain of `kind` whose first target, "self-releaser", lets go of its only strong
    /// reference (a holder's, outside the chain) in its own handler.
    static func chainWithSelfReleaser(_ kind: ChainKind) -> (chain: any ChainUnderTest, log: Log) {
        let log = Log()
        let holder = Holder()
        holder.target = Zeroed("self-releaser", log: log)
        holder.target!.onScroll = { me in
            holder.target = nil // the last strong reference, outside the chain
            me.log.record("\(me.name) still alive in its handler")
        }
        return (kind.make(adding: [holder.target!]), log)
    }

    /// What the self-releaser of ``chainWithSelfReleaser(_:)`` logs over the sends: its one
    /// call, finished alive, then its death.
    static let selfReleaserEvents = [
        "self-releaser.didScroll(1)", "self-releaser still alive in its handler", "self-releaser.deinit",
    ]

    @Test(arguments: ChainKind.allCases)
    func aTargetReleasingItselfInsideItsOwnHandlerFinishesTheCallAlive(kind: ChainKind) {
        let (chain, log) = Self.chainWithSelfReleaser(kind)
        let after = Zeroed("after", log: log)
        chain.add(after)
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == Self.selfReleaserEvents + ["after.didScroll(1)", "after.didScroll(2)"])
        #expect(chain.registrationCount == 1)
    }

    /// A target whose own handler lets go of its last owner finishes the call alive; another
    /// that removes itself from its handler is called no more.
    @Test(arguments: ChainKind.allCases)
    func aTargetFreedOrRemovedByItsOwnHandlerFinishesTheCallAlive(kind: ChainKind) {
        let (chain, log) = Self.chainWithSelfReleaser(kind)
        let remover = Zeroed("self-remover", log: log)
        remover.onScroll = { me in
            chain.remove(me)
            me.log.record("\(me.name) removed itself")
        }
        chain.add(remover)
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == Self.selfReleaserEvents + ["self-remover.didScroll(1)", "self-remover removed itself"])
        #expect(chain.count == 0)
        withExtendedLifetime(remover) {}
    }

    @Test(arguments: ChainKind.allCases)
    func aTargetKilledByAnEarlierHandlerIsNotCalledInTheSameDispatch(kind: ChainKind) {
        let log = Log()
        let killer = Zeroed("killer", log: log)
        let holder = Holder()
        holder.target = Zeroed("victim", log: log)
        let chain = kind.make(adding: [killer, holder.target!])
        killer.onScroll = { _ in holder.target = nil }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["killer.didScroll(1)", "victim.deinit"])
        #expect(chain.count == 1)
        if !kind.isConcurrent { #expect(chain.registrationCount == 1) }
    }

    @Test(arguments: ChainKind.allCases)
    func aSendFromADyingTargetsDeinitSkipsThatTarget(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        let other = Zeroed("other", log: log)
        chain.add(other)
        do {
            let dying = Zeroed("dying", log: log)
            dying.onDeinit = { chain.send(Scroll.didScroll, 9) }
            chain.add(dying)
        }
        #expect(log.events == ["dying.deinit", "other.didScroll(9)"])
    }

    @Test(arguments: ChainKind.allCases)
    func tokensAndRemovalWorkOnZeroingTargets(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        let a = Zeroed("a", log: log), b = Zeroed("b", log: log)
        let token = chain.add(a)
        chain.add(b)
        token.cancel()
        chain.remove(b)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events.isEmpty)
        #expect(chain.isEmpty)
        if let chain = chain as? DelegateChain { #expect(chain.tableStats.liveSlots == 0) }
    }
}

extension ChainUnderTest {
    /// Whether the chain holds `target` on the zeroing hold (an unowned reference).
    func isHeldZeroing(_ target: AnyObject) -> Bool {
        switch self {
        case let chain as DelegateChain: chain.holdForTesting(of: target) == .zeroing
        case let chain as ConcurrentDelegateChain: chain.holdIsZeroingForTesting(of: target) == true
        default: false
        }
    }
}
