import FastDelegates

/// FastDelegates' `DelegateChain`, with weak or strong retention, breaking or not.
enum FastDelegatesVariant {
    static func variant(retention: Retention, mode: DelegateChain.Mode) -> Variant {
        let name = "fastdelegates-\(retention == .weak ? "weak" : "strong")\(mode == .breaking ? "-breaking" : "")"
        return Variant(name: name, breaking: mode == .breaking) { scenario, n in
            switch (scenario, mode) {
            case (.tick, _): TickRunner(n, retention: retention, mode: mode)
            case (.first, .nonBreaking): FirstRunner(n, retention: retention)
            case (.responds, .nonBreaking): RespondsRunner(n, retention: retention)
            case (.churn, .nonBreaking): Churn(n, retention: retention)
            case (.lookup(let messages), .nonBreaking) where retention == .weak: LookupRunner(messages: messages)
            default: nil
            }
        }
    }

    /// A chain of `n` fresh targets, and the targets (kept alive by the runner).
    static func chain(_ n: Int, retention: Retention, mode: DelegateChain.Mode = .nonBreaking)
        -> (DelegateChain, [BenchTarget])
    {
        let chain = DelegateChain(mode: mode)
        let targets = BenchTarget.make(n)
        for target in targets { chain.add(target, retention: retention) }
        return (chain, targets)
    }

    final class TickRunner: Runner {
        let chain: DelegateChain
        let targets: [BenchTarget]
        init(_ n: Int, retention: Retention, mode: DelegateChain.Mode) {
            (chain, targets) = FastDelegatesVariant.chain(n, retention: retention, mode: mode)
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { chain.send(Bench.tick, base &+ i) }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let chain: DelegateChain
        let targets: [BenchTarget]
        var answers = 0
        init(_ n: Int, retention: Retention) {
            (chain, targets) = FastDelegatesVariant.chain(n, retention: retention)
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var sum = 0
            for i in 0..<count { sum &+= chain.send(Bench.first, base &+ i) ?? 0 }
            answers &+= sum
        }
        var checksum: Int { answers }
    }

    final class RespondsRunner: Runner {
        let chain: DelegateChain
        let targets: [BenchTarget]
        var trues = 0
        init(_ n: Int, retention: Retention) {
            (chain, targets) = FastDelegatesVariant.chain(n, retention: retention)
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var found = 0
            for _ in 0..<count where chain.responds(to: Bench.tick) { found &+= 1 }
            trues &+= found
        }
        var checksum: Int { trues }
    }

    /// One tick target on a chain where `messages - 1` other messages are answered by filler
    /// targets (100 messages each), so the table holds `messages` distinct messages.
    final class LookupRunner: Runner {
        let chain = DelegateChain()
        let target = BenchTarget(id: 1)
        let fillers: [BenchTarget]
        init(messages: Int) {
            let names = lookupFillerNames(messages - 1)
            let messagesToAnswer = names.map { Message<Int, Void>($0) }
            var fillers: [BenchTarget] = []
            chain.add(target)
            for start in stride(from: 0, to: messagesToAnswer.count, by: 100) {
                let filler = BenchTarget(id: 0)
                var responses = Responses<BenchTarget>()
                for message in messagesToAnswer[start..<min(start + 100, messagesToAnswer.count)] {
                    responses = responses.on(message) { me, value in me.sum &+= value }
                }
                chain.add(filler, responses: responses)
                fillers.append(filler)
            }
            self.fillers = fillers
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { chain.send(Bench.tick, base &+ i) }
        }
        var checksum: Int { target.sum }
    }

    /// Keeps `n` live targets; each step retires the oldest (removed on even steps, dropped to
    /// die on odd ones when weak), adds a fresh one, and ticks.
    final class Churn: Churning {
        let churn = ChurnState<BenchTarget>()
        let chain = DelegateChain()
        let retention: Retention
        init(_ n: Int, retention: Retention) {
            self.retention = retention
            setUpChurn(n)
        }
        func makeTarget(bank: Bank) -> BenchTarget { BenchTarget(id: 1, bank: bank) }
        func sum(of target: BenchTarget) -> Int { target.sum }
        func add(_ target: BenchTarget) { chain.add(target, retention: retention) }
        func remove(_ target: BenchTarget) { chain.remove(target) }
        func tick(_ value: Int) { chain.send(Bench.tick, value) }
        var removesEveryStep: Bool { retention == .strong }
    }
}

/// Names of the filler messages of the lookup scenario (the same for every variant).
func lookupFillerNames(_ count: Int) -> [String] {
    (0..<max(0, count)).map { "benchFillerMessage\($0):" }
}
