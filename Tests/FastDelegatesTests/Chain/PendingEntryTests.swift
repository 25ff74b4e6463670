import Testing

@testable import FastDelegates

/// A `DelegateChain` enters a handler not known to answer (a `@DelegateProxy` requirement's) into
/// its C table only when something first needs that message's responders: a listener of a proxy
/// costs entries for the requirements sent, not for every requirement of the protocol. Every
/// path that reads responders still reaches the pending handlers, in registration order.
@Suite("DelegateChain: requirement handlers entered on first need")
struct PendingEntryTests {
    /// Requirements' messages, as `@DelegateProxy` generates them (by hand: no macros here).
    static let ticks = (0..<4).map { Message<Int, Void>("PendingEntryTests.tick\($0)(_:)") }
    static let query = Message<Int, Int>("PendingEntryTests.query(_:)")

    /// What the listeners' handlers were called with, in order: (listener name, message id).
    final class Log {
        var calls: [(String, UInt32)] = []
        func names(of message: UInt32) -> [String] { calls.filter { $0.1 == message }.map(\.0) }
    }

    /// A listener of every requirement that implements those in `implements` and declines the
    /// others, as a generated default does (it logs the call either way).
    final class Listener {
        let name: String
        let implements: Set<UInt32>
        let log: Log
        init(_ name: String, implements: Set<UInt32>, log: Log) {
            self.name = name
            self.implements = implements
            self.log = log
        }

        /// Fresh handlers, each unverified.
        var responses: Responses<Listener> {
            var responses = Responses<Listener>()
            for tick in PendingEntryTests.ticks {
                responses = responses.on(requirement: tick) { me, _ in
                    me.log.calls.append((me.name, tick.id))
                    if !me.implements.contains(tick.id) { _ = RequirementDefaults.declines(tick, me) }
                }
            }
            return responses.on(requirement: PendingEntryTests.query) { me, input in
                me.log.calls.append((me.name, PendingEntryTests.query.id))
                if !me.implements.contains(PendingEntryTests.query.id) {
                    _ = RequirementDefaults.declines(PendingEntryTests.query, me)
                    return -1
                }
                return input + me.name.count
            }
        }
    }

    @Test("A listener's requirement handlers take C entries only for the messages sent")
    func entriesOnlyForMessagesSent() {
        let log = Log()
        let chain = DelegateChain()
        let listener = Listener("a", implements: [Self.ticks[0].id, Self.ticks[1].id], log: log)
        chain.add(listener, responses: listener.responses)
        #expect(chain.tableStats.entries == 0)
        #expect(chain.tableStats.messages == 0)
        #expect(chain.pendingCountForTesting(of: Self.ticks[0]) == 1)

        let tick0 = PreparedMessage(requirement: Self.ticks[0])
        chain.send(tick0, 1)
        #expect(chain.tableStats.entries == 1)
        #expect(chain.pendingCountForTesting(of: Self.ticks[0]) == 0)
        #expect(chain.pendingCountForTesting(of: Self.ticks[1]) == 1)
        chain.send(tick0, 2)
        #expect(log.names(of: Self.ticks[0].id) == ["a", "a"])

        // A declining listener's handler is entered, asked once, and dropped.
        chain.send(requirement: Self.ticks[2], 1)
        chain.send(requirement: Self.ticks[2], 1)
        #expect(log.names(of: Self.ticks[2].id) == ["a"])
        #expect(chain.tableStats.entries == 1)
        #expect(chain.invariantViolation == 0)

        // Removing the listener forgets what is still pending.
        chain.remove(listener)
        #expect(chain.pendingCountForTesting(of: Self.ticks[1]) == 0)
        #expect(chain.tableStats.entries == 0)
    }

    @Test("A plain send enters every pending handler: the chain's next sends take the fast path")
    func aPlainSendEntersEverything() {
        let log = Log()
        let chain = DelegateChain()
        let listener = Listener("a", implements: [Self.ticks[0].id, Self.ticks[1].id], log: log)
        chain.add(listener, responses: listener.responses)
        #expect(chain.needsSlowPath)
        chain.send(Self.ticks[0], 1)
        #expect(chain.pendingCountForTesting(of: Self.ticks[1]) == 0)
        #expect(chain.pendingCountForTesting(of: Self.query) == 0)
        #expect(!chain.needsSlowPath)
        chain.send(Self.ticks[1], 2)
        #expect(log.names(of: Self.ticks[0].id) == ["a"])
        #expect(log.names(of: Self.ticks[1].id) == ["a"])
        #expect(chain.invariantViolation == 0)
    }

