import Testing

@testable import FastDelegates

/// A `PreparedMessage` remembers its bucket in the chain's table: each test changes the table
/// under the hint and checks that prepared sends still reach exactly what plain sends reach.
@Suite("Prepared sends")
struct PreparedMessageTests {
    /// Sends `value` prepared, then plain, and returns what each reached.
    func both(_ chain: DelegateChain, _ prepared: PreparedMessage<Int, Void>, _ value: Int, log: Log)
        -> (prepared: [String], plain: [String])
    {
        log.events.removeAll()
        chain.send(prepared, value)
        let viaPrepared = log.events
        log.events.removeAll()
        chain.send(Scroll.didScroll, value)
        return (viaPrepared, log.events)
    }

    @Test(arguments: [false, true])
    func addingAndRemovingListenersBetweenSends(forcedCollisions: Bool) {
        let log = Log()
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        let prepared = PreparedMessage(Scroll.didScroll)
        #expect(both(chain, prepared, 0, log: log) == ([], [])) // no bucket yet: the hint says so
        let a = Probe("a", log: log), b = Probe("b", log: log)
        chain.add(a)
        #expect(both(chain, prepared, 1, log: log) == (["a.didScroll(1)"], ["a.didScroll(1)"]))
        chain.add(b)
        #expect(both(chain, prepared, 2, log: log).prepared == ["a.didScroll(2)", "b.didScroll(2)"])
        chain.remove(a)
        #expect(both(chain, prepared, 3, log: log).prepared == ["b.didScroll(3)"])
        chain.remove(b) // the bucket goes away
        #expect(both(chain, prepared, 4, log: log) == ([], []))
        chain.add(a) // and comes back, maybe elsewhere
        #expect(both(chain, prepared, 5, log: log).prepared == ["a.didScroll(5)"])
        #expect(chain.invariantViolation == 0)
    }

    @Test("The table grows and shrinks under the hint (rehashes move the bucket)")
    func rehash() {
        let log = Log()
        let chain = DelegateChain()
        let a = Probe("a", log: log)
        chain.add(a)
        let prepared = PreparedMessage(Scroll.didScroll)
        chain.send(prepared, 0) // remembers the bucket in the small table
        var fillers: [Plain] = []
        for round in 0..<4 {
            // Hundreds of other messages: the table doubles several times.
            let filler = Plain("filler\(round)", log: log)
            var responses = Responses<Plain>()
            for index in 0..<200 {
                responses = responses.on(Message<Int, Void>("prepared.filler.\(round).\(index)")) { _, _ in }
            }
            chain.add(filler, responses: responses)
            fillers.append(filler)
            #expect(both(chain, prepared, round, log: log) == (["a.didScroll(\(round))"], ["a.didScroll(\(round))"]))
        }
        for filler in fillers {
            chain.remove(filler) // and shrinks again
            #expect(both(chain, prepared, 9, log: log).prepared == ["a.didScroll(9)"])
        }
        #expect(chain.invariantViolation == 0)
    }

