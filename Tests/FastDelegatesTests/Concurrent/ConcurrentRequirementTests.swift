import Synchronization
import Testing

@testable import FastDelegates

/// The sends of `@DelegateProxy` requirements through a `ConcurrentDelegateChain`: the snapshot
/// records which messages have only verified handlers, whose sends skip the status checks, and
/// the checking sends keep the requirements' semantics (a listener that declines is asked once,
/// not counted, and dropped).
@Suite("Concurrent requirement sends: status checks only until every handler is verified")
struct ConcurrentRequirementTests {
    /// A void requirement's and a query's messages, as `@DelegateProxy` generates them (here by
    /// hand: these tests run without the macros).
    static let tick = Message<Int, Void>("ConcurrentRequirementTests.tick(_:)")
    static let query = Message<Int, Int>("ConcurrentRequirementTests.query(_:)")

    /// A listener that implements both requirements and counts its ticks.
    final class Implementer: Sendable {
        let ticks = Atomic<Int>(0)
        let answer: Int
        init(answer: Int) { self.answer = answer }

        /// Fresh handlers, not shared with other listeners: each starts unverified.
        static var responses: SendableResponses<Implementer> {
            SendableResponses<Implementer>()
                .on(requirement: ConcurrentRequirementTests.tick) { me, _ in me.ticks.add(1, ordering: .relaxed) }
                .on(requirement: ConcurrentRequirementTests.query) { me, _ in me.answer }
        }
    }

    /// A listener that implements neither: its methods are the generated defaults, which decline
    /// when a send asks. Counts how often it is asked.
    final class Decliner: Sendable {
        let asked = Atomic<Int>(0)

        static var responses: SendableResponses<Decliner> {
            SendableResponses<Decliner>()
                .on(requirement: ConcurrentRequirementTests.tick) { me, _ in
                    me.asked.add(1, ordering: .relaxed)
                    _ = RequirementDefaults.declines(ConcurrentRequirementTests.tick, me)
                }
                .on(requirement: ConcurrentRequirementTests.query) { me, _ in
                    me.asked.add(1, ordering: .relaxed)
                    _ = RequirementDefaults.declines(ConcurrentRequirementTests.query, me)
                    return -1
                }
        }
    }

    @Test("The send that verifies the last handler publishes a snapshot that records it")
    func verifiedAfterFirstSend() {
        let chain = ConcurrentDelegateChain()
        let listener = Implementer(answer: 7)
        chain.add(listener, responses: Implementer.responses)
        #expect(!chain.isVerifiedForTesting(Self.tick))
        chain.send(requirement: Self.tick, 1)
        #expect(chain.isVerifiedForTesting(Self.tick))
        #expect(!chain.isVerifiedForTesting(Self.query))
        #expect(chain.send(requirement: Self.query, 1) == 7)
        #expect(chain.isVerifiedForTesting(Self.query))
        for value in 0..<10 { chain.send(requirement: Self.tick, value) }
        #expect(listener.ticks.load(ordering: .relaxed) == 11)
    }

    @Test("A chain whose shared handlers another chain's send verified records them after one send")
    func verifiedThroughAnotherChain() {
        // One set of handlers in two chains, as a proxy class's listeners share theirs per
        // (class, protocol): both snapshots are built while the handlers are unverified.
        let responses = Implementer.responses
        let first = ConcurrentDelegateChain()
        let second = ConcurrentDelegateChain()
        let listener = Implementer(answer: 7)
        first.add(listener, responses: responses)
        second.add(listener, responses: responses)
        first.send(requirement: Self.tick, 1)
        #expect(first.isVerifiedForTesting(Self.tick))
        #expect(!second.isVerifiedForTesting(Self.tick))
        // The second chain's send meets only verified handlers: it publishes, so that its
        // sends that follow skip the status checks.
        second.send(requirement: Self.tick, 2)
        #expect(second.isVerifiedForTesting(Self.tick))
        #expect(listener.ticks.load(ordering: .relaxed) == 2)
    }