    @Test("Every path that reads a message's responders reaches its pending handlers, in order")
    func everyPathEnters() async {
        let log = Log()
        let everything = Set(Self.ticks.map(\.id) + [Self.query.id])
        func makeChain() -> (DelegateChain, [Listener]) {
            let chain = DelegateChain()
            let a = Listener("a", implements: everything, log: log)
            let c = Listener("c", implements: everything, log: log)
            chain.add(a, responses: a.responses)
            chain.add(c, responses: c.responses)
            // Entered at once (verified), yet placed between the two pending listeners.
            let b = Listener("b", implements: everything, log: log)
            chain.insert(
                b, at: 1,
                responses: Responses<Listener>().on(Self.ticks[0]) { me, _ in
                    me.log.calls.append((me.name, PendingEntryTests.ticks[0].id))
                })
            return (chain, [a, b, c])
        }
        let paths: [(String, (DelegateChain) -> Void)] = [
            ("send", { $0.send(Self.ticks[0], 1) }),
            ("forEachAnswer", { _ = $0.forEachAnswer(to: Self.ticks[0], 1) { false } }),
            ("prepared", { $0.send(PreparedMessage(Self.ticks[0]), 1) }),
            ("requirement", { $0.send(requirement: Self.ticks[0], 1) }),
            ("prepared requirement", { $0.send(PreparedMessage(requirement: Self.ticks[0]), 1) }),
            ("combining", { _ = $0.send(requirement: Self.ticks[0], 1, combining: .all) }),
        ]
        for (name, path) in paths {
            log.calls = []
            let (chain, listeners) = makeChain()
            path(chain)
            #expect(log.names(of: Self.ticks[0].id) == ["a", "b", "c"], "\(name)")
            #expect(chain.pendingCountForTesting(of: Self.ticks[0]) == 0, "\(name)")
            #expect(chain.invariantViolation == 0, "\(name)")
            withExtendedLifetime(listeners) {}
        }

        // A first answer: the first pending listener answers.
        let (chain, listeners) = makeChain()
        #expect(chain.send(requirement: Self.query, 10) == 11)
        #expect(chain.send(Self.query, 10) == 11)
        #expect(chain.send(PreparedMessage(requirement: Self.query), 10) == 11)

        // `responds(to:)`: a pending unverified handler of a live target counts, as before it
        // was pending.
        #expect(chain.responds(to: Self.ticks[3]))
        #expect(chain.pendingCountForTesting(of: Self.ticks[3]) == 0)
        withExtendedLifetime(listeners) {}

        // Observed: the observers' walk enters them too.
        log.calls = []
        let (observed, observedListeners) = makeChain()
        let stream = observed.invocations(of: Self.ticks[1], timing: .beforeResponders)
        observed.send(PreparedMessage(requirement: Self.ticks[1]), 5)
        observed.send(Self.ticks[1], 6)
        #expect(log.names(of: Self.ticks[1].id) == ["a", "c", "a", "c"])
        var seen: [Int] = []
        for await input in stream {
            seen.append(input)
            if seen.count == 2 { break }
        }
        #expect(seen == [5, 6])
        withExtendedLifetime(observedListeners) {}
    }

    @Test("A listener removed or dead before its message is sent is never entered or called")
    func removedAndDeadNeverCalled() {
        let log = Log()
        let everything = Set(Self.ticks.map(\.id))
        let chain = DelegateChain()
        let kept = Listener("kept", implements: everything, log: log)
        let removed = Listener("removed", implements: everything, log: log)
        chain.add(kept, responses: kept.responses)
        chain.add(removed, responses: removed.responses)
        do {
            let dying = Listener("dying", implements: everything, log: log)
            chain.add(dying, responses: dying.responses)
        }
        chain.remove(removed)
        #expect(chain.pendingCountForTesting(of: Self.ticks[0]) == 2)
        chain.send(requirement: Self.ticks[0], 1)
        #expect(chain.responds(to: Self.ticks[1]))
        chain.send(PreparedMessage(requirement: Self.ticks[1]), 1)
        #expect(log.calls.map(\.0) == ["kept", "kept"])
        #expect(chain.tableStats.entries == 2)
        #expect(chain.invariantViolation == 0)
        withExtendedLifetime((kept, removed)) {}
    }

