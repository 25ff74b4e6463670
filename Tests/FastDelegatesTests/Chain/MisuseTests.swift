import Testing

@testable import FastDelegates

/// Every misuse of a `DelegateChain` gets a clear, documented answer and corrupts nothing:
/// after each case the C table's invariants hold and a later send reaches exactly the live
/// targets (`expectChainStillWorks`).
@Suite("Misuse: answered clearly, nothing corrupted")
struct MisuseTests {
    // MARK: 1. The same target added twice

    @Test func aTargetAddedTwiceWithOtherRetentionAndResponsesIsOneTargetWithMergedResponses() {
        let log = Log()
        let chain = DelegateChain()
        let first = Probe("first", log: log)
        let plain = Plain("p", log: log)
        chain.add(first)
        chain.add(plain, responses: .scrolls) // weak
        chain.add(plain, retention: .strong) { $0.on(Scroll.willBeginDragging) { me in me.log.record("p.drag") } }
        chain.insert(
            plain, at: 0, retention: .strong,
            responses: Responses().on(Scroll.viewForZooming) { me in
                me.log.record("p.zoom")
                return "p"
            })
        #expect(chain.count == 2)
        #expect(chain.registrationCount == 2)
        #expect(chain.tableStats.liveSlots == 2)
        #expect(chain.retention(of: plain) == .strong)
        #expect(chain.targets.map { ObjectIdentifier($0) } == [ObjectIdentifier(plain), ObjectIdentifier(first)])
        // One entry per message it answers, not one per registration.
        #expect(chain.tableStats.entries == 3 + Probe.responses.count)
        chain.send(Scroll.willBeginDragging)
        #expect(chain.send(Scroll.viewForZooming) == .some("p"))
        #expect(log.events == ["p.drag", "first.willBeginDragging", "p.zoom"])
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: ["p", "first"], log: log)
        // Weak again: the chain lets go of it, and it is one target that dies once.
        weak var weakPlain: Plain?
        do {
            let other = Plain("other", log: log)
            weakPlain = other
            chain.add(other, retention: .strong, responses: .scrolls)
            chain.add(other, retention: .weak, responses: .scrolls)
            chain.add(other, retention: .weak, responses: .scrolls)
        }
        #expect(weakPlain == nil)
        expectChainStillWorks(chain, reaches: ["p", "first"], log: log)
        #expect(chain.registrationCount == 2)
        withExtendedLifetime(first) {} // held weakly: alive only while the test holds it
    }

    @Test func aZeroingTargetAddedTwiceStaysOneTargetThroughEveryHold() {
        let log = Log()
        let chain = DelegateChain()
        let zeroing = Zeroed("t", log: log)
        chain.add(zeroing)
        chain.add(zeroing, retention: .strong)
        #expect(chain.holdForTesting(of: zeroing) == .strong)
        chain.add(zeroing) { $0.on(Scroll.willBeginDragging) { me in me.log.record("t.drag") } }
        #expect(chain.holdForTesting(of: zeroing) == .zeroing)
        #expect(chain.count == 1)
        chain.send(Scroll.willBeginDragging)
        #expect(log.events == ["t.drag"])
        expectChainStillWorks(chain, reaches: ["t"], log: log)
        #expect(chain.registrationCount == 1)
        #expect(chain.tableStats.entries == 3)
        withExtendedLifetime(zeroing) {}
    }

    // MARK: 2. Removing a target that was never added

    @Test func removingATargetThatWasNeverAddedReturnsFalseAndChangesNothing() {
        let log = Log()
        let chain = DelegateChain()
        #expect(!chain.remove(Probe("stranger", log: log))) // an empty chain
        let a = Probe("a", log: log), b = Plain("b", log: log), t = Zeroed("t", log: log)
        chain.add(a)
        chain.add(b, retention: .strong, responses: .scrolls)
        chain.add(t)
        let targets = chain.targets.map { ObjectIdentifier($0) }
        let stats = chain.tableStats
        let registrations = chain.registrationCount
        let strangers: [AnyObject] = [
            Probe("stranger", log: log), Plain("stranger", log: log), Zeroed("stranger", log: log), chain, Log(),
        ]
        for stranger in strangers { #expect(!chain.remove(stranger)) }
        #expect(chain.remove(b))
        #expect(!chain.remove(b)) // removed already
        #expect(chain.targets.map { ObjectIdentifier($0) } == targets.filter { $0 != ObjectIdentifier(b) })
        chain.add(b, retention: .strong, responses: .scrolls)
        #expect(chain.targets.count == targets.count)
        #expect(chain.tableStats.liveSlots == stats.liveSlots)
        #expect(chain.tableStats.entries == stats.entries)
        #expect(chain.tableStats.messages == stats.messages)
        #expect(chain.registrationCount == registrations)
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: ["a", "t", "b"], log: log)
        withExtendedLifetime((a, t)) {}
    }

    // MARK: 3. Cancelling a token twice, after its target went another way, after the chain is gone
    // (cancel twice and after the chain is gone for weak targets: DelegateChainMembershipTests)

    @Test func aStaleTokenNeverRemovesAnotherTargetEvenAfterItsSlotWasReusedAndCompacted() {
        let log = Log()
        let chain = DelegateChain()
        let keeper = Probe("keeper", log: log)
        chain.add(keeper)
        var tokens: [DelegateToken] = []
        do {
            let doomed = (0..<100).map { Probe("doomed\($0)", log: log) }
            for probe in doomed { tokens.append(chain.add(probe)) }
        }
        chain.send(Scroll.willBeginDragging) // finds them dead
        #expect(chain.count == 1)
        let later = (0..<100).map { Probe("later\($0)", log: log) }
        for probe in later { chain.add(probe) } // a sweep frees the dead ones' slots: reused, compacted
        #expect(chain.registrationCount == 101)
        #expect(chain.tableStats.liveSlots == 101)
        let strong = Zeroed("strong", log: log), zeroing = Zeroed("zeroing", log: log)
        let strongToken = chain.add(strong, retention: .strong)
        let zeroingToken = chain.add(zeroing)
        for token in tokens { token.cancel() }
        for token in tokens { token.cancel() }
        #expect(chain.count == 103)
        strongToken.cancel()
        strongToken.cancel()
        zeroingToken.cancel()
        zeroingToken.cancel()
        #expect(chain.count == 101)
        chain.removeAll()
        strongToken.cancel() // after removeAll
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: [], log: log)
        chain.add(strong, retention: .strong) // a new registration: the old token does not remove it
        strongToken.cancel()
        #expect(chain.contains(strong))
        expectChainStillWorks(chain, reaches: ["strong"], log: log)
        withExtendedLifetime((keeper, later, zeroing)) {}
    }

    @Test func aTokenCancelledTwiceInsideItsOwnHandlerRemovesOnlyItsTarget() {
        let log = Log()
        let chain = DelegateChain()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        var token: DelegateToken?
        a.onScroll = { _, _ in
            token?.cancel()
            token?.cancel()
        }
        token = chain.add(a, retention: .strong)
        chain.add(b)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)", "b.didScroll(1)"])
        expectChainStillWorks(chain, reaches: ["b"], log: log)
        withExtendedLifetime(b) {}
    }

    @Test func tokensOfStrongAndZeroingTargetsCancelSafelyAfterTheChainIsGone() {
        let log = Log()
        weak var weakStrong: Probe?
        weak var weakChain: DelegateChain?
        var tokens: [DelegateToken] = []
        let zeroing = Zeroed("t", log: log)
        do {
            let chain = DelegateChain()
            weakChain = chain
            let strong = Probe("s", log: log)
            weakStrong = strong
            tokens.append(chain.add(strong, retention: .strong))
            tokens.append(chain.add(zeroing))
            chain.send(Scroll.didScroll, 1)
        }
        #expect(weakChain == nil)
        #expect(weakStrong == nil) // released with the chain
        for token in tokens + tokens { token.cancel() }
        // The zeroing target's lifetime no longer reports to the freed chain.
        let chain = DelegateChain()
        chain.add(zeroing)
        expectChainStillWorks(chain, reaches: ["t"], log: log)
        withExtendedLifetime(zeroing) {}
    }

    // MARK: 4. The chain added as a target of itself

    @Test func aChainAddedToItselfIsIgnoredAndCannotRecurseIntoItself() {
        let log = Log()
        let chain = DelegateChain()
        let a = Probe("a", log: log)
        chain.add(a)
        let forward = Responses<DelegateChain>().on(Scroll.didScroll) { me, offset in me.send(Scroll.didScroll, offset)
        }
        let tokens = [
            chain.add(chain, responses: forward),
            chain.add(chain, retention: .strong, responses: forward),
            chain.add(chain) { $0.on(Scroll.willBeginDragging) { me in me.send(Scroll.willBeginDragging) } },
            chain.insert(chain, at: 0, retention: .strong, responses: forward),
        ]
        #expect(!chain.contains(chain))
        #expect(chain.retention(of: chain) == nil)
        #expect(chain.count == 1)
        #expect(chain.registrationCount == 1)
        #expect(!chain.remove(chain))
        chain.send(Scroll.willBeginDragging)
        #expect(log.events == ["a.willBeginDragging"])
        for token in tokens { token.cancel() } // does nothing
        #expect(chain.contains(a))
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: ["a"], log: log)
        withExtendedLifetime(a) {}
    }

    @Test func aChainAddedToItselfStronglyIsStillFreedWhenItsOwnersLetGo() {
        weak var weakChain: DelegateChain?
        do {
            let chain = DelegateChain()
            weakChain = chain
            chain.add(chain, retention: .strong) { $0.on(Scroll.willBeginDragging) { _ in } }
        }
        #expect(weakChain == nil)
    }

    @Test func aChainMayBeATargetOfAnotherChain() {
        let log = Log()
        let outer = DelegateChain(), inner = DelegateChain()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        inner.add(b)
        outer.add(a)
        outer.add(inner, retention: .strong) {
            $0.on(Scroll.didScroll) { me, offset in me.send(Scroll.didScroll, offset) }
        }
        #expect(outer.contains(inner))
        outer.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)", "b.didScroll(1)"])
        log.events.removeAll()
        expectChainStillWorks(outer, reaches: ["a", "b"], log: log)
        #expect(inner.invariantViolation == 0)
        withExtendedLifetime((a, b)) {}
    }

    // MARK: 5. A send from a target's deinit

    @Test func aSendFromAWeakTargetsDeinitSkipsItAndReachesTheOthers() {
        let log = Log()
        let chain = DelegateChain()
        let before = Mortal("before", log: log), after = Mortal("after", log: log)
        chain.add(before, responses: Mortal.responses)
        do {
            let dying = Mortal("dying", log: log)
            dying.onDeinit = { chain.send(Scroll.didScroll, 9) }
            chain.add(dying, responses: Mortal.responses)
        }
        chain.add(after, responses: Mortal.responses)
        #expect(log.events == ["dying.deinit", "before.didScroll(9)"])
        #expect(chain.registrationCount == 2) // the send reclaimed the dying target's slot
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: ["before", "after"], log: log)
        withExtendedLifetime((before, after)) {}
    }

    @Test(arguments: [false, true])
    func aSendFromTheDeinitOfATargetKilledMidDispatchSkipsIt(zeroing: Bool) {
        let log = Log()
        let chain = DelegateChain()
        let killer = Mortal("killer", log: log), last = Mortal("last", log: log)
        var victim: AnyObject?
        if zeroing {
            let target = Zeroed("victim", log: log)
            target.onDeinit = { chain.send(Scroll.didScroll, 9) }
            victim = target
            chain.add(killer, responses: Mortal.responses)
            chain.add(target)
        } else {
            let target = Mortal("victim", log: log)
            target.onDeinit = { chain.send(Scroll.didScroll, 9) }
            victim = target
            chain.add(killer, responses: Mortal.responses)
            chain.add(target, responses: Mortal.responses)
        }
        chain.add(last, responses: Mortal.responses)
        killer.onScroll = { _, offset in if offset == 1 { victim = nil } }
        chain.send(Scroll.didScroll, 1)
        #expect(victim == nil)
        #expect(
            log.events == [
                "killer.didScroll(1)", "victim.deinit", "killer.didScroll(9)", "last.didScroll(9)", "last.didScroll(1)",
            ])
        #expect(chain.registrationCount == 2)
        log.events.removeAll()
        expectChainStillWorks(chain, reaches: ["killer", "last"], log: log)
        withExtendedLifetime((killer, last)) {}
    }

    /// A strong target dies when it is removed; its deinit runs once the chain is consistent,
    /// so it may send (even a send that itself reclaims a dead target) and add a target.
    @Test(arguments: ["remove", "cancel", "removeAll", "removeFromHandler", "retentionToWeak"])
    func aStrongTargetsDeinitRunByItsRemovalMayUseTheChain(path: String) {
        let log = Log()
        let chain = DelegateChain()
        let first = Mortal("first", log: log)
        let late = Mortal("late", log: log)
        chain.add(first, responses: Mortal.responses)
        var token: DelegateToken?
        weak var weakDoomed: Mortal?
        do {
            let doomed = Mortal("doomed", log: log)
            weakDoomed = doomed
            doomed.onDeinit = {
                // A dead weak target for this send to find, so that it cleans up on its way out.
                do { chain.add(Mortal("ghost", log: Log()), responses: Mortal.responses) }
                chain.send(Scroll.didScroll, 9)
                chain.add(late, responses: Mortal.responses)
            }
            token = chain.add(doomed, retention: .strong, responses: Mortal.responses)
        }
        log.events.removeAll()
        var expected = ["doomed.deinit", "first.didScroll(9)"]
        var reached = ["first", "late"]
        switch path {
        case "remove": #expect(chain.remove(weakDoomed!))
        case "cancel": token?.cancel()
        case "removeAll":
            chain.removeAll()
            expected = ["doomed.deinit"] // `first` went too
            reached = ["late"]
        case "removeFromHandler":
            first.onScroll = { _, offset in if offset == 1 { token?.cancel() } }
            chain.send(Scroll.didScroll, 1)
            first.onScroll = nil
            expected.insert("first.didScroll(1)", at: 0)
        default: chain.add(weakDoomed!, retention: .weak, responses: Mortal.responses)
        }
        #expect(weakDoomed == nil)
        #expect(log.events == expected)
        #expect(chain.contains(late))
        expectChainStillWorks(chain, reaches: reached, log: log)
        #expect(chain.registrationCount == reached.count)
        withExtendedLifetime((first, late)) {}
    }

    // MARK: 6. A handler that sends the same message recursively, 10,000 deep

    /// Debug frames are large: 10,000 nested sends need more than a default thread stack, so
    /// the send runs on a thread with a 512 MiB stack (address space, touched only as used);
    /// the test waits for it and checks the results on its own thread.
    ///
    /// Under the sanitizers the depth is 2,000: ThreadSanitizer keeps a fixed shadow call stack
    /// (64 Ki frames) and 10,000 nested sends, about ten instrumented frames each, overflow it
    /// and crash its runtime (seen here, intermittently, as a SEGV inside TSan).
    @Test func aHandlerSendingTheSameMessage10000DeepLeavesTheTableConsistentAndCountsExact() {
        let depth = TestScale.underSanitizer ? 2_000 : 10_000
        let log = Log()
        let chain = DelegateChain()
        let recurser = Recurser(chain: chain)
        let b = Plain("b", log: log)
        let c = Counter(), d = Counter()
        let zeroing = WeakPathCounter(deaths: DeathCount())
        recurser.depth = depth
        recurser.toRemove = c
        recurser.toAdd = d
        chain.add(recurser, responses: Recurser.responses)
        chain.add(b, responses: .scrolls)
        chain.add(c, retention: .strong, responses: Counter.responses)
        chain.add(zeroing)
        runOnThread(stackSize: 512 << 20) { chain.send(Scroll.didScroll, depth) }
        #expect(recurser.depthAtBottom == UInt32(depth + 1))
        // Each level reaches b after the deeper levels have: 0, 1, ..., depth.
        #expect(log.events == (0...depth).map { "b.didScroll(\($0))" })
        #expect(c.hits == depth / 2) // removed at level depth/2: skipped there and above
        #expect(zeroing.hits == depth + 1)
        #expect(d.hits == 0) // added during the dispatches: from the next one on
        #expect(chain.table.chain.pointee.depth == 0)
        #expect(chain.registrationCount == 4)
        #expect(chain.tableStats.entries == 4)
        #expect(chain.invariantViolation == 0)
        recurser.depth = -1
        chain.send(Scroll.didScroll, 0)
        #expect(d.hits == 1)
        #expect(c.hits == depth / 2)
        #expect(zeroing.hits == depth + 2)
        expectChainStillWorks(chain, reaches: ["b"], log: log)
        withExtendedLifetime((recurser, b)) {}
    }

    // MARK: 7. An empty message name (rejected: MessageTests.anEmptyNameIsRejected)

    @Test func namesThatDifferOnlyAfterAnEmbeddedNULAreDistinctMessages() {
        let a = Message<Int, Void>("misuse.nul\u{0}a"), b = Message<Int, Void>("misuse.nul\u{0}b")
        let prefix = Message<Int, Void>("misuse.nul")
        #expect(a != b)
        #expect(a != prefix)
        #expect(a.name == "misuse.nul\u{0}a")
        let log = Log()
        let chain = DelegateChain()
        let plain = Plain("p", log: log)
        chain.add(plain) { $0.on(a) { me, _ in me.log.record("a") }.on(b) { me, _ in me.log.record("b") } }
        chain.send(b, 0)
        chain.send(prefix, 0)
        #expect(log.events == ["b"])
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime(plain) {}
    }

    // MARK: 8. 1,000,000 targets on one chain

    /// Adding, one send and removing are linear: the first quarter leaves by `remove` in
    /// registration order, the second by token cancel, the last by `remove` in reverse order
    /// and the third by `removeAll`. Half of the targets are held strongly.
    @Test func aMillionTargetsAreAddedReachedByOneSendAndRemovedInLinearTime() {
        let n = TestScale.count(1_000_000)
        let quarter = n / 4
        let start = monotonicSeconds()
        let chain = DelegateChain()
        let deaths = DeathCount()
        var counters = (0..<n).map { _ in Counter(deaths: deaths) }
        var tokens: [DelegateToken] = []
        tokens.reserveCapacity(quarter)
        for (index, counter) in counters.enumerated() {
            let token = chain.add(counter, retention: index % 2 == 0 ? .weak : .strong, responses: Counter.responses)
            if index >= quarter, index < 2 * quarter { tokens.append(token) }
        }
        #expect(chain.count == n)
        #expect(chain.tableStats.entries == n)
        chain.send(Scroll.didScroll, 1)
        #expect(counters.allSatisfy { $0.hits == 1 })
        #expect(chain.invariantViolation == 0)
        var failures = 0
        for counter in counters[..<quarter] where !chain.remove(counter) { failures += 1 }
        for token in tokens { token.cancel() }
        for counter in counters[(3 * quarter)...].reversed() where !chain.remove(counter) { failures += 1 }
        #expect(failures == 0)
        #expect(chain.count == quarter)
        #expect(chain.invariantViolation == 0)
        chain.removeAll()
        #expect(chain.count == 0)
        #expect(chain.tableStats.entries == 0)
        #expect(chain.tableStats.liveSlots == 0)
        #expect(chain.tableStats.slotCapacity <= 64)
        #expect(chain.registrationListCount <= 32)
        #expect(chain.invariantViolation == 0)
        counters.removeAll()
        #expect(deaths.value == n) // the strong half was released
        let log = Log()
        let probe = Probe("probe", log: log)
        chain.add(probe)
        expectChainStillWorks(chain, reaches: ["probe"], log: log)
        withExtendedLifetime(probe) {}
        let seconds = monotonicSeconds() - start
        #expect(seconds < 60, "took \(seconds) s")
    }

    /// Each target that dies and is found dead by a send is reclaimed in O(1) amortized: no
    /// send walks over the live targets to reclaim one dead one (that cost ~40 ms per death
    /// here at 100,000 live targets in debug, minutes for this test).
    @Test func targetsDyingBesideAHundredThousandLiveOnesCostNoWalkOverThem() {
        let live = TestScale.count(100_000)
        let chain = DelegateChain()
        let counters = (0..<live).map { _ in Counter() }
        for counter in counters { chain.add(counter, responses: Counter.responses) }
        let rare = Responses<Counter>().on(Scroll.willBeginDragging) { me in me.hits += 1 }
        let start = monotonicSeconds()
        for _ in 0..<5_000 {
            do { chain.add(Counter(), responses: rare) } // dies at once
            chain.send(Scroll.willBeginDragging) // finds it dead
        }
        let seconds = monotonicSeconds() - start
        #expect(seconds < 10, "took \(seconds) s")
        #expect(chain.registrationListCount <= live + live / 8 + 32)
        #expect(chain.count == live)
        #expect(chain.invariantViolation == 0)
        chain.send(Scroll.didScroll, 1)
        #expect(counters.allSatisfy { $0.hits == 1 })
        #expect(chain.invariantViolation == 0)
    }

    // MARK: 9. 100,000 distinct messages on one chain

    @Test func aHundredThousandMessagesOnOneChainAreEachAnsweredThenRemoved() {
        let n = TestScale.count(100_000)
        let messages = (0..<n).map { Message<Int, Int>("misuse.many\($0):") }
        var all = Responses<Counter>()
        for message in messages {
            all = (consume all).on(message) { me, value in
                me.hits += 1
                return value
            }
        }
        var evens = Responses<Counter>()
        for message in messages.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            evens = (consume evens).on(message) { _, value in -value }
        }
        #expect(all.count == n)
        let chain = DelegateChain()
        let first = Counter(), second = Counter()
        chain.add(first, responses: evens) // answers the even ones first
        chain.add(second, responses: all)
        #expect(chain.tableStats.messages == n)
        #expect(chain.tableStats.entries == n + (n + 1) / 2)
        #expect(chain.invariantViolation == 0)
        var wrong = 0
        for (index, message) in messages.enumerated()
        where chain.send(message, index) != (index % 2 == 0 ? -index : index) {
            wrong += 1
        }
        #expect(wrong == 0)
        #expect(second.hits == n / 2)
        #expect(chain.invariantViolation == 0)
        #expect(chain.remove(first))
        #expect(chain.tableStats.messages == n)
        #expect(chain.send(messages[0], 5) == 5)
        #expect(chain.remove(second))
        #expect(chain.tableStats.messages == 0)
        #expect(chain.tableStats.entries == 0)
        #expect(chain.table.stats.bucket_capacity <= 64)
        #expect(chain.send(messages[1], 1) == nil)
        let log = Log()
        let probe = Probe("probe", log: log)
        chain.add(probe)
        expectChainStillWorks(chain, reaches: ["probe"], log: log)
        withExtendedLifetime(probe) {}
    }
}

/// A target whose handler sends the message it handles into its chain again, `n - 1` deep.
final class Recurser {
    weak var chain: DelegateChain?
    var depth = 0
    var toRemove: AnyObject?
    var toAdd: Counter?
    var depthAtBottom: UInt32 = 0

    init(chain: DelegateChain) { self.chain = chain }

    static let responses = SendableResponses<Recurser>().on(Scroll.didScroll) { me, n in
        guard me.depth >= 0, let chain = me.chain else { return }
        if n > 0 { chain.send(Scroll.didScroll, n - 1) }
        if n == 0 { me.depthAtBottom = chain.table.chain.pointee.depth }
        if n == me.depth / 2, let toRemove = me.toRemove, let toAdd = me.toAdd {
            // After the deeper levels ran: remove one target (at once, in every running
            // dispatch) and add another (from the next dispatch on).
            chain.remove(toRemove)
            chain.add(toAdd, responses: Counter.responses)
        }
    }
}
