import FastDelegates

/// A bench target that owns a `DelegateLifetime`, so chains hold it in the tracked mode: the
/// same work as ``BenchTarget``.
final class TrackedBenchTarget: DelegateResponder, DelegateLifetimeTracking {
    let delegateLifetime = DelegateLifetime()
    var sum = 0
    let bank: Bank?

    init(bank: Bank? = nil) { self.bank = bank }

    deinit { bank?.total &+= sum }

    static let responses = SendableResponses<TrackedBenchTarget>()
        .on(Bench.tick) { me, value in me.sum &+= value }
        .on(Bench.first) { _, value in value &+ 1 }

    static func make(_ n: Int, bank: Bank? = nil) -> [TrackedBenchTarget] {
        (0..<n).map { _ in TrackedBenchTarget(bank: bank) }
    }
}

/// FastDelegates' tracked retention: targets that track their lifetime, held by an unowned
/// reference and called under `swift_tryRetain` (no Swift weak reference anywhere).
enum FastDelegatesTrackedVariant {
    static let variant = Variant(name: "fastdelegates-tracked") { scenario, n in
        switch scenario {
        case .tick: TickRunner(n)
        case .first: FirstRunner(n)
        case .responds: RespondsRunner(n)
        case .churn: ChurnRunner(n)
        default: nil
        }
    }

    static func chain(_ n: Int) -> (DelegateChain, [TrackedBenchTarget]) {
        let chain = DelegateChain()
        let targets = TrackedBenchTarget.make(n)
        for target in targets { chain.add(target) }
        return (chain, targets)
    }

    final class TickRunner: Runner {
        let chain: DelegateChain
        let targets: [TrackedBenchTarget]
        init(_ n: Int) { (chain, targets) = FastDelegatesTrackedVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { chain.send(Bench.tick, base &+ i) }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let chain: DelegateChain
        let targets: [TrackedBenchTarget]
        var answers = 0
        init(_ n: Int) { (chain, targets) = FastDelegatesTrackedVariant.chain(n) }
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
        let targets: [TrackedBenchTarget]
        var trues = 0
        init(_ n: Int) { (chain, targets) = FastDelegatesTrackedVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var found = 0
            for _ in 0..<count where chain.responds(to: Bench.tick) { found &+= 1 }
            trues &+= found
        }
        var checksum: Int { trues }
    }

    /// As FastDelegatesVariant.ChurnRunner: each step retires the oldest target (removed on
    /// even steps, dropped to die on odd ones), adds a fresh one, and ticks.
    final class ChurnRunner: Runner {
        let chain = DelegateChain()
        let bank = Bank()
        var live: [TrackedBenchTarget?]
        var cursor = 0
        var step = 0
        init(_ n: Int) {
            live = TrackedBenchTarget.make(n, bank: bank)
            for target in live { chain.add(target!) }
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count {
                if let old = live[cursor], step & 1 == 0 { chain.remove(old) }
                let fresh = TrackedBenchTarget(bank: bank)
                live[cursor] = fresh  // the old target dies here
                chain.add(fresh)
                cursor = cursor + 1 == live.count ? 0 : cursor + 1
                step &+= 1
                chain.send(Bench.tick, base &+ i)
            }
        }
        var checksum: Int { live.reduce(bank.total) { $0 &+ ($1?.sum ?? 0) } }
    }
}