    @Test(arguments: [false, true])
    func removalAndAdditionDuringAPreparedSend(forcedCollisions: Bool) {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), late = Probe("late", log: log)
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        chain.add(a)
        chain.add(b)
        let prepared = PreparedMessage(Scroll.didScroll)
        a.onScroll = { _, value in
            guard value == 1 else { return }
            chain.remove(b) // at once, even in this send
            chain.add(late) // from the next send
            chain.send(prepared, 10) // a nested prepared send of the same message
        }
        chain.send(prepared, 1)
        #expect(log.events == ["a.didScroll(1)", "a.didScroll(10)", "late.didScroll(10)"])
        log.events.removeAll()
        chain.send(prepared, 2)
        #expect(log.events == ["a.didScroll(2)", "late.didScroll(2)"])
        #expect(chain.invariantViolation == 0)
    }

    @Test("One prepared message sent through several chains")
    func severalChains() {
        let log = Log()
        let first = DelegateChain(), second = DelegateChain()
        let didScroll = PreparedMessage(Scroll.didScroll)
        let a = Probe("a", log: log), b = Probe("b", log: log)
        first.add(a)
        // Another message first in the second chain, so that the buckets differ.
        second.add(
            Plain("other", log: log), retention: .strong, responses: Responses().on(Scroll.willBeginDragging) { _ in })
        second.add(b)
        for value in 0..<3 {
            log.events.removeAll()
            first.send(didScroll, value)
            second.send(didScroll, value)
            #expect(log.events == ["a.didScroll(\(value))", "b.didScroll(\(value))"])
        }
    }

    @Test("Answers, defaults and combinations through prepared messages")
    func answers() {
        let log = Log()
        let chain = DelegateChain()
        let height = PreparedMessage(Scroll.heightForHeader)
        let zoom = PreparedMessage(Scroll.viewForZooming)
        #expect(chain.send(height, 1) == nil)
        #expect(chain.send(height, 1, default: 7) == 7)
        #expect(chain.send(zoom, ()) == nil)
        let ab = Probe("ab", log: log), abc = Probe("abc", log: log)
        chain.add(ab)
        chain.add(abc)
        #expect(chain.send(height, 1) == 201)
        #expect(chain.send(height, 1, default: 7) == 201)
        #expect(chain.send(height, 1, combining: .all) == [201, 301])
        #expect(chain.send(zoom, ()) == "view of ab")
    }

    @Test("An observed chain takes the slow path with a prepared message too, also one sent before")
    func observed() async {
        let log = Log()
        var chain: DelegateChain? = DelegateChain()
        let a = Probe("a", log: log)
        chain!.add(a)
        let prepared = PreparedMessage(Scroll.didScroll)
        chain!.send(prepared, 3) // remembers the responders, on the fast path
        let stream = chain!.invocations(of: Scroll.didScroll)
        chain!.send(prepared, 4)
        chain!.send(PreparedMessage(Scroll.didScroll), 5)
        chain = nil // finishes the stream
        var seen: [Int] = []
        for await offset in stream { seen.append(offset) }
        #expect(seen == [4, 5])
        #expect(log.events == ["a.didScroll(3)", "a.didScroll(4)", "a.didScroll(5)"])
    }

    @Test("A message forwarded to an inner chain after a prepared send is walked in its place")
    func forwardedAfterAPreparedSend() {
        let log = Log()
        let outer = DelegateChain(), inner = DelegateChain()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        outer.add(a)
        let prepared = PreparedMessage(Scroll.didScroll)
        outer.send(prepared, 1)
        inner.add(b)
        outer.add(inner, responses: Responses<DelegateChain>().forwarding(Scroll.didScroll))
        outer.send(prepared, 2)
        #expect(log.events == ["a.didScroll(1)", "a.didScroll(2)", "b.didScroll(2)"])
        withExtendedLifetime((a, b, inner)) {}
    }

    /// A proxy's requirement, prepared inline (``PreparedRequirement``), and its send.
    final class RequirementSender {
        let chain = DelegateChain()
        @exclusivity(unchecked) var didScroll = PreparedRequirement(Scroll.didScroll)
        func send(_ value: Int) { chain.send(&didScroll, value) }
    }

    @Test("A prepared requirement stays correct as the table changes, also inside its own send")
    func preparedRequirement() {
        let log = Log()
        let sender = RequirementSender()
        let a = Probe("a", log: log), b = Probe("b", log: log), late = Probe("late", log: log)
        sender.send(0) // no bucket yet
        sender.chain.add(a)
        sender.send(1)
        sender.chain.add(b)
        sender.send(2)
        // Inside a send: a listener added, and the requirement sent again, which refreshes what the
        // outer send remembers while it walks.
        a.onScroll = { _, value in
            guard value == 3 else { return }
            sender.chain.add(late)
            sender.send(4)
        }
        sender.send(3)
        a.onScroll = nil
        sender.chain.remove(a)
        sender.send(5)
        #expect(
            log.events == [
                "a.didScroll(1)", "a.didScroll(2)", "b.didScroll(2)", "a.didScroll(3)", "a.didScroll(4)",
                "b.didScroll(4)", "late.didScroll(4)", "b.didScroll(3)", "b.didScroll(5)", "late.didScroll(5)",
            ])
        #expect(sender.chain.invariantViolation == 0)
    }

}
