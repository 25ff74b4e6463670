@_spi(Testing) import FastDelegates

/// A bench target that chains hold with a Swift `weak` reference, as they hold
/// Objective-C-rooted objects on Apple platforms: the same work as ``BenchTarget``.
final class WeakReferenceBenchTarget: DelegateResponder {
    var sum = 0
    let bank: Bank?

    init(bank: Bank? = nil) {
        _ = Self.onWeakReferencePath
        self.bank = bank
    }

    private static let onWeakReferencePath: Void = useWeakReferenceHold(for: WeakReferenceBenchTarget.self)

    deinit { bank?.total &+= sum }

    static let responses = SendableResponses<WeakReferenceBenchTarget>()
        .on(Bench.tick) { me, value in me.sum &+= value }
        .on(Bench.first) { _, value in value &+ 1 }

    static func make(_ n: Int, bank: Bank? = nil) -> [WeakReferenceBenchTarget] {
        (0..<n).map { _ in WeakReferenceBenchTarget(bank: bank) }
    }
}

/// FastDelegates' fallback weak hold: a `DelegateChain` holding its targets with a Swift `weak`
/// reference (the hold of Objective-C-rooted objects on Apple platforms), where a plain Swift
/// class gets the zeroing fast path (`fastdelegates-weak`).
enum FastDelegatesWeakReferenceVariant {
    static let variant = Variant(name: "fastdelegates-weak-reference") { scenario, n in
        switch scenario {
        case .tick: TickRunner(n)
        case .first: FirstRunner(n)
        case .responds: RespondsRunner(n)
        case .churn: Churn(n)
        default: nil
        }
    }

    static func chain(_ n: Int) -> (DelegateChain, [WeakReferenceBenchTarget]) {
        let chain = DelegateChain()
        let targets = WeakReferenceBenchTarget.make(n)
        for target in targets { chain.add(target) }
        return (chain, targets)
    }

    final class TickRunner: Runner {
        let chain: DelegateChain
        let targets: [WeakReferenceBenchTarget]
        init(_ n: Int) { (chain, targets) = FastDelegatesWeakReferenceVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { chain.send(Bench.tick, base &+ i) }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let chain: DelegateChain
        let targets: [WeakReferenceBenchTarget]
        var answers = 0
        init(_ n: Int) { (chain, targets) = FastDelegatesWeakReferenceVariant.chain(n) }
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
        let targets: [WeakReferenceBenchTarget]
        var trues = 0
        init(_ n: Int) { (chain, targets) = FastDelegatesWeakReferenceVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var found = 0
            for _ in 0..<count where chain.responds(to: Bench.tick) { found &+= 1 }
            trues &+= found
        }
        var checksum: Int { trues }
    }

    final class Churn: Churning {
        let churn = ChurnState<WeakReferenceBenchTarget>()
        init(_ n: Int) { setUpChurn(n) }
        let chain = DelegateChain()
        func makeTarget(bank: Bank) -> WeakReferenceBenchTarget { WeakReferenceBenchTarget(bank: bank) }
        func sum(of target: WeakReferenceBenchTarget) -> Int { target.sum }
        func add(_ target: WeakReferenceBenchTarget) { chain.add(target) }
        func remove(_ target: WeakReferenceBenchTarget) { chain.remove(target) }
        func tick(_ value: Int) { chain.send(Bench.tick, value) }
    }
}
