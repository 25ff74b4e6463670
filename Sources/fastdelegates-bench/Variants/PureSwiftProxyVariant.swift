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
        case .tick: .tick(Populated(n, Multiplexer()))
        case .first: .first(Populated(n, Multiplexer()))
        case .responds: .responds(Populated(n, Multiplexer()))
        case .lookup(let messages): .tick(Lookup(Multiplexer(), messages: messages))
        case .churn: .churn(Multiplexer(), targets: n)
        }
    }

    /// A `ProxyChain` of weak targets.
    struct Multiplexer: LookupFillable, FirstAnswering, Responding {
        let chain = ProxyChain()

        @inline(__always) func tick(_ value: Int) { chain.send(PureSwiftProxyVariant.tick, value) }
        @inline(__always) func first(_ value: Int) -> Int? { chain.send(PureSwiftProxyVariant.first, value) }
        @inline(__always) var respondsToTick: Bool { chain.responds(to: PureSwiftProxyVariant.tick) }
        @inline(__always) func add(_ target: BenchTarget) { chain.add(target, responses: responses) }
        @inline(__always) func remove(_ target: BenchTarget) { chain.remove(target) }

        func addFiller(_ filler: BenchTarget, answering names: ArraySlice<String>) {
            let fillerResponses = names.reduce(ProxyResponses<BenchTarget>()) { responses, name in
                responses.on(ProxyMessage<Int, Void>(name)) { me, value in me.sum &+= value }
            }
            chain.add(filler, responses: fillerResponses)
        }
    }
}
