import Foundation
import Synchronization
import Testing

@testable import FastDelegates

/// Messages of the stress test.
enum HammerMessages {
    static let tick = Message<Int, Void>("hammer.tick:")
    static let answer = Message<Int, Int>("hammer.answer:")
}

/// A thread-safe target: counts what it receives, and records a violation if a handler runs
/// while the test considers it unregistered.
final class HammerTarget: DelegateResponder, Sendable {
    let id: Int
    /// True from just before the test adds it until just after `remove` returned.
    let registered = Atomic<Bool>(false)
    let received = Atomic<Int>(0)
    let violations: HammerCounters

    init(id: Int, counters: HammerCounters) {
        self.id = id
        violations = counters
    }

    func receive() {
        if !registered.load(ordering: .sequentiallyConsistent) {
            violations.afterRemoval.wrappingAdd(1, ordering: .relaxed)
        }
        received.wrappingAdd(1, ordering: .relaxed)
    }

    static let responses = SendableResponses<HammerTarget>()
        .on(HammerMessages.tick) { me, _ in me.receive() }
        .on(HammerMessages.answer) { me, value in
            me.receive()
            return value &+ me.id
        }
}

final class HammerCounters: Sendable {
    let afterRemoval = Atomic<Int>(0)
    let sends = Atomic<Int>(0)
    let mutations = Atomic<Int>(0)
    let deaths = Atomic<Int>(0)
}

/// Runs `body` on `count` new threads at once and waits for all of them.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        let thread = Thread {
            body(index)
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in 0..<count { done.wait() }
}

@Suite("ConcurrentDelegateChain under concurrent sends and mutations")
struct ConcurrentStressTests {
    /// How long the threads hammer the chain; short enough for the sanitizer runs.
    static let duration: Duration = Soak.stressDuration ?? .milliseconds(1_500)

