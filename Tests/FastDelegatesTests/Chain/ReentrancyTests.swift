import Testing

@testable import FastDelegates

@Suite("Mutation during dispatch")
struct ReentrancyTests {
    @Test(arguments: [false, true])
    func aRemovalTakesEffectAtOnceEvenInTheRunningDispatch(forcedCollisions: Bool) {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        for probe in [a, b, c] { chain.add(probe) }
        a.onScroll = { _, _ in chain.remove(b) }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)", "c.didScroll(1)"])
        #expect(chain.invariantViolation == 0)
    }

    @Test(arguments: [false, true])
    func anAdditionTakesEffectFromTheNextDispatch(forcedCollisions: Bool) {
        let log = Log()
        let a = Probe("a", log: log), late = Probe("late", log: log)
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        chain.add(a)
        a.onScroll = { _, _ in chain.add(late) }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["a.didScroll(1)", "a.didScroll(2)", "late.didScroll(2)"])
    }

    @Test func aHandlerMayRemoveItselfEvenWhenOnlyTheChainKeepsItAlive() {
        let log = Log()
        let chain = DelegateChain()
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
    }

    @Test func handlersMaySendOtherMessagesAndTheSameOneRecursively() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = DelegateChain()
        chain.add(a)
        chain.add(b)
        a.onScroll = { _, offset in
            if offset > 0 { chain.send(Scroll.didScroll, offset - 1) }
            chain.send(Scroll.willBeginDragging)
        }
        chain.send(Scroll.didScroll, 1)
        #expect(
            log.events == [
                "a.didScroll(1)",
                "a.didScroll(0)", "a.willBeginDragging", "b.willBeginDragging", "b.didScroll(0)",
                "a.willBeginDragging", "b.willBeginDragging", "b.didScroll(1)",
            ])
    }

    @Test func removeAllAndReAddDuringADispatch() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        let chain = DelegateChain()
        chain.add(a)
        chain.add(b)
        a.onScroll = { me, _ in
            me.onScroll = nil
            chain.removeAll()
            chain.add(c)
            chain.add(b)
        }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["a.didScroll(1)", "c.didScroll(2)", "b.didScroll(2)"])
        #expect(chain.invariantViolation == 0)
    }

    @Test func replacingAHandlerDuringItsOwnCallIsSafe() {
        let log = Log()
        let plain = Plain("p", log: log)
        let chain = DelegateChain()
        plain.chain = chain
        chain.add(plain) {
            $0.on(Scroll.didScroll) { me, offset in
                me.log.record("old \(offset)")
                me.chain?.add(me) { $0.on(Scroll.didScroll) { me, offset in me.log.record("new \(offset)") } }
            }
        }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["old 1", "new 2"])
    }

    @Test func aTargetDyingInsideAnotherTargetsHandlerIsSkipped() {
        let log = Log()
        let chain = DelegateChain()
        let killer = Probe("killer", log: log)
        var victim: Probe? = Probe("victim", log: log)
        chain.add(killer)
        chain.add(victim!)
        killer.onScroll = { _, _ in victim = nil }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["killer.didScroll(1)"])
        #expect(victim == nil)
        #expect(chain.registrationCount == 1)
    }
}
