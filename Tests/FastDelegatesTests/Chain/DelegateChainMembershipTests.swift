import Testing

@testable import FastDelegates

@Suite("Targets: order, retention, identity, tokens")
struct DelegateChainMembershipTests {
    @Test func insertPlacesTargetsAtAnIndexAmongTheLiveOnes() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log), d = Probe("d", log: log)
        let chain = DelegateChain()
        chain.add(a)
        chain.add(b)
        chain.insert(c, at: 0)
        chain.insert(d, at: 2)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["c", "a", "d", "b"])
        chain.send(Scroll.didScroll, 0)
        #expect(log.events == ["c.didScroll(0)", "a.didScroll(0)", "d.didScroll(0)", "b.didScroll(0)"])
        chain.insert(b, at: 0) // an existing target moves
        #expect(chain.targets.map { ($0 as! Probe).name } == ["b", "c", "a", "d"])
        #expect(chain.invariantViolation == 0)
    }

    @Test func manyInsertsAtTheSameIndexRenumberWithoutLosingOrder() {
        let log = Log()
        let probes = (0..<200).map { Probe("p\($0)", log: log) }
        let chain = DelegateChain()
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

    @Test func aTargetAddedTwiceIsOneTargetWithMergedResponses() {
        let log = Log()
        let plain = Plain("p", log: log)
        let chain = DelegateChain()
        chain.add(plain, responses: .scrolls)
        chain.add(plain) { $0.on(Scroll.willBeginDragging) { me in me.log.record("p.drag") } }
        #expect(chain.count == 1)
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.willBeginDragging)
        #expect(log.events == ["p.didScroll(1)", "p.drag"])
    }

    @Test func weakIsTheDefaultAndStrongKeepsTheTargetUntilRemoved() {
        let log = Log()
        let chain = DelegateChain()
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
        chain.remove(strongOne!)
        #expect(strongOne == nil)
    }

    @Test func addingAgainChangesRetention() {
        let log = Log()
        let chain = DelegateChain()
        weak var weakProbe: Probe?
        do {
            let probe = Probe("p", log: log)
            weakProbe = probe
            chain.add(probe, retention: .strong)
            chain.add(probe, retention: .weak)
        }
        #expect(weakProbe == nil)
    }

    @Test func strongTargetsAreReleasedWithTheChain() {
        let log = Log()
        weak var weakProbe: Probe?
        do {
            let chain = DelegateChain()
            let probe = Probe("p", log: log)
            weakProbe = probe
            chain.add(probe, retention: .strong)
        }
        #expect(weakProbe == nil)
    }

    @Test func tokenCancelRemovesAndIsIdempotentAndSafeAfterTheChainIsGone() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        var chain: DelegateChain? = DelegateChain()
        let tokenA = chain!.add(a)
        let tokenB = chain!.add(b)
        tokenA.cancel()
        tokenA.cancel()
        chain!.send(Scroll.didScroll, 1)
        #expect(log.events == ["b.didScroll(1)"])
        // A stale token must not remove a later registration of the same target.
        chain!.add(a)
        tokenA.cancel()
        #expect(chain!.contains(a))
        chain = nil
        tokenB.cancel()
    }

    @Test func removeAndRemoveAll() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = DelegateChain()
        chain.add(a)
        chain.add(b, retention: .strong)
        #expect(chain.remove(a))
        #expect(!chain.remove(a))
        #expect(!chain.remove(Probe("never", log: log)))
        chain.removeAll()
        #expect(chain.targets.isEmpty)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events.isEmpty)
        #expect(chain.tableStats.liveSlots == 0)
        #expect(chain.tableStats.entries == 0)
    }

    @Test func deadTargetsAreReclaimedWithoutASendOnceTheyPileUp() {
        let log = Log()
        let chain = DelegateChain()
        let keeper = Probe("keeper", log: log)
        chain.add(keeper)
        for round in 0..<1_000 {
            let transient = Probe("t\(round)", log: log)
            chain.add(transient)
        }
        #expect(chain.registrationCount <= 40)
        #expect(chain.tableStats.slotCapacity <= 128)
        #expect(chain.invariantViolation == 0)
    }
}
