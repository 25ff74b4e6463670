import Testing
@testable import FastDelegates

/// Memory stays bounded by the live targets: a million cycles of add / die (or cancel) / send
/// leave the registration list, the slot array and the message table at a small constant size,
/// and every target that was created is gone.
@Suite("Bounded memory")
struct BoundedMemoryTests {
    static let cycles = TestScale.count(1_000_000)
    /// Every this many cycles the sizes are checked.
    static let checkEvery = 50_000

    /// The bound: a few live targets, plus what one sweep or compaction period may leave.
    static func expectSmall(_ chain: DelegateChain, cycle: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let stats = chain.tableStats
        #expect(chain.registrationListCount <= 32, "cycle \(cycle)", sourceLocation: sourceLocation)
        #expect(stats.liveSlots <= 32, "cycle \(cycle)", sourceLocation: sourceLocation)
        #expect(stats.slotCapacity <= 64, "cycle \(cycle)", sourceLocation: sourceLocation)
        #expect(stats.entries <= 32, "cycle \(cycle)", sourceLocation: sourceLocation)
        #expect(stats.messages <= Probe.responses.count + 1, "cycle \(cycle)", sourceLocation: sourceLocation)
        #expect(chain.table.stats.bucket_capacity <= 8, "cycle \(cycle)", sourceLocation: sourceLocation)
        #expect(chain.table.graveyard.isEmpty, "cycle \(cycle)", sourceLocation: sourceLocation)
        #expect(chain.invariantViolation == 0, "cycle \(cycle)", sourceLocation: sourceLocation)
    }

    /// The common end: sizes small, every created target dead, sampled weak references nil, and
    /// the keeper still reached.
    static func expectEnd(
        _ chain: DelegateChain, deaths: DeathCount, sample: [WeakBox], keeper: Probe, log: Log,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectSmall(chain, cycle: cycles, sourceLocation: sourceLocation)
        #expect(deaths.value == cycles, sourceLocation: sourceLocation)
        #expect(sample.allSatisfy { $0.object == nil }, sourceLocation: sourceLocation)
        #expect(chain.count == 1, sourceLocation: sourceLocation)
        expectChainStillWorks(chain, reaches: [keeper.name], log: log, sourceLocation: sourceLocation)
    }

    @Test func aMillionWeakTargetsThatDieLeaveTheChainSmall() {
        let log = Log()
        let chain = DelegateChain()
        let keeper = Probe("keeper", log: log)
        chain.add(keeper)
        let deaths = DeathCount()
        var sample: [WeakBox] = []
        var calls = 0
        for cycle in 1...Self.cycles {
            do {
                let target = Counter(deaths: deaths)
                chain.add(target, responses: Counter.responses)
                if cycle % 1_000 == 0 { sample.append(WeakBox(object: target)) }
                if cycle % 2 == 0 { // half of them die after a send reached them
                    chain.send(Scroll.didScroll, cycle)
                    calls += target.hits
                }
            }
            chain.send(Scroll.didScroll, cycle)
            if cycle % Self.checkEvery == 0 { Self.expectSmall(chain, cycle: cycle) }
        }
        #expect(calls == Self.cycles / 2)
        Self.expectEnd(chain, deaths: deaths, sample: sample, keeper: keeper, log: log)
    }

    @Test func aMillionTrackedTargetsThatDieLeaveTheChainSmall() {
        let log = Log()
        let chain = DelegateChain()
        let keeper = Probe("keeper", log: log)
        chain.add(keeper)
        let deaths = DeathCount()
        var sample: [WeakBox] = []
        var calls = 0
        for cycle in 1...Self.cycles {
            do {
                let target = TrackedCounter(deaths: deaths)
                chain.add(target)
                if cycle % 1_000 == 0 { sample.append(WeakBox(object: target)) }
                if cycle % 2 == 0 {
                    chain.send(Scroll.didScroll, cycle)
                    calls += target.hits
                }
            }
            chain.send(Scroll.didScroll, cycle)
            if cycle % Self.checkEvery == 0 { Self.expectSmall(chain, cycle: cycle) }
        }
        #expect(calls == Self.cycles / 2)
        Self.expectEnd(chain, deaths: deaths, sample: sample, keeper: keeper, log: log)
    }

    @Test func aMillionStrongTargetsRemovedByTokenCancelLeaveTheChainSmallAndAreReleased() {
        let log = Log()
        let chain = DelegateChain()
        let keeper = Probe("keeper", log: log)
        chain.add(keeper)
        let deaths = DeathCount()
        var sample: [WeakBox] = []
        var calls = 0
        for cycle in 1...Self.cycles {
            let token: DelegateToken
            do {
                let target = Counter(deaths: deaths)
                token = chain.add(target, retention: .strong, responses: Counter.responses)
                if cycle % 1_000 == 0 { sample.append(WeakBox(object: target)) }
            }
            chain.send(Scroll.didScroll, cycle)
            token.cancel()
            if cycle % Self.checkEvery == 0 { Self.expectSmall(chain, cycle: cycle) }
            calls += 1
        }
        #expect(calls == Self.cycles)
        Self.expectEnd(chain, deaths: deaths, sample: sample, keeper: keeper, log: log)
    }

    /// A tracked target outliving many chains: each chain that goes away lets go of the
    /// target's lifetime, which would otherwise keep one entry (and the dead chain's inbox) per
    /// chain for as long as the target lives.
    @Test func aLongLivedTrackedTargetKeepsNothingForChainsThatAreGone() {
        let chains = TestScale.count(100_000)
        let log = Log()
        let tracked = Tracked("t", log: log)
        var received = 0
        tracked.onScroll = { _ in received += 1 }
        for index in 0..<chains {
            let chain = DelegateChain()
            chain.add(tracked)
            if index % 2 == 0 { chain.add(tracked, retention: .strong) } // and back:
            chain.add(tracked)
            chain.send(Scroll.didScroll, index)
        }
        #expect(received == chains)
        #expect(tracked.delegateLifetime.membershipCount == 0)
        let chain = DelegateChain()
        chain.add(tracked)
        #expect(tracked.delegateLifetime.membershipCount == 1)
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: ["t"], log: log)
    }
}