    @Test("A listener added during a send is reached from the next send; entering during a dispatch")
    func addedDuringSendAndNestedEntering() {
        let log = Log()
        let everything = Set(Self.ticks.map(\.id))
        let chain = DelegateChain()
        let first = Listener("first", implements: everything, log: log)
        let late = Listener("late", implements: everything, log: log)
        let tick0 = PreparedMessage(requirement: Self.ticks[0])
        let tick1 = PreparedMessage(requirement: Self.ticks[1])
        var added = false
        // `first`'s tick0 adds `late` (pending) and sends tick1, whose handlers are all pending:
        // they are entered inside the dispatch of tick0. (Unowned: the chain holds the handler.)
        chain.add(
            first,
            responses: first.responses.on(requirement: Self.ticks[0]) { [unowned chain] me, input in
                me.log.calls.append((me.name, PendingEntryTests.ticks[0].id))
                if !added {
                    added = true
                    chain.add(late, responses: late.responses)
                    chain.send(tick1, input)
                }
            })
        chain.send(tick0, 1)
        #expect(log.names(of: Self.ticks[0].id) == ["first"])
        #expect(log.names(of: Self.ticks[1].id) == ["first", "late"])
        #expect(chain.invariantViolation == 0)
        #expect(chain.retiredBlocksForTesting == 0)
        chain.send(tick0, 2)
        #expect(log.names(of: Self.ticks[0].id) == ["first", "first", "late"])
        #expect(chain.invariantViolation == 0)
    }

    @Test("Adding a listener again or moving it keeps its pending handlers pending, in order once entered")
    func replaceAndMove() {
        let log = Log()
        let everything = Set(Self.ticks.map(\.id))
        let chain = DelegateChain()
        let a = Listener("a", implements: everything, log: log)
        let b = Listener("b", implements: everything, log: log)
        chain.add(a, responses: a.responses)
        chain.add(b, responses: b.responses)
        chain.send(requirement: Self.ticks[0], 1) // entered for both
        chain.insert(b, at: 0, responses: b.responses) // new handlers, moved first
        chain.add(a, responses: a.responses) // again: its responses replaced
        #expect(chain.pendingCountForTesting(of: Self.ticks[1]) == 2)
        log.calls = []
        chain.send(requirement: Self.ticks[0], 1)
        chain.send(requirement: Self.ticks[1], 1)
        #expect(log.calls.map(\.0) == ["b", "a", "b", "a"])
        chain.removeAll()
        #expect(chain.pendingCountForTesting(of: Self.ticks[2]) == 0)
        #expect(chain.tableStats.entries == 0)
        #expect(chain.invariantViolation == 0)
    }

    /// Seventy requirements' messages, more than a registration can hold pending.
    static let many = (0..<70).map { Message<Int, Void>("PendingEntryTests.many\($0)(_:)") }

    /// Responses of `listener` to `messages`, each an unverified requirement handler that logs.
    static func manyResponses(_ messages: ArraySlice<Message<Int, Void>>) -> Responses<Listener> {
        messages.reduce(Responses<Listener>()) { responses, message in
            responses.on(requirement: message) { me, _ in me.log.calls.append((me.name, message.id)) }
        }
    }

    @Test("Of a listener's 70 requirement handlers 64 wait and 6 are entered; each answers once, in order")
    func moreHandlersThanCanWait() {
        let log = Log()
        let chain = DelegateChain()
        let a = Listener("a", implements: [], log: log)
        let b = Listener("b", implements: [], log: log)
        chain.add(a, responses: Self.manyResponses(Self.many[...]))
        chain.add(b, responses: Self.manyResponses(Self.many[...]))
        // Which 64 wait follows each registration's own order of its responses.
        let waiting = Self.many.map { chain.pendingCountForTesting(of: $0) }
        #expect(waiting.reduce(0, +) == 2 * 64)
        #expect(chain.tableStats.entries == 2 * 6)
        for message in Self.many { chain.send(requirement: message, 1) }
        #expect(log.calls.map(\.0) == Array(repeating: ["a", "b"], count: 70).flatMap { $0 })
        #expect(log.calls.map(\.1) == Self.many.flatMap { [$0.id, $0.id] })
        #expect(chain.tableStats.entries == 2 * 70)
        #expect(Self.many.allSatisfy { chain.pendingCountForTesting(of: $0) == 0 })
        #expect(chain.invariantViolation == 0)
    }

