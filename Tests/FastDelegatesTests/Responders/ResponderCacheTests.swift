import Synchronization
import Testing

@testable import FastDelegates

/// Responders whose handlers depend only on their target's class share one set of handlers
/// through a cache, as a `@DelegateProxy` proxy's listeners do.
@Suite("Responder caches")
struct ResponderCacheTests {
    static let tick = Message<Int, Void>("responderCacheTests.tick")
    static let name = Message<Void, String>("responderCacheTests.name")

    /// A listener protocol whose extension builds a new set of handlers each time it is read.
    protocol Listener: AnyObject {
        func tick(_ value: Int)
        func name() -> String
    }

    class Counter: Listener {
        let label: String
        var total = 0
        init(_ label: String) { self.label = label }
        func tick(_ value: Int) { total += value }
        func name() -> String { "counter \(label)" }
    }

    final class LoudCounter: Counter {
        override func name() -> String { "loud counter \(label)" }
    }

    final class Other: Listener {
        func tick(_ value: Int) {}
        func name() -> String { "other" }
    }

    /// Two responders of one target's class: one built, one shared.
    func handler(_ responder: AnyResponder, _ message: Message<some Any, some Any>) -> AnyHandler? {
        responder.handlers[message.id]
    }

    @Test func targetsOfOneClassShareTheFirstRespondersHandlers() {
        let cache = ResponderCache()
        let (a, b) = (Counter("a"), Counter("b"))
        // Built apart, the handlers differ: what the cache saves.
        #expect(handler(a.listenerResponder, Self.tick) !== handler(b.listenerResponder, Self.tick))
        let first = cache.shared(a.listenerResponder)
        let second = cache.shared(b.listenerResponder)
        #expect(first.target === a && second.target === b)
        #expect(handler(second, Self.tick) === handler(first, Self.tick))
        #expect(handler(second, Self.name) === handler(first, Self.name))
        // Each target still gets its own calls.
        let chain = DelegateChain()
        chain.add(first)
        chain.add(second)
        chain.send(Self.tick, 5)
        #expect(a.total == 5 && b.total == 5)
        #expect(chain.send(Self.name, default: "none") == "counter a")
        chain.remove(a)
        #expect(chain.send(Self.name, default: "none") == "counter b")
    }

    @Test func aSubclassAndAnotherClassGetTheirOwnHandlers() {
        let cache = ResponderCache()
        let base = cache.shared(Counter("a").listenerResponder)
        let loud = LoudCounter("b")
        let subclass = cache.shared(loud.listenerResponder)
        let other = cache.shared(Other().listenerResponder)
        #expect(handler(subclass, Self.name) !== handler(base, Self.name))
        #expect(handler(other, Self.name) !== handler(base, Self.name))
        // A later subclass instance shares the subclass's handlers, and calls its override.
        let louder = LoudCounter("c")
        let again = cache.shared(louder.listenerResponder)
        #expect(handler(again, Self.name) === handler(subclass, Self.name))
        let chain = DelegateChain()
        chain.add(again)
        #expect(chain.send(Self.name, default: "none") == "loud counter c")
        withExtendedLifetime(loud) {}
    }

    /// A second protocol over the same messages' neighbours: its responder answers other ones.
    protocol Namer: AnyObject {
        func name() -> String
    }

    final class Both: Listener, Namer {
        var ticks = 0
        func tick(_ value: Int) { ticks += value }
        func name() -> String { "both" }
    }

    @Test func respondersOfTwoProtocolsForOneClassKeepTheirOwnHandlers() {
        let cache = ResponderCache()
        let (a, b) = (Both(), Both())
        let namer = cache.shared(a.namerResponder)
        let listener = cache.shared(b.listenerResponder)
        // The second responder, of another protocol, is not handed the first one's set.
        #expect(handler(listener, Self.tick) != nil)
        #expect(handler(listener, Self.name) !== handler(namer, Self.name))
        let chain = DelegateChain()
        chain.add(listener)
        chain.send(Self.tick, 4)
        #expect(b.ticks == 4)
        // And each set is still shared with the next responder of its own protocol.
        #expect(handler(cache.shared(Both().namerResponder), Self.name) === handler(namer, Self.name))
        #expect(handler(cache.shared(Both().listenerResponder), Self.tick) === handler(listener, Self.tick))
    }

