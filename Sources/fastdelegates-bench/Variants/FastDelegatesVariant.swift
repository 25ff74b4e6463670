import FastDelegates

/// FastDelegates' `DelegateChain`, with weak or strong retention, breaking or not.
enum FastDelegatesVariant {
    static func variant(retention: Retention, mode: DelegateChain.Mode) -> Variant {
        let name = "fastdelegates-\(retention == .weak ? "weak" : "strong")\(mode == .breaking ? "-breaking" : "")"
        return Variant(name: name, breaking: mode == .breaking) { scenario, n in
            typealias Chain = ChainMultiplexer<BenchTarget>
            return switch (scenario, mode) {
            case (.tick, _): .tick(n, Chain(retention: retention, mode: mode))
            case (.first, .nonBreaking): .first(n, Chain(retention: retention))
            case (.responds, .nonBreaking): .responds(n, Chain(retention: retention))
            case (.churn, .nonBreaking): .churn(Chain(retention: retention), targets: n)
            case (.lookup(let messages), .nonBreaking) where retention == .weak: .lookup(Chain(), messages: messages)
            default: nil
            }
        }
    }
}

/// FastDelegates' `DelegateChain`, of targets of one kind: the multiplexer of the
/// `fastdelegates-*` variants and of `fastdelegates-weak-reference`.
struct ChainMultiplexer<Target: SummingTarget & DelegateResponder>: Membership, FirstAnswering, Responding {
    let chain: DelegateChain
    let retention: Retention

    init(retention: Retention = .weak, mode: DelegateChain.Mode = .nonBreaking) {
        chain = DelegateChain(mode: mode)
        self.retention = retention
    }

    @inline(__always) func tick(_ value: Int) { chain.send(Bench.tick, value) }
    @inline(__always) func first(_ value: Int) -> Int? { chain.send(Bench.first, value) }
    @inline(__always) var respondsToTick: Bool { chain.responds(to: Bench.tick) }
    @inline(__always) func add(_ target: Target) { chain.add(target, retention: retention) }
    @inline(__always) func remove(_ target: Target) { chain.remove(target) }
    var removesEveryStep: Bool { retention == .strong }
}

extension ChainMultiplexer: LookupFillable where Target == BenchTarget {
    static func fillerMessage(_ name: String) -> Message<Int, Void> { Message(name) }

    func addFiller(_ filler: BenchTarget, answering messages: ArraySlice<Message<Int, Void>>) {
        var responses = Responses<BenchTarget>()
        for message in messages { responses = responses.on(message) { me, value in me.sum &+= value } }
        chain.add(filler, responses: responses)
    }
}
