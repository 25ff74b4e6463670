import Testing

@testable import FastDelegates

/// Mutation from inside handlers: what both chains promise, checked once on every chain.
@Suite("Every chain: mutation during dispatch")
struct ChainReentrancyTests {
    @Test(arguments: ChainKind.allCases)
    func aRemovalTakesEffectAtOnceEvenInTheRunningDispatch(kind: ChainKind) {
        let (chain, log, probes) = kind.make(probes: "a", "b", "c")
        probes[0].onScroll = { [b = probes[1]] _, _ in chain.remove(b) }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)", "c.didScroll(1)"])
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime(probes) {}
    }

    @Test(arguments: ChainKind.allCases)
    func aCancelTakesEffectAtOnceEvenInTheRunningDispatch(kind: ChainKind) {
        let (chain, log, a) = kind.make(probe: "a")
        let b = Probe("b", log: log)
        let token = chain.add(b)
        a.onScroll = { _, _ in token.cancel() }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)"])
        withExtendedLifetime((a, b)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func anAdditionTakesEffectFromTheNextDispatch(kind: ChainKind) {
        let (chain, log, a) = kind.make(probe: "a")
        let late = Probe("late", log: log)
        a.onScroll = { _, _ in chain.add(late) }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["a.didScroll(1)", "a.didScroll(2)", "late.didScroll(2)"])
        withExtendedLifetime((a, late)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func aHandlerMayRemoveItselfEvenWhenOnlyTheChainKeepsItAlive(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
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
        #expect(weakSelfRemover == nil) // released once the dispatch was over
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime(after) {}
    }

    @Test(arguments: ChainKind.allCases)
    func handlersMaySendTheSameMessageRecursivelyOtherMessagesAndInspectTheChain(kind: ChainKind) {
        let (chain, log, probes) = kind.make(probes: "a", "b")
        probes[0].onScroll = { me, offset in
            if offset > 0 { chain.send(Scroll.didScroll, offset - 1) }
            me.log.record("count \(chain.count)")
            chain.send(Scroll.willBeginDragging)
        }
        chain.send(Scroll.didScroll, 1)
        #expect(
            log.events == [
                "a.didScroll(1)",
                "a.didScroll(0)", "count 2", "a.willBeginDragging", "b.willBeginDragging", "b.didScroll(0)",
                "count 2", "a.willBeginDragging", "b.willBeginDragging", "b.didScroll(1)",
            ])
        withExtendedLifetime(probes) {}
    }

    @Test(arguments: ChainKind.allCases, [Retention.weak, .strong])
    func manyAdditionsInsideAHandlerLeaveTheRunningDispatchIntact(kind: ChainKind, retention: Retention) {
        // Enough targets to grow the chain's storage (the C slot array moves) while the first
        // handler runs: the dispatch still reaches the targets after it, and skips one removed.
        let log = Log()
        let chain = kind.make()
        let probes = ["a", "b", "c", "d"].map { Probe($0, log: log) }
        for probe in probes { chain.add(probe, retention: retention) }
        let late = (0..<100).map { Probe("late\($0)", log: Log()) }
        probes[0].onScroll = { [c = probes[2]] me, _ in
            me.onScroll = nil
            for probe in late { chain.add(probe, retention: retention) }
            chain.remove(c)
        }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)", "b.didScroll(1)", "d.didScroll(1)"])
        chain.send(Scroll.didScroll, 2)
        #expect(log.events.suffix(3) == ["a.didScroll(2)", "b.didScroll(2)", "d.didScroll(2)"])
        #expect(late.allSatisfy { $0.log.events == ["\($0.name).didScroll(2)"] })
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime((probes, late)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func removeAllAndReAddDuringADispatch(kind: ChainKind) {
        let (chain, log, probes) = kind.make(probes: "a", "b")
        let c = Probe("c", log: log)
        probes[0].onScroll = { [b = probes[1]] me, _ in
            me.onScroll = nil
            chain.removeAll()
            chain.add(c)
            chain.add(b)
        }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["a.didScroll(1)", "c.didScroll(2)", "b.didScroll(2)"])
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime((probes, c)) {}
    }

    @Test(arguments: ChainKind.allCases)
    func replacingAHandlerDuringItsOwnCallIsSafe(kind: ChainKind) {
        let log = Log()
        let plain = Plain("p", log: log)
        let chain = kind.make()
        let hook = Hook { (me: Plain) in
            chain.add(me) { $0.on(Scroll.didScroll) { me, offset in me.log.record("new \(offset)") } }
        }
        chain.add(plain) {
            $0.on(Scroll.didScroll) { me, offset in
                me.log.record("old \(offset)")
                hook.run(me)
            }
        }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["old 1", "new 2"])
        withExtendedLifetime(plain) {}
    }

    @Test(arguments: ChainKind.allCases)
    func aTargetDyingInsideAnotherTargetsHandlerIsSkipped(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        let killer = Probe("killer", log: log)
        var victim: Probe? = Probe("victim", log: log)
        chain.add(killer)
        chain.add(victim!)
        killer.onScroll = { _, _ in victim = nil }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["killer.didScroll(1)"])
        #expect(victim == nil)
        #expect(chain.count == 1)
        if !kind.isConcurrent { #expect(chain.registrationCount == 1) }
        withExtendedLifetime(killer) {}
    }

    /// A strong target whose deinit uses the chain: its last release must not happen while the
    /// chain is in the middle of a mutation (under its mutex, for the concurrent chain).
    @Test(arguments: ChainKind.allCases)
    func aTargetsDeinitMayUseTheChain(kind: ChainKind) {
        final class Leaver: @unchecked Sendable {
            // Sound: the test uses the chain from its own thread only; the deinit runs there too
            // (the chain releases a strong target on the thread that removes it).
            let chain: any ChainUnderTest
            init(chain: any ChainUnderTest) { self.chain = chain }
            deinit { chain.remove(self) }
        }
        let chain = kind.make()
        chain.add(Leaver(chain: chain), retention: .strong, responses: SendableResponses<Leaver>())
        chain.removeAll()
        #expect(chain.count == 0)
        let leaver = Leaver(chain: chain)
        chain.add(leaver, retention: .strong, responses: SendableResponses<Leaver>())
        chain.add(leaver, retention: .weak, responses: SendableResponses<Leaver>())
        #expect(chain.count == 1)
    }

    @Test(arguments: ChainKind.allCases)
    func aDeadTargetsAddressReusedByANewTargetIsANewRegistration(kind: ChainKind) {
        let log = Log()
        let chain = kind.make()
        for round in 0..<50 {
            let probe = Probe("p\(round)", log: log)
            chain.add(
                probe, responses: SendableResponses<Probe>().on(Scroll.didScroll) { me, _ in me.log.record(me.name) })
            chain.send(Scroll.didScroll, 0)
            #expect(chain.count == 1)
            withExtendedLifetime(probe) {}
        }
        #expect(log.events == (0..<50).map { "p\($0)" })
    }
}

/// Lets a `@Sendable` handler run a closure of the test's (single-threaded) body.
private final class Hook<Argument>: @unchecked Sendable {
    // Sound: only these single-threaded tests use it, from the thread that sends.
    let body: (Argument) -> Void
    init(_ body: @escaping (Argument) -> Any) { self.body = { _ = body($0) } }
    func run(_ argument: Argument) { body(argument) }
}