    @Test("Adding a listener again with more handlers keeps the entered ones entered and the others waiting")
    func addingAgainWithMoreHandlers() {
        let log = Log()
        let chain = DelegateChain()
        let a = Listener("a", implements: [], log: log)
        let b = Listener("b", implements: [], log: log)
        chain.add(a, responses: Self.manyResponses(Self.many[0..<3]))
        chain.add(b, responses: Self.manyResponses(Self.many[0..<3]))
        chain.send(requirement: Self.many[1], 1)
        #expect(chain.tableStats.entries == 2)
        // Again with 40 handlers, the first 3 the same messages: the places of the messages among
        // the registration's responses change, what is entered and what waits does not.
        chain.add(a, responses: Self.manyResponses(Self.many[0..<40]))
        #expect(chain.tableStats.entries == 2)
        #expect(chain.pendingCountForTesting(of: Self.many[0]) == 2)
        #expect(chain.pendingCountForTesting(of: Self.many[1]) == 0)
        #expect(chain.pendingCountForTesting(of: Self.many[39]) == 1)
        log.calls = []
        for message in Self.many[0..<40] { chain.send(requirement: message, 1) }
        let expected = Self.many[0..<40].enumerated().flatMap { index, message in
            index < 3 ? [("a", message.id), ("b", message.id)] : [("a", message.id)]
        }
        #expect(log.calls.map(\.0) == expected.map(\.0))
        #expect(log.calls.map(\.1) == expected.map(\.1))
        #expect(chain.tableStats.entries == 43)
        chain.remove(a)
        #expect(chain.tableStats.entries == 3)
        #expect(chain.invariantViolation == 0)
    }

    /// The model of a random sequence: the listeners in order, with the messages each declined.
    /// A listener leaves the model removed from the chain, or dead (its last reference gone).
    @Test("Random adds, inserts, removals, deaths and sends answer as the eager table did")
    func randomAgainstModel() {
        var rng = SeededGenerator(seed: 53)
        let log = Log()
        let messages = Self.ticks
        let prepared = messages.map { PreparedMessage(requirement: $0) }
        for _ in 0..<TestScale.count(40, sanitizerDivisor: 4) {
            let chain = DelegateChain()
            var model: [(listener: Listener, declined: Set<UInt32>)] = []
            var serial = 0
            for _ in 0..<60 {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<3:
                    serial += 1
                    let implements = Set(messages.map(\.id).filter { _ in Bool.random(using: &rng) })
                    let listener = Listener("\(serial)", implements: implements, log: log)
                    let index = Int.random(in: 0...model.count, using: &rng)
                    // Weak: the model's reference is the only one, and dropping it kills the listener.
                    chain.insert(listener, at: index, responses: listener.responses)
                    model.insert((listener, []), at: index)
                case 3 where !model.isEmpty:
                    let index = Int.random(in: 0..<model.count, using: &rng)
                    let listener = model.remove(at: index).listener
                    if Bool.random(using: &rng) { chain.remove(listener) }
                case 4:
                    let message = messages.randomElement(using: &rng)!
                    let expected = model.contains { !$0.declined.contains(message.id) }
                    #expect(chain.responds(to: message) == expected)
                default:
                    let which = Int.random(in: 0..<messages.count, using: &rng)
                    let message = messages[which]
                    log.calls = []
                    if Bool.random(using: &rng) {
                        chain.send(prepared[which], 0)
                    } else {
                        chain.send(requirement: message, 0)
                    }
                    // Each listener not known to decline is called once, in order; those that do
                    // not implement it decline now and are never called for it again.
                    var expected: [String] = []
                    for index in model.indices where !model[index].declined.contains(message.id) {
                        expected.append(model[index].listener.name)
                        if !model[index].listener.implements.contains(message.id) {
                            model[index].declined.insert(message.id)
                        }
                    }
                    #expect(log.names(of: message.id) == expected)
                }
                #expect(chain.invariantViolation == 0)
            }
            // Entries only for what was entered: never more than the eager table's.
            let eager = model.reduce(0) { $0 + messages.count - $1.declined.count }
            #expect(chain.tableStats.entries <= eager)
        }
    }
}
