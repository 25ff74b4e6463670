import Testing

@testable import FastDelegates

/// The semantics of DelegateChain, on ConcurrentDelegateChain (single-threaded use).
@Suite("ConcurrentDelegateChain semantics")
struct ConcurrentDelegateChainTests {
    @Test func voidMessagesReachEveryResponderInRegistrationOrder() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(a)
        chain.add(b)
        chain.add(c)
        chain.send(Scroll.didScroll, 7)
        chain.send(Scroll.willBeginDragging)
        #expect(
            log.events == [
                "a.didScroll(7)", "b.didScroll(7)", "c.didScroll(7)",
                "a.willBeginDragging", "b.willBeginDragging", "c.willBeginDragging",
            ])
        #expect(chain.targets.map { ($0 as! Probe).name } == ["a", "b", "c"])
        #expect(chain.count == 3)
    }

    @Test func insertPlacesATargetAtALiveIndexAndMovesAnExistingOne() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(a)
        chain.add(b)
        chain.insert(c, at: 0)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["c", "a", "b"])
        chain.insert(c, at: 2) // moves: index among the others
        #expect(chain.targets.map { ($0 as! Probe).name } == ["a", "b", "c"])
        chain.insert(
            a, at: 1,
            responses: SendableResponses<Probe>().on(Scroll.didScroll) { me, v in
                me.log.record("\(me.name).extra(\(v))")
            })
        #expect(chain.targets.map { ($0 as! Probe).name } == ["b", "a", "c"])
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["b.didScroll(1)", "a.extra(1)", "c.didScroll(1)"])
    }

    @Test func aTargetAddedTwiceIsOneTargetWithMergedResponses() {
        let log = Log()
        let plain = Plain("p", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(plain, responses: .scrolls)
        chain.add(plain) { $0.on(Scroll.willBeginDragging) { me in me.log.record("\(me.name).drag") } }
        #expect(chain.count == 1)
        chain.send(Scroll.didScroll, 3)
        chain.send(Scroll.willBeginDragging)
        #expect(log.events == ["p.didScroll(3)", "p.drag"])
        // New handlers win.
        chain.add(plain) { $0.on(Scroll.didScroll) { me, v in me.log.record("\(me.name).new(\(v))") } }
        chain.send(Scroll.didScroll, 4)
        #expect(log.events.last == "p.new(4)")
        #expect(chain.count == 1)
    }

    @Test func deadWeakTargetsAreSkippedAndReclaimed() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        let kept = Probe("kept", log: log)
        chain.add(kept)
        do {
            let doomed = Probe("doomed", log: log)
            chain.add(doomed)
            #expect(chain.count == 2)
        }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["kept.didScroll(1)"])
        #expect(chain.count == 1)
        #expect(chain.registrationCount == 1) // the send reclaimed the dead one
        #expect(chain.snapshotEntryCount == 4) // kept's four messages only
    }

    @Test func deadTargetsAreReclaimedByTheNextMutationToo() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        for index in 0..<10 { chain.add(Probe("p\(index)", log: log)) } // all die at once
        #expect(chain.count == 0)
        let kept = Probe("kept", log: log)
        chain.add(kept)
        #expect(chain.registrationCount == 1)
    }

    @Test func strongRetentionKeepsATargetAliveUntilRemoved() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        weak var weakProbe: Probe?
        do {
            let probe = Probe("s", log: log)
            weakProbe = probe
            chain.add(probe, retention: .strong)
            #expect(chain.retention(of: probe) == .strong)
        }
        #expect(weakProbe != nil)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["s.didScroll(1)"])
        // Becoming weak lets it go.
        chain.add(weakProbe!, retention: .weak)
        #expect(weakProbe == nil)
        #expect(chain.count == 0)
    }

    @Test func removingAStrongTargetReleasesIt() {
        let chain = ConcurrentDelegateChain()
        weak var weakProbe: Probe?
        do {
            let probe = Probe("s", log: Log())
            weakProbe = probe
            chain.add(probe, retention: .strong)
        }
        #expect(chain.remove(weakProbe!))
        #expect(weakProbe == nil)
        #expect(!chain.remove(Probe("other", log: Log())))
    }

    @Test func aStrongTargetLivesAsLongAsTheChain() {
        weak var weakProbe: Probe?
        do {
            let chain = ConcurrentDelegateChain()
            let probe = Probe("s", log: Log())
            weakProbe = probe
            chain.add(probe, retention: .strong)
            chain.send(Scroll.didScroll, 1)
        }
        #expect(weakProbe == nil)
    }

    @Test func tokensCancelIdempotentlyAndSafelyAfterTheChainIsGone() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        var chain: ConcurrentDelegateChain? = ConcurrentDelegateChain()
        let tokenA = chain!.add(a)
        let tokenB = chain!.add(b)
        let tokenA2 = chain!.add(a) // the same registration
        tokenA.cancel()
        #expect(chain!.contains(a) == false)
        #expect(chain!.contains(b))
        tokenA.cancel()
        tokenA2.cancel()
        #expect(chain!.count == 1)
        // A token of an old registration does not remove a new one.
        chain!.add(a)
        tokenA.cancel()
        #expect(chain!.contains(a))
        chain = nil
        tokenB.cancel()
        tokenB.cancel()
    }

    @Test func breakingModeStopsAtTheFirstLiveResponder() {
        let log = Log()
        let chain = ConcurrentDelegateChain(mode: .breaking)
        let a = Plain("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        chain.add(a) { $0.on(Scroll.willBeginDragging) { me in me.log.record("\(me.name).drag") } }
        chain.add(b)
        chain.add(c)
        chain.send(Scroll.didScroll, 1) // a does not answer it
        chain.send(Scroll.willBeginDragging)
        #expect(log.events == ["b.didScroll(1)", "a.drag"])
        #expect(chain.mode == .breaking)
    }

    @Test func answersComeFromTheFirstLiveResponderOrNilOrTheDefault() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        #expect(chain.send(Scroll.viewForZooming) == nil)
        #expect(chain.send(Scroll.heightForHeader, 2, default: -1) == -1)
        #expect(!chain.responds(to: Scroll.viewForZooming))
        let plain = Plain("p", log: log)
        chain.add(plain, responses: .scrolls)
        #expect(chain.send(Scroll.viewForZooming) == nil)
        #expect(!chain.responds(to: Scroll.viewForZooming))
        #expect(chain.responds(to: Scroll.didScroll))
        let b = Probe("bb", log: log), c = Probe("c", log: log)
        chain.add(b)
        chain.add(c)
        #expect(chain.send(Scroll.viewForZooming) == "view of bb")
        #expect(chain.send(Scroll.heightForHeader, 2, default: -1) == 202)
        #expect(log.events == ["bb.viewForZooming"]) // only the first answers
        chain.remove(b)
        #expect(chain.send(Scroll.viewForZooming) == "view of c")
    }

    @Test func respondsIsFalseOnceTheOnlyResponderDied() {
        let chain = ConcurrentDelegateChain()
        do {
            let probe = Probe("p", log: Log())
            chain.add(probe)
            #expect(chain.responds(to: Scroll.didScroll))
        }
        #expect(!chain.responds(to: Scroll.didScroll))
    }

    @Test func removeAllEmptiesTheChain() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(a)
        chain.add(b, retention: .strong)
        chain.removeAll()
        #expect(chain.count == 0)
        #expect(chain.targets.isEmpty)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events.isEmpty)
        #expect(chain.retention(of: a) == nil)
    }

    // MARK: Reentrancy

    @Test func aRemovalTakesEffectAtOnceEvenInTheRunningDispatch() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        let chain = ConcurrentDelegateChain()
        for probe in [a, b, c] { chain.add(probe) }
        a.onScroll = { _, _ in chain.remove(b) }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)", "c.didScroll(1)"])
    }

    @Test func aCancelTakesEffectAtOnceEvenInTheRunningDispatch() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(a)
        let token = chain.add(b)
        a.onScroll = { _, _ in token.cancel() }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)"])
    }

    @Test func anAdditionTakesEffectFromTheNextDispatch() {
        let log = Log()
        let a = Probe("a", log: log), late = Probe("late", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(a)
        a.onScroll = { _, _ in chain.add(late) }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["a.didScroll(1)", "a.didScroll(2)", "late.didScroll(2)"])
    }

    @Test func aHandlerMayRemoveItselfEvenWhenOnlyTheChainKeepsItAlive() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        weak var weakSelfRemover: Probe?
        do {
            let remover = Probe("remover", log: log)
            weakSelfRemover = remover
            remover.onScroll = { me, _ in
                chain.remove(me)
                me.log.record("\(me.name) still alive after removing itself")
            }
            chain.add(remover, retention: .strong)
        }
        let after = Probe("after", log: log)
        chain.add(after)
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(
            log.events == [
                "remover.didScroll(1)", "remover still alive after removing itself",
                "after.didScroll(1)", "after.didScroll(2)",
            ])
        #expect(weakSelfRemover == nil)
    }

    @Test func handlersMaySendAndInspectTheChain() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(a)
        chain.add(b)
        a.onScroll = { me, offset in
            if offset > 0 { chain.send(Scroll.didScroll, offset - 1) }
            me.log.record("count \(chain.count)")
        }
        chain.send(Scroll.didScroll, 1)
        #expect(
            log.events == [
                "a.didScroll(1)", "a.didScroll(0)", "count 2", "b.didScroll(0)", "count 2", "b.didScroll(1)",
            ])
    }

    /// A strong target whose deinit uses the chain: its last release must not happen under
    /// the chain's mutex.
    @Test func aTargetsDeinitMayUseTheChain() {
        final class Leaver {
            let chain: ConcurrentDelegateChain
            init(chain: ConcurrentDelegateChain) { self.chain = chain }
            deinit { chain.remove(self) }
        }
        let chain = ConcurrentDelegateChain()
        chain.add(Leaver(chain: chain), retention: .strong, responses: SendableResponses<Leaver>())
        chain.removeAll()
        #expect(chain.count == 0)
        let leaver = Leaver(chain: chain)
        chain.add(leaver, retention: .strong, responses: SendableResponses<Leaver>())
        chain.add(leaver, retention: .weak, responses: SendableResponses<Leaver>())
        #expect(chain.count == 1)
    }

    @Test func aDeadTargetsAddressReusedByANewTargetIsANewRegistration() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        for round in 0..<50 {
            let probe = Probe("p\(round)", log: log)
            chain.add(
                probe, responses: SendableResponses<Probe>().on(Scroll.didScroll) { me, _ in me.log.record(me.name) })
            chain.send(Scroll.didScroll, 0)
            #expect(chain.count == 1)
        }
        #expect(log.events == (0..<50).map { "p\($0)" })
    }
}
