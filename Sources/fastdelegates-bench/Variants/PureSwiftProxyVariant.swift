import PureSwiftProxy

/// The plain-Swift `ProxyChain` (`[String: [Entry]]` of weak boxes and closures), weak targets.
enum PureSwiftProxyVariant {
    static let tick = ProxyMessage<Int, Void>(Bench.tickName)
    static let first = ProxyMessage<Int, Int>(Bench.firstName)
    static let responses = ProxyResponses<BenchTarget>()
        .on(tick) { me, value in me.sum &+= value }
        .on(first) { _, value in value &+ 1 }

    static let variant = Variant(name: "pure-swift-proxy") { scenario, n in
        switch scenario {
        case .tick: .tick(n, Multiplexer())
        case .first: .first(n, Multiplexer())
        case .responds: .responds(n, Multiplexer())
        case .lookup(let messages): .lookup(Multiplexer(), messages: messages)
        case .churn: .churn(Multiplexer(), targets: n)
        case .xml, .lifecycle: nil
        }
    }

    /// A `ProxyChain` of weak targets.
    struct Multiplexer: LookupFillable, FirstAnswering, Responding {
        typealias Target = BenchTarget
        let chain = ProxyChain()

        @inline(__always) func tick(_ value: Int) { chain.send(PureSwiftProxyVariant.tick, value) }
        @inline(__always) func first(_ value: Int) -> Int? { chain.send(PureSwiftProxyVariant.first, value) }
        @inline(__always) var respondsToTick: Bool { chain.responds(to: PureSwiftProxyVariant.tick) }
        @inline(__always) func add(_ target: BenchTarget) { chain.add(target, responses: responses) }
        @inline(__always) func remove(_ target: BenchTarget) { chain.remove(target) }

        static func fillerMessage(_ name: String) -> ProxyMessage<Int, Void> { ProxyMessage(name) }

        func addFiller(_ filler: BenchTarget, answering messages: ArraySlice<ProxyMessage<Int, Void>>) {
            var fillerResponses = ProxyResponses<BenchTarget>()
            for message in messages { fillerResponses = fillerResponses.on(message) { me, value in me.sum &+= value } }
            chain.add(filler, responses: fillerResponses)
        }
    }
}