    final class TickCounter: SendableListener {
        let total = Atomic<Int>(0)
        func tick(_ value: Int) { total.wrappingAdd(value, ordering: .relaxed) }
    }

    @Test func theSendableCacheSharesHandlersAmongThreads() {
        let cache = SendableResponderCache()
        let chain = ConcurrentDelegateChain()
        let counters = (0..<8).map { _ in TickCounter() }
        let tickHandlers = HandoffMutex<[ObjectIdentifier]>([])
        runOnThreads(counters.count) { index in
            let responder = cache.shared(counters[index].sendableListenerResponder)
            if let handler = responder.handlers[Self.tick.id] {
                let handler = ObjectIdentifier(handler)
                tickHandlers.withLock { $0.append(handler) }
            }
            chain.add(responder)
        }
        let handlers = tickHandlers.withLock { $0 }
        #expect(handlers.count == counters.count)
        #expect(Set(handlers).count == 1)
        chain.send(Self.tick, 3)
        #expect(counters.allSatisfy { $0.total.load(ordering: .relaxed) == 3 })
    }

    // The process-wide table of generated proxies (`ResponderCache.responder(of:answering:_:)`):
    // classes and namespaces of these tests' own, as the table is the process's.

    /// The namespaces that stand for two protocols' messages.
    enum SharedTickMessages {}
    enum SharedNameMessages {}

    class SharedCounter: Listener {
        var total = 0
        func tick(_ value: Int) { total += value }
        func name() -> String { "shared counter" }
    }

    final class SharedLoudCounter: SharedCounter {
        override func name() -> String { "loud shared counter" }
    }

    @Test func theProcessWideTableBuildsOncePerClassAndProtocol() {
        var builds = 0
        func responder(_ target: some Listener, _ messages: Any.Type) -> AnyResponder {
            ResponderCache.responder(of: target, answering: messages) {
                builds += 1
                return target.listenerResponder
            }
        }
        let (a, b) = (SharedCounter(), SharedCounter())
        let first = responder(a, SharedTickMessages.self)
        let second = responder(b, SharedTickMessages.self)
        #expect(builds == 1)
        #expect(first.target === a && second.target === b)
        #expect(handler(second, Self.tick) === handler(first, Self.tick))
        #expect(handler(second, Self.name) === handler(first, Self.name))
        // Another protocol, a subclass: their own sets.
        let otherProtocol = responder(a, SharedNameMessages.self)
        #expect(builds == 2)
        #expect(handler(otherProtocol, Self.name) !== handler(first, Self.name))
        let loud = SharedLoudCounter()
        let subclass = responder(loud, SharedTickMessages.self)
        #expect(builds == 3)
        #expect(handler(subclass, Self.name) !== handler(first, Self.name))
        let entry = SharedHandlers.single.entry(of: SharedCounter.self, answering: SharedTickMessages.self)
        #expect(entry.builds == 1)
        #expect(entry.handlers[Self.tick.id] == handler(first, Self.tick).map { ObjectIdentifier($0) })
        let chain = DelegateChain()
        chain.add(second)
        chain.add(subclass)
        chain.send(Self.tick, 2)
        #expect(a.total == 0 && b.total == 2 && loud.total == 2)
        chain.remove(b)
        #expect(chain.send(Self.name, default: "none") == "loud shared counter")
    }

    enum NestingTickMessages {}

    final class NestingCounter: Listener {
        func tick(_ value: Int) {}
        func name() -> String { "nesting counter" }
    }

