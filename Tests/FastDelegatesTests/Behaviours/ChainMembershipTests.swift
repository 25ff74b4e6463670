import Testing

@testable import FastDelegates

/// Order, retention, identity and tokens: what `DelegateChain` and `ConcurrentDelegateChain`
/// both promise (single-threaded use), checked once on every chain.
@Suite("Every chain: order, retention, identity, tokens")
struct ChainMembershipTests {
    @Test(arguments: ChainKind.allCases)
    func voidMessagesReachEveryResponderInRegistrationOrder(kind: ChainKind) {
        let names = ["a", "b", "c"]
        let (chain, log, probes) = kind.make(probes: names)
        chain.send(Scroll.didScroll, 7)
        chain.send(Scroll.willBeginDragging)
        #expect(log.events == names.map { "\($0).didScroll(7)" } + names.map { "\($0).willBeginDragging" })
        #expect(chain.targets.map { ($0 as! Probe).name } == names)
        #expect(chain.count == 3)
        withExtendedLifetime(probes) {}
    }

    @Test(arguments: ChainKind.allCases)
    func insertPlacesTargetsAtAnIndexAmongTheLiveOnes(kind: ChainKind) {
        let (chain, log, probes) = kind.make(probes: "a", "b")
        let c = Probe("c", log: log), d = Probe("d", log: log)
        chain.insert(c, at: 0)
        chain.insert(d, at: 2)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["c", "a", "d", "b"])
        chain.send(Scroll.didScroll, 0)
        #expect(log.events == ["c.didScroll(0)", "a.didScroll(0)", "d.didScroll(0)", "b.didScroll(0)"])
        chain.insert(probes[1], at: 0) // an existing target moves
        #expect(chain.targets.map { ($0 as! Probe).name } == ["b", "c", "a", "d"])
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime((probes, c, d)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func insertMovesAnExistingTargetToAnIndexAmongTheOthers(kind: ChainKind) {
        let (chain, log, probes) = kind.make(probes: "a", "b")
        let c = Probe("c", log: log)
        chain.insert(c, at: 0)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["c", "a", "b"])
        chain.insert(c, at: 2) // moves: index among the others
        #expect(chain.targets.map { ($0 as! Probe).name } == ["a", "b", "c"])
        chain.insert(
            probes[0], at: 1,
            responses: SendableResponses<Probe>().on(Scroll.didScroll) { me, v in
                me.log.record("\(me.name).extra(\(v))")
            })
        #expect(chain.targets.map { ($0 as! Probe).name } == ["b", "a", "c"])
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["b.didScroll(1)", "a.extra(1)", "c.didScroll(1)"])
        withExtendedLifetime((probes, c)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func manyInsertsAtTheSameIndexRenumberWithoutLosingOrder(kind: ChainKind) {
        let log = Log()
        let probes = (0..<200).map { Probe("p\($0)", log: log) }
        let chain = kind.make()
        chain.add(probes[0])
        chain.add(probes[1])
        for probe in probes.dropFirst(2) { chain.insert(probe, at: 1) }
        let expected = ["p0"] + probes.dropFirst(2).reversed().map(\.name) + ["p1"]
        #expect(chain.targets.map { ($0 as! Probe).name } == expected)
        chain.send(Scroll.didScroll, 0)
        #expect(log.events == expected.map { "\($0).didScroll(0)" })
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime(probes) {} // held weakly: alive only while the test holds them
    }

    @Test(arguments: ChainKind.allCases)
    func aTargetAddedTwiceIsOneTargetWithMergedResponses(kind: ChainKind) {
        let log = Log()
        let plain = Plain("p", log: log)
        let chain = kind.make()
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
        withExtendedLifetime(plain) {}
    }

    @Test(arguments: ChainKind.allCases)
    func weakIsTheDefaultAndStrongKeepsTheTargetUntilRemoved(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        weak var weakOne: Probe?
        weak var strongOne: Probe?
        do {
            let w = Probe("w", log: log), s = Probe("s", log: log)
            weakOne = w
            strongOne = s
            chain.add(w)
            chain.add(s, retention: .strong)
            #expect(chain.retention(of: w) == .weak)
            #expect(chain.retention(of: s) == .strong)
        }
        #expect(weakOne == nil)
        #expect(strongOne != nil)
        chain.send(Scroll.didScroll, 7)
        #expect(log.events == ["s.didScroll(7)"])
        // Becoming weak lets it go.
        chain.add(strongOne!, retention: .weak)
        #expect(strongOne == nil)
        #expect(chain.count == 0)
    }

    @Test(arguments: ChainKind.allCases)
    func addingAgainChangesRetention(kind: ChainKind) {
        let chain = kind.make()
        let probe = handOver(Probe("p", log: Log())) {
            chain.add($0, retention: .strong)
            chain.add($0, retention: .weak)
        }
        #expect(probe.object == nil)
    }

    @Test(arguments: ChainKind.allCases)
    func removingAStrongTargetReleasesIt(kind: ChainKind) {
        let chain = kind.make()
        let probe = handOver(Probe("s", log: Log())) { chain.add($0, retention: .strong) }
        #expect(chain.remove(probe.object!))
        #expect(probe.object == nil)
        #expect(!chain.remove(Probe("other", log: Log())))
    }

    @Test(arguments: ChainKind.allCases)
    func strongTargetsAreReleasedWithTheChain(kind: ChainKind) {
        weak var weakProbe: Probe?
        do {
            let chain = kind.make()
            let probe = Probe("p", log: Log())
            weakProbe = probe
            chain.add(probe, retention: .strong)
            chain.send(Scroll.didScroll, 1)
        }
        #expect(weakProbe == nil)
    }

    @Test(arguments: ChainKind.allCases)
    func tokenCancelRemovesAndIsIdempotentAndSafeAfterTheChainIsGone(kind: ChainKind) {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        var chain: (any ChainUnderTest)? = kind.make()
        let tokenA = chain!.add(a)
        let tokenB = chain!.add(b)
        let tokenA2 = chain!.add(a) // the same registration
        tokenA.cancel()
        #expect(chain!.contains(a) == false)
        #expect(chain!.contains(b))
        tokenA.cancel()
        tokenA2.cancel()
        #expect(chain!.count == 1)
        chain!.send(Scroll.didScroll, 1)
        #expect(log.events == ["b.didScroll(1)"])
        // A stale token must not remove a later registration of the same target.
        chain!.add(a)
        tokenA.cancel()
        #expect(chain!.contains(a))
        chain = nil
        tokenB.cancel()
        tokenB.cancel()
        withExtendedLifetime((a, b)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func removeAndRemoveAll(kind: ChainKind) {
        let (chain, log, a) = kind.make(probe: "a")
        let b = Probe("b", log: log)
        chain.add(b, retention: .strong)
        #expect(chain.remove(a))
        #expect(!chain.remove(a))
        #expect(!chain.remove(Probe("never", log: log)))
        chain.removeAll()
        #expect(chain.count == 0)
        #expect(chain.isEmpty)
        #expect(chain.targets.isEmpty)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events.isEmpty)
        #expect(chain.retention(of: b) == nil)
        if let chain = chain as? DelegateChain {
            #expect(chain.tableStats.liveSlots == 0)
            #expect(chain.tableStats.entries == 0)
        }
        withExtendedLifetime((a, b)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func deadWeakTargetsAreSkippedAndReclaimedBySend(kind: ChainKind) {
        let (chain, log, kept) = kind.make(probe: "kept")
        do {
            let doomed = Probe("doomed", log: log)
            chain.add(doomed)
            #expect(chain.count == 2)
        }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["kept.didScroll(1)"])
        #expect(chain.count == 1)
        if let chain = chain as? ConcurrentDelegateChain {
            #expect(chain.registrationCount == 1) // the send reclaimed the dead one
            #expect(chain.snapshotEntryCount == 4) // kept's four messages only
        }
        withExtendedLifetime(kept) {}
    }

    @Test(arguments: ChainKind.allCases)
    func deadTargetsAreReclaimedWithoutASendOnceTheyPileUp(kind: ChainKind) {
        let (chain, log, keeper) = kind.make(probe: "keeper")
        for round in 0..<1_000 {
            let transient = Probe("t\(round)", log: log)
            chain.add(transient)
        }
        #expect(chain.registrationCount <= 40)
        #expect(chain.invariantViolation == 0)
        if let chain = chain as? DelegateChain { #expect(chain.tableStats.slotCapacity <= 128) }
        withExtendedLifetime(keeper) {}
    }

    @Test(arguments: ChainKind.allCases)
    func deadTargetsAreReclaimedByTheNextMutationToo(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        for index in 0..<10 { chain.add(Probe("p\(index)", log: log)) } // all die at once
        #expect(chain.count == 0)
        let kept = Probe("kept", log: log)
        chain.add(kept)
        if kind.isConcurrent { #expect(chain.registrationCount == 1) }
        withExtendedLifetime(kept) {}
    }

    @Test(arguments: ChainKind.allCases)
    func breakingModeStopsAtTheFirstLiveResponder(kind: ChainKind) {
        let log = Log()
        let chain = kind.make(mode: .breaking)
        let a = Plain("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        chain.add(a) { $0.on(Scroll.willBeginDragging) { me in me.log.record("\(me.name).drag") } }
        chain.add(b)
        chain.add(c)
        chain.send(Scroll.didScroll, 1) // a does not answer it
        chain.send(Scroll.willBeginDragging)
        #expect(log.events == ["b.didScroll(1)", "a.drag"])
        #expect(chain.mode == .breaking)
        withExtendedLifetime((a, b, c)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func answersComeFromTheFirstLiveResponderOrNilOrTheDefault(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
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
        withExtendedLifetime((plain, b, c)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func respondsIsFalseOnceTheOnlyResponderDied(kind: ChainKind) {
        let chain = kind.make()
        do {
            let probe = Probe("p", log: Log())
            chain.add(probe)
            #expect(chain.responds(to: Scroll.didScroll))
        }
        #expect(!chain.responds(to: Scroll.didScroll))
    }
}
