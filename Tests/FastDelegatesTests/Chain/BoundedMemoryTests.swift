import CDispatchTable
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
                let target = WeakPathCounter(deaths: deaths)
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

    /// A target outliving many chains: each chain that goes away gives back its reference to
    /// the target (the zeroing hold's unowned reference), which would otherwise keep the target's
    /// memory after its death, once per chain.
    @Test func aLongLivedTargetKeepsNothingForChainsThatAreGone() {
        let chains = TestScale.count(100_000)
        let log = Log()
        let target = Zeroed("t", log: log)
        let pointer = Unmanaged.passUnretained(target).toOpaque()
        let baseline = cdt_swift_unowned_count(pointer)
        var received = 0
        target.onScroll = { _ in received += 1 }
        for index in 0..<chains {
            let chain = DelegateChain()
            chain.add(target)
            if index % 2 == 0 { chain.add(target, retention: .strong) } // and back:
            chain.add(target)
            #expect(cdt_swift_unowned_count(pointer) == baseline + 1)
            chain.send(Scroll.didScroll, index)
        }
        #expect(received == chains)
        #expect(cdt_swift_unowned_count(pointer) == baseline)
        let chain = DelegateChain()
        chain.add(target)
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: ["t"], log: log)
    }

    /// Issue 13 item 2: a million targets added and let die with no send in between. The chain
    /// never learns of a death from a call, yet the dead allocations it holds stay below a small
    /// constant, and it gives every one back when it goes.
    @Test(arguments: [false, true])
    func aMillionTargetsThatDieWithoutAnySendLeaveFewDeadAllocations(weakPath: Bool) {
        let log = Log()
        var chain: DelegateChain? = DelegateChain()
        let keeper = Probe("keeper", log: log)
        chain!.add(keeper)
        let deaths = DeathCount()
        var mostHeld = 0
        var sampled: [UnsafeMutableRawPointer] = []
        for cycle in 1...Self.cycles {
            let target: AnyObject = weakPath ? WeakPathCounter(deaths: deaths) : Counter(deaths: deaths)
            if weakPath {
                chain!.add(target as! WeakPathCounter)
            } else {
                chain!.add(target as! Counter, responses: Counter.responses)
            }
            if !weakPath, cycle % 10_000 == 0 {
                let pointer = Unmanaged.passUnretained(target).toOpaque()
                cdt_swift_unowned_retain(pointer) // the test's own, to read the count after the death
                sampled.append(pointer)
            }
            if cycle % 1_000 == 0 {
                mostHeld = max(mostHeld, chain!.registrationListCount - 1)
                if cycle % Self.checkEvery == 0 { Self.expectSmall(chain!, cycle: cycle) }
            }
        }
        #expect(deaths.value == Self.cycles)
        #expect(mostHeld <= 16)
        #expect(chain!.deadAllocationsHeld <= 16)
        #expect(chain!.count == 1)
        // The last sampled target may still be held; every earlier one was given back by a sweep.
        #expect(sampled.dropLast().allSatisfy { cdt_swift_unowned_count($0) == 1 })
        chain = nil
        #expect(sampled.allSatisfy { cdt_swift_unowned_count($0) == 1 })
        for pointer in sampled { cdt_swift_unowned_release(pointer) }
        withExtendedLifetime(keeper) {}
    }
}