    /// Two threads send while one adds, inserts, removes and cancels targets of a fixed pool,
    /// and one adds short-lived weak targets and lets them die. No handler may run after its
    /// target's removal returned; afterwards the chain holds exactly the pool targets the
    /// mutator left registered, in its order, and one more send reaches exactly those.
    @Test(arguments: [ConcurrentDelegateChain.Mode.nonBreaking, .breaking])
    func sendersMutatorsAndDyingTargets(mode: ConcurrentDelegateChain.Mode) {
        let counters = HammerCounters()
        let chain = ConcurrentDelegateChain(mode: mode)
        let pool = (0..<12).map { HammerTarget(id: $0, counters: counters) }
        let finalOrder = HandoffMutex<[Int]>([])
        let deadline = ContinuousClock.now + Self.duration

        runOnThreads(4) { role in
            switch role {
            case 0, 1: // senders
                var rounds = 0
                while ContinuousClock.now < deadline || rounds < 200 {
                    for value in 0..<50 {
                        if value % 5 == 0 {
                            _ = chain.send(HammerMessages.answer, value)
                        } else {
                            chain.send(HammerMessages.tick, value)
                        }
                        if value % 7 == 0 { _ = chain.responds(to: HammerMessages.tick) }
                    }
                    counters.sends.wrappingAdd(50, ordering: .relaxed)
                    rounds += 1
                }
            case 2: // mutator of the pool
                var rng = SeededGenerator(seed: Soak.seeds([42])[0])
                var order: [Int] = [] // ids registered, in dispatch order
                var tokens: [Int: ConcurrentDelegateToken] = [:]
                var rounds = 0
                while ContinuousClock.now < deadline || rounds < 200 {
                    rounds += 1
                    let target = pool[Int.random(in: 0..<pool.count, using: &rng)]
                    if let position = order.firstIndex(of: target.id) {
                        if Bool.random(using: &rng) {
                            let removed = chain.remove(target)
                            precondition(removed)
                        } else {
                            tokens[target.id]!.cancel()
                        }
                        target.registered.store(false, ordering: .sequentiallyConsistent)
                        order.remove(at: position)
                        tokens[target.id] = nil
                    } else {
                        target.registered.store(true, ordering: .sequentiallyConsistent)
                        let retention: Retention = Bool.random(using: &rng) ? .strong : .weak
                        if Bool.random(using: &rng) {
                            // Index 0 only: the short-lived targets make other live indexes
                            // differ from positions in `order`.
                            tokens[target.id] = chain.insert(target, at: 0, retention: retention)
                            order.insert(target.id, at: 0)
                        } else {
                            tokens[target.id] = chain.add(target, retention: retention)
                            order.append(target.id)
                        }
                    }
                    counters.mutations.wrappingAdd(1, ordering: .relaxed)
                }
                finalOrder.withLock { $0 = order }
            default: // adds short-lived weak targets and lets them die
                var next = 1_000
                var rounds = 0
                while ContinuousClock.now < deadline || rounds < 200 {
                    rounds += 1
                    var batch: [HammerTarget] = []
                    for _ in 0..<4 {
                        let target = HammerTarget(id: next, counters: counters)
                        next += 1
                        target.registered.store(true, ordering: .sequentiallyConsistent)
                        chain.add(target)
                        batch.append(target)
                    }
                    chain.send(HammerMessages.tick, 0)
                    batch.removeAll() // they die here, unremoved
                    counters.deaths.wrappingAdd(4, ordering: .relaxed)
                }
            }
        }

        if Soak.reporting {
            print(
                "soak: hammer \(mode): \(counters.sends.load(ordering: .relaxed)) sends, \(counters.mutations.load(ordering: .relaxed)) mutations, \(counters.deaths.load(ordering: .relaxed)) deaths in \(Self.duration)"
            )
        }
        #expect(counters.afterRemoval.load(ordering: .relaxed) == 0, "a handler ran after its removal returned")
        let expected = finalOrder.withLock { $0 }
        let ids = chain.targets.map { ($0 as! HammerTarget).id }
        #expect(ids == expected)
        #expect(chain.count == expected.count)
        let before = pool.map { $0.received.load(ordering: .relaxed) }
        chain.send(HammerMessages.tick, 1)
        for (index, target) in pool.enumerated() {
            let delta = target.received.load(ordering: .relaxed) - before[index]
            let registered = expected.contains(target.id)
            let shouldReceive = registered && (mode == .nonBreaking || target.id == expected.first)
            #expect(delta == (shouldReceive ? 1 : 0), "target \(target.id)")
            #expect(target.registered.load(ordering: .relaxed) == registered)
        }
        // Every short-lived target is gone, and reclaimed by the next mutation (a breaking send
        // does not walk far enough to meet them all).
        #expect(!chain.remove(HammerTarget(id: -1, counters: counters)))
        #expect(chain.registrationCount == expected.count)
        #expect(counters.sends.load(ordering: .relaxed) > 0)
        #expect(counters.mutations.load(ordering: .relaxed) > 0)
        withExtendedLifetime(pool) {} // weak members stay registered: alive until the counts are read
    }

    /// Handlers on two threads mutate the chain while others send: removals from inside
    /// handlers on several threads at once must not deadlock, and nothing is called after death.
    @Test func handlersThatMutateOnSeveralThreads() {
        let counters = HammerCounters()
        let chain = ConcurrentDelegateChain()
        let pool = (0..<8).map { HammerTarget(id: $0, counters: counters) }
        let reAdd = Message<Int, Void>("hammer.reAdd:")
        let responses = reAddingResponses(of: pool, message: reAdd, chain: chain)
        for target in pool { chain.add(target, retention: .strong, responses: responses) }
        let deadline = ContinuousClock.now + .milliseconds(500)
        runOnThreads(3) { role in
            var value = role
            var rounds = 0
            while ContinuousClock.now < deadline || rounds < 100 {
                chain.send(reAdd, value)
                value &+= 1
                rounds += 1
            }
        }
        #expect(chain.count == pool.count)
        #expect(pool.reduce(0) { $0 + $1.received.load(ordering: .relaxed) } > 0)
        chain.removeAll() // the handlers capture the chain, which holds them: break the cycle
    }
}

/// The responses the re-adding test gives a target it puts back (it re-adds in turn).
private func reAddingResponses(
    of pool: [HammerTarget], message: Message<Int, Void>, chain: ConcurrentDelegateChain
) -> SendableResponses<HammerTarget> {
    SendableResponses<HammerTarget>().on(message) { me, value in
        let other = pool[(me.id &+ value) % pool.count]
        chain.remove(other)
        chain.add(other, retention: .strong, responses: reAddingResponses(of: pool, message: message, chain: chain))
        me.received.wrappingAdd(1, ordering: .relaxed)
    }
}
