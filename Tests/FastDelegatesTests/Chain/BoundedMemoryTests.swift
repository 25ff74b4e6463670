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

    /// Runs `cycles` cycles of `cycle` on a chain whose first target, a keeper, stays, each
    /// followed by a send once its target is released when `thenSend`; then checks the common
    /// end: sizes small, every created target dead, the sampled targets (every thousandth) gone,
    /// and the keeper still reached. `cycle` returns its target and how many calls reached it.
    static func expectCyclesLeaveTheChainSmall(
        calls expectedCalls: Int, thenSend: Bool, sourceLocation: SourceLocation = #_sourceLocation,
        _ cycle: (_ chain: DelegateChain, _ deaths: DeathCount, _ cycle: Int) -> (target: AnyObject, calls: Int)
    ) {
        let log = Log()
        let chain = DelegateChain()
        let keeper = Probe("keeper", log: log)
        chain.add(keeper)
        let deaths = DeathCount()
        var sample: [WeakBox] = []
        var calls = 0
        for index in 1...cycles {
            do {
                let (target, reached) = cycle(chain, deaths, index)
                if index % 1_000 == 0 { sample.append(WeakBox(object: target)) }
                calls += reached
            }
            if thenSend { chain.send(Scroll.didScroll, index) }
            if index % checkEvery == 0 { expectSmall(chain, cycle: index, sourceLocation: sourceLocation) }
        }
        #expect(calls == expectedCalls, sourceLocation: sourceLocation)
        expectSmall(chain, cycle: cycles, sourceLocation: sourceLocation)
        #expect(deaths.value == cycles, sourceLocation: sourceLocation)
        #expect(sample.allSatisfy { $0.object == nil }, sourceLocation: sourceLocation)
        #expect(chain.count == 1, sourceLocation: sourceLocation)
        expectChainStillWorks(chain, reaches: [keeper.name], log: log, sourceLocation: sourceLocation)
    }

    /// In the weak tests, half of the targets die after a send reached them: the number of
    /// calls that reached the target, which dies after the cycle.
    static func sendEveryOther(_ chain: DelegateChain, cycle: Int, hits: () -> Int) -> Int {
        guard cycle % 2 == 0 else { return 0 }
        chain.send(Scroll.didScroll, cycle)
        return hits()
    }

    @Test func aMillionWeakTargetsThatDieLeaveTheChainSmall() {
        Self.expectCyclesLeaveTheChainSmall(calls: Self.cycles / 2, thenSend: true) { chain, deaths, cycle in
            let target = Counter(deaths: deaths)
            chain.add(target, responses: Counter.responses)
            return (target, Self.sendEveryOther(chain, cycle: cycle) { target.hits })
        }
    }

    @Test func aMillionWeakPathTargetsThatDieLeaveTheChainSmall() {
        Self.expectCyclesLeaveTheChainSmall(calls: Self.cycles / 2, thenSend: true) { chain, deaths, cycle in
            let target = WeakPathCounter(deaths: deaths)
            chain.add(target)
            return (target, Self.sendEveryOther(chain, cycle: cycle) { target.hits })
        }
    }

    @Test func aMillionStrongTargetsRemovedByTokenCancelLeaveTheChainSmallAndAreReleased() {
        Self.expectCyclesLeaveTheChainSmall(calls: Self.cycles, thenSend: false) { chain, deaths, cycle in
            let target = Counter(deaths: deaths)
            let token = chain.add(target, retention: .strong, responses: Counter.responses)
            chain.send(Scroll.didScroll, cycle)
            token.cancel()
            return (target, 1)
        }
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