    @Test("A chain whose shared handler another chain's send found declined drops it after one send")
    func declinedThroughAnotherChain() {
        let declining = Decliner.responses
        let first = ConcurrentDelegateChain()
        let second = ConcurrentDelegateChain()
        let decliner = Decliner()
        let implementer = Implementer(answer: 7)
        first.add(decliner, responses: declining)
        second.add(decliner, responses: declining)
        second.add(implementer, responses: Implementer.responses)
        first.send(requirement: Self.tick, 1)
        #expect(decliner.asked.load(ordering: .relaxed) == 1)
        // The second chain meets the handler already declined: it drops it and publishes, so
        // that its sends that follow skip the status checks.
        second.send(requirement: Self.tick, 2)
        #expect(second.isVerifiedForTesting(Self.tick))
        second.send(requirement: Self.tick, 3)
        #expect(decliner.asked.load(ordering: .relaxed) == 1)
        #expect(implementer.ticks.load(ordering: .relaxed) == 2)
    }

    @Test("A listener added to verified handlers is asked once, not counted, and dropped")
    func declinerAddedLater() {
        let chain = ConcurrentDelegateChain()
        let listener = Implementer(answer: 7)
        chain.add(listener, responses: Implementer.responses)
        chain.send(requirement: Self.tick, 0)
        #expect(chain.send(requirement: Self.query, 0) == 7)

        let decliner = Decliner()
        chain.insert(decliner, at: 0, responses: Decliner.responses)
        #expect(!chain.isVerifiedForTesting(Self.tick))
        #expect(!chain.isVerifiedForTesting(Self.query))
        for value in 0..<5 { chain.send(requirement: Self.tick, value) }
        // Asked first, it declined: the query's answer is the implementer's, not -1.
        for value in 0..<5 { #expect(chain.send(requirement: Self.query, value) == 7) }
        #expect(decliner.asked.load(ordering: .relaxed) == 2)
        #expect(listener.ticks.load(ordering: .relaxed) == 6)
        #expect(chain.isVerifiedForTesting(Self.tick))
        #expect(chain.isVerifiedForTesting(Self.query))
    }

    @Test("A query that stops at its first answer leaves the handlers behind it to be checked")
    func queryStopsBeforeUnverified() {
        let chain = ConcurrentDelegateChain()
        let first = Implementer(answer: 1)
        let second = Implementer(answer: 2)
        chain.add(first, responses: Implementer.responses)
        chain.add(second, responses: Implementer.responses)
        #expect(chain.send(requirement: Self.query, 0) == 1)
        #expect(!chain.isVerifiedForTesting(Self.query))
        #expect(chain.send(requirement: Self.query, 0) == 1)
        // A void send reaches both: the second is verified too.
        chain.send(requirement: Self.tick, 0)
        #expect(chain.isVerifiedForTesting(Self.tick))
        #expect(first.ticks.load(ordering: .relaxed) == 1)
        #expect(second.ticks.load(ordering: .relaxed) == 1)
    }

    @Test("Sends from several threads verify a requirement once and keep calling every listener")
    func concurrentFirstSends() async {
        let chain = ConcurrentDelegateChain()
        let listeners = (0..<4).map { Implementer(answer: $0) }
        let decliner = Decliner()
        for listener in listeners { chain.add(listener, responses: Implementer.responses) }
        chain.add(decliner, responses: Decliner.responses)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for value in 0..<200 { chain.send(requirement: Self.tick, value) }
                }
            }
        }
        for listener in listeners { #expect(listener.ticks.load(ordering: .relaxed) == 800) }
        // Threads that raced the first send may each have asked it; once dropped, none does.
        let asked = decliner.asked.load(ordering: .relaxed)
        #expect(asked >= 1)
        #expect(chain.isVerifiedForTesting(Self.tick))
        for value in 0..<10 { chain.send(requirement: Self.tick, value) }
        #expect(decliner.asked.load(ordering: .relaxed) == asked)
        for listener in listeners { #expect(listener.ticks.load(ordering: .relaxed) == 810) }
    }
}
