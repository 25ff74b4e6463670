import Testing

@testable import FastDelegates

/// PHFDelegateChain and HTDelegateProxy semantics, each run on the seeded hash and on a table
/// that puts every message into one bucket.
@Suite("Dispatch semantics")
struct DelegateChainDispatchTests {
    @Test(arguments: [false, true])
    func voidMessageReachesEveryResponderInOrder(forcedCollisions: Bool) {
        let log = Log()
        let a = Probe("a", log: log), b = Plain("b", log: log), c = Probe("c", log: log)
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        chain.add(a)
        chain.add(b) { $0.on(Scroll.willBeginDragging) { me in me.log.record("b.willBeginDragging") } }
        chain.add(c)
        chain.send(Scroll.didScroll, 5)
        chain.send(Scroll.willBeginDragging)
        #expect(
            log.events == [
                "a.didScroll(5)", "c.didScroll(5)",
                "a.willBeginDragging", "b.willBeginDragging", "c.willBeginDragging",
            ])
    }

    @Test(arguments: [false, true])
    func breakingModeStopsAtTheFirstResponder(forcedCollisions: Bool) {
        let log = Log()
        let silent = Plain("silent", log: log), a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = DelegateChain(mode: .breaking, forcedCollisions: forcedCollisions)
        chain.add(silent) { $0 }
        chain.add(a)
        chain.add(b)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)"])
        chain.remove(a)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["a.didScroll(1)", "b.didScroll(2)"])
    }

    @Test(arguments: [false, true])
    func nonVoidMessageReturnsTheFirstRespondersAnswerOnly(forcedCollisions: Bool) {
        let log = Log()
        let silent = Plain("silent", log: log), a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        chain.add(silent, responses: .scrolls)
        chain.add(a)
        chain.add(b)
        #expect(chain.send(Scroll.viewForZooming) == .some("view of a"))
        #expect(log.events == ["a.viewForZooming"])
        #expect(chain.send(Scroll.heightForHeader, 3) == 103)
    }

    @Test func nonVoidMessageWithNoResponderIsNilOrTheDefaultNeverATrap() {
        let log = Log()
        let chain = DelegateChain()
        #expect(chain.send(Scroll.heightForHeader, 1) == nil)
        #expect(chain.send(Scroll.heightForHeader, 1, default: 0) == 0)
        chain.add(Plain("p", log: log), retention: .strong, responses: .scrolls)
        #expect(chain.send(Scroll.heightForHeader, 1) == nil)
        #expect(chain.send(Scroll.shouldScrollToTop, (), default: true))
        // An optional answer: the outer optional says whether anyone answered.
        let nobody: String?? = chain.send(Scroll.viewForZooming)
        #expect(nobody == .none)
    }

    @Test(arguments: [false, true])
    func respondsIsTrueIffSomeLiveTargetAnswers(forcedCollisions: Bool) {
        let log = Log()
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        #expect(!chain.responds(to: Scroll.didScroll))
        let plain = Plain("p", log: log)
        chain.add(plain, responses: .scrolls)
        #expect(chain.responds(to: Scroll.didScroll))
        #expect(!chain.responds(to: Scroll.viewForZooming))
        do {
            let probe = Probe("late", log: log)
            chain.add(probe)
            #expect(chain.responds(to: Scroll.viewForZooming))
        }
        #expect(!chain.responds(to: Scroll.viewForZooming)) // its only responder died
        chain.remove(plain)
        #expect(!chain.responds(to: Scroll.didScroll))
    }

    @Test(arguments: [false, true])
    func aTargetDyingBetweenTwoSendsIsSkippedAndItsSlotReclaimed(forcedCollisions: Bool) {
        let log = Log()
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        let survivor = Probe("survivor", log: log)
        weak var weakDoomed: Probe?
        do {
            let doomed = Probe("doomed", log: log)
            weakDoomed = doomed
            chain.add(doomed)
            chain.add(survivor)
            chain.send(Scroll.didScroll, 1)
        }
        #expect(weakDoomed == nil) // the chain held it weakly
        #expect(chain.tableStats.liveSlots == 2) // not yet found dead
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["doomed.didScroll(1)", "survivor.didScroll(1)", "survivor.didScroll(2)"])
        #expect(chain.tableStats.liveSlots == 1)
        #expect(chain.registrationCount == 1)
        #expect(chain.invariantViolation == 0)
    }

    @Test func htDelegateProxyScenarioWithAFixedSetOfDelegates() {
        // HTDelegateProxy: built once from an array; void to all responders, non-void to the first.
        let log = Log()
        let delegates = [Probe("first", log: log), Probe("second", log: log)]
        let proxy = DelegateChain()
        for delegate in delegates { proxy.add(delegate) }
        proxy.send(Scroll.willBeginDragging)
        let answer = proxy.send(Scroll.viewForZooming)
        #expect(answer == .some("view of first"))
        #expect(log.events == ["first.willBeginDragging", "second.willBeginDragging", "first.viewForZooming"])
        withExtendedLifetime(delegates) {} // held weakly: alive only while the test holds them
    }

    @Test func handlersGetTheirTargetTypedWithoutCapturingIt() {
        final class Counter {
            var total = 0
        }
        let counter = Counter()
        weak var weakCounter: Counter?
        let chain = DelegateChain()
        chain.add(counter) { $0.on(Scroll.didScroll) { me, offset in me.total += offset } }
        for offset in 1...10 { chain.send(Scroll.didScroll, offset) }
        #expect(counter.total == 55)
        do {
            let other = Counter()
            weakCounter = other
            chain.add(other) { $0.on(Scroll.didScroll) { me, offset in me.total += offset } }
        }
        #expect(weakCounter == nil) // no handler kept it alive
    }
}
