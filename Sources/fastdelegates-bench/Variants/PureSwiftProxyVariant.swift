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
        case .tick: TickRunner(n)
        case .first: FirstRunner(n)
        case .responds: RespondsRunner(n)
        case .lookup(let messages): LookupRunner(messages: messages)
        case .churn: Churn(n)
        }
    }

    static func chain(_ n: Int) -> (ProxyChain, [BenchTarget]) {
        let chain = ProxyChain()
        let targets = BenchTarget.make(n)
        for target in targets { chain.add(target, responses: responses) }
        return (chain, targets)
    }

    final class TickRunner: Runner {
        let chain: ProxyChain
        let targets: [BenchTarget]
        init(_ n: Int) { (chain, targets) = PureSwiftProxyVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { chain.send(tick, base &+ i) }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let chain: ProxyChain
        let targets: [BenchTarget]
        var answers = 0
        init(_ n: Int) { (chain, targets) = PureSwiftProxyVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var sum = 0
            for i in 0..<count { sum &+= chain.send(first, base &+ i) ?? 0 }
            answers &+= sum
        }
        var checksum: Int { answers }
    }

    final class RespondsRunner: Runner {
        let chain: ProxyChain
        let targets: [BenchTarget]
        var trues = 0
        init(_ n: Int) { (chain, targets) = PureSwiftProxyVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var found = 0
            for _ in 0..<count where chain.responds(to: tick) { found &+= 1 }
            trues &+= found
        }
        var checksum: Int { trues }
    }

    final class LookupRunner: Runner {
        let chain = ProxyChain()
        let target = BenchTarget(id: 1)
        let fillers: [BenchTarget]
        init(messages: Int) {
            let messagesToAnswer = lookupFillerNames(messages - 1).map { ProxyMessage<Int, Void>($0) }
            var fillers: [BenchTarget] = []
            chain.add(target, responses: responses)
            for start in stride(from: 0, to: messagesToAnswer.count, by: 100) {
                let filler = BenchTarget(id: 0)
                var fillerResponses = ProxyResponses<BenchTarget>()
                for message in messagesToAnswer[start..<min(start + 100, messagesToAnswer.count)] {
                    fillerResponses = fillerResponses.on(message) { me, value in me.sum &+= value }
                }
                chain.add(filler, responses: fillerResponses)
                fillers.append(filler)
            }
            self.fillers = fillers
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { chain.send(tick, base &+ i) }
        }
        var checksum: Int { target.sum }
    }

    final class Churn: Churning {
        let churn = ChurnState<BenchTarget>()
        init(_ n: Int) { setUpChurn(n) }
        let chain = ProxyChain()
        func makeTarget(bank: Bank) -> BenchTarget { BenchTarget(id: 1, bank: bank) }
        func sum(of target: BenchTarget) -> Int { target.sum }
        func add(_ target: BenchTarget) { chain.add(target, responses: responses) }
        func remove(_ target: BenchTarget) { chain.remove(target) }
        func tick(_ value: Int) { chain.send(PureSwiftProxyVariant.tick, value) }
    }
}