    /// A listener that is a proxy itself: it has a chain to nest.
    final class NestingProxy: Listener {
        let chain = DelegateChain()
        func tick(_ value: Int) {}
        func name() -> String { "nesting proxy" }
    }

    @Test func whetherAListenerIsAProxyIsAskedOncePerPlainClass() {
        var asked: [ObjectIdentifier] = []
        func lookUp(_ target: some Listener) -> (responder: AnyResponder, nesting: DelegateChain?) {
            ResponderCache.responder(
                of: target, answering: NestingTickMessages.self, { target.listenerResponder },
                nesting: { listener in
                    asked.append(ObjectIdentifier(listener))
                    return (listener as? NestingProxy)?.chain
                })
        }
        let plain = (0..<3).map { _ in NestingCounter() }
        let found = plain.map(lookUp)
        // The first plain listener is asked, and no later one of its class.
        #expect(asked == [ObjectIdentifier(plain[0])])
        #expect(found.allSatisfy { $0.nesting == nil })
        #expect(zip(found, plain).allSatisfy { $0.responder.target === $1 })
        #expect(handler(found[2].responder, Self.tick) === handler(found[0].responder, Self.tick))
        // Every proxy listener is asked, for its own chain.
        asked = []
        let proxies = (0..<2).map { _ in NestingProxy() }
        let nested = proxies.map(lookUp)
        #expect(asked == proxies.map { ObjectIdentifier($0) })
        #expect(zip(nested, proxies).allSatisfy { $0.nesting === $1.chain && $0.responder.target === $1 })
        #expect(SharedHandlers.single.entry(of: NestingProxy.self, answering: NestingTickMessages.self).builds == 1)
    }

    /// A protocol whose conformers may leave out `finish`: its default declines.
    protocol Finishing: AnyObject {
        func finish()
    }

    final class NonFinisher: Finishing {}

    enum FinishingMessages {}

    @Test func aHandlerFoundDeclinedInOneChainIsLeftOutForLaterListenersAnywhere() {
        let (first, second) = (DelegateChain(), DelegateChain())
        let (x, y) = (NonFinisher(), NonFinisher())
        first.add(ResponderCache.responder(of: x, answering: FinishingMessages.self) { x.finishingResponder })
        first.send(requirement: Self.finish, ()) // asks x, whose default declines
        var builds = 0
        let later = ResponderCache.responder(of: y, answering: FinishingMessages.self) {
            builds += 1
            return y.finishingResponder
        }
        #expect(builds == 0)
        #expect(!later.answers(Self.finish))
        second.add(later)
        #expect(!second.responds(to: Self.finish))
    }
}

extension ResponderCacheTests {
    static let finish = Message<Void, Void>("responderCacheTests.finish")
}

extension ResponderCacheTests.Finishing {
    func finish() { _ = RequirementDefaults.declines(ResponderCacheTests.finish, self) }

    var finishingResponder: AnyResponder {
        AnyResponder(
            self, responses: Responses<Self>().on(requirement: ResponderCacheTests.finish) { me in me.finish() })
    }
}

extension ResponderCacheTests.Listener {
    var listenerResponder: AnyResponder {
        AnyResponder(
            self,
            responses: Responses<Self>()
                .on(ResponderCacheTests.tick) { me, value in me.tick(value) }
                .on(ResponderCacheTests.name) { me in me.name() })
    }
}

extension ResponderCacheTests.Namer {
    var namerResponder: AnyResponder {
        AnyResponder(self, responses: Responses<Self>().on(ResponderCacheTests.name) { me in me.name() })
    }
}

protocol SendableListener: AnyObject, Sendable {
    func tick(_ value: Int)
}

extension SendableListener {
    var sendableListenerResponder: AnySendableResponder {
        AnySendableResponder(
            self, responses: SendableResponses<Self>().on(ResponderCacheTests.tick) { me, value in me.tick(value) })
    }
}
