import PureSwiftProxy
import Testing

/// The semantics of the pure-Swift reference proxy.
@Suite struct ProxyChainTests {
    static let tick = ProxyMessage<Int, Void>("test.tick:")
    static let first = ProxyMessage<Int, Int>("test.first:")
    static let other = ProxyMessage<Void, Void>("test.other")

    final class Target {
        let name: String
        var log: [String]
        init(_ name: String, log: [String] = []) {
            self.name = name
            self.log = log
        }
    }

    /// A log shared by several targets.
    final class Log {
        var entries: [String] = []
    }

    final class Logged {
        let name: String
        let log: Log
        init(_ name: String, _ log: Log) {
            self.name = name
            self.log = log
        }
        static let responses = ProxyResponses<Logged>()
            .on(tick) { me, value in me.log.entries.append("\(me.name)\(value)") }
            .on(first) { me, value in value * 10 + me.name.count }
    }

    @Test func voidMessageReachesEveryTargetInOrder() {
        let log = Log()
        let chain = ProxyChain()
        let (a, b, c) = (Logged("a", log), Logged("b", log), Logged("c", log))
        for target in [a, b, c] { chain.add(target, responses: Logged.responses) }
        chain.send(Self.tick, 1)
        #expect(log.entries == ["a1", "b1", "c1"])
    }

    @Test func breakingModeStopsAtFirstResponder() {
        let log = Log()
        let chain = ProxyChain(mode: .breaking)
        let (a, b) = (Logged("a", log), Logged("b", log))
        chain.add(a) { $0.on(Self.other) { _, _ in } } // does not answer tick
        chain.add(b, responses: Logged.responses)
        chain.add(Logged("c", log), retention: .strong, responses: Logged.responses)
        chain.send(Self.tick, 2)
        #expect(log.entries == ["b2"])
        withExtendedLifetime((a, b)) {}
    }

    @Test func firstAnswerNilAndDefault() {
        let chain = ProxyChain()
        #expect(chain.send(Self.first, 1) == nil)
        #expect(chain.send(Self.first, 1, default: -1) == -1)
        let log = Log()
        let a = Logged("aa", log)
        chain.add(a, responses: Logged.responses)
        chain.add(Logged("b", log), retention: .strong, responses: Logged.responses)
        #expect(chain.send(Self.first, 3) == 32)
        withExtendedLifetime(a) {}
    }

    @Test func respondsIsAnyLiveResponder() {
        let chain = ProxyChain()
        #expect(!chain.responds(to: Self.tick))
        var target: Logged? = Logged("a", Log())
        chain.add(target!, responses: Logged.responses)
        #expect(chain.responds(to: Self.tick))
        #expect(!chain.responds(to: Self.other))
        target = nil
        #expect(!chain.responds(to: Self.tick))
    }

    @Test func weakTargetsDieStrongTargetsStay() {
        let log = Log()
        let chain = ProxyChain()
        chain.add(Logged("weak", log), responses: Logged.responses)
        chain.add(Logged("strong", log), retention: .strong, responses: Logged.responses)
        chain.send(Self.tick, 1)
        #expect(log.entries == ["strong1"])
        #expect(chain.targets.count == 1)
    }

    @Test func sameTargetTwiceIsOneTarget() {
        let log = Log()
        let chain = ProxyChain()
        let a = Logged("a", log)
        chain.add(a, responses: Logged.responses)
        chain.add(Logged("b", log), retention: .strong, responses: Logged.responses)
        chain.add(a, responses: Logged.responses)
        chain.send(Self.tick, 1)
        #expect(log.entries == ["a1", "b1"])
        #expect(chain.targets.count == 2)
    }

    @Test func insertPlacesAndMoves() {
        let log = Log()
        let chain = ProxyChain()
        let (a, b, c) = (Logged("a", log), Logged("b", log), Logged("c", log))
        chain.add(a, responses: Logged.responses)
        chain.add(b, responses: Logged.responses)
        chain.insert(c, at: 0) { _ in Logged.responses }
        chain.send(Self.tick, 1)
        chain.insert(a, at: 2) { _ in Logged.responses } // moves a to the end
        chain.send(Self.tick, 2)
        #expect(log.entries == ["c1", "a1", "b1", "c2", "b2", "a2"])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test func removeAndRemoveAll() {
        let log = Log()
        let chain = ProxyChain()
        let (a, b) = (Logged("a", log), Logged("b", log))
        chain.add(a, responses: Logged.responses)
        chain.add(b, responses: Logged.responses)
        #expect(chain.remove(a))
        #expect(!chain.remove(a))
        chain.send(Self.tick, 1)
        chain.removeAll()
        chain.send(Self.tick, 2)
        #expect(log.entries == ["b1"])
        #expect(!chain.contains(b))
    }

    /// A target that mutates its chain from inside a handler (it reaches the chain and the
    /// other target through itself, since handlers are `@Sendable` and capture nothing).
    final class Mutator {
        weak var chain: ProxyChain?
        var other: Logged?
        let log: Log
        init(_ log: Log) { self.log = log }
    }

    @Test func removalDuringDispatchTakesEffectAtOnce() {
        let log = Log()
        let chain = ProxyChain()
        let mutator = Mutator(log)
        let b = Logged("b", log)
        mutator.chain = chain
        mutator.other = b
        chain.add(mutator) {
            $0.on(Self.tick) { me, value in
                me.log.entries.append("m\(value)")
                me.chain?.remove(me.other!)
            }
        }
        chain.add(b, responses: Logged.responses)
        chain.send(Self.tick, 1)
        chain.send(Self.tick, 2)
        #expect(log.entries == ["m1", "m2"])
    }

    @Test func additionDuringDispatchTakesEffectNextTime() {
        let log = Log()
        let chain = ProxyChain()
        let mutator = Mutator(log)
        mutator.chain = chain
        mutator.other = Logged("late", log)
        chain.add(mutator) {
            $0.on(Self.tick) { me, value in
                me.log.entries.append("m\(value)")
                me.chain?.add(me.other!, responses: Logged.responses)
            }
        }
        chain.send(Self.tick, 1)
        chain.send(Self.tick, 2)
        #expect(log.entries == ["m1", "m2", "late2"])
    }
}
