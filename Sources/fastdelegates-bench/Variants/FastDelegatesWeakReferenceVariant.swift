@_spi(Testing) import FastDelegates

/// A bench target that chains hold with a Swift `weak` reference, as they hold
/// Objective-C-rooted objects on Apple platforms: the same work as ``BenchTarget``.
final class WeakReferenceBenchTarget: DelegateResponder, SummingTarget {
    var sum = 0
    let bank: Bank?

    init(bank: Bank? = nil) {
        _ = Self.onWeakReferencePath
        self.bank = bank
    }

    convenience init(churnBank bank: Bank) { self.init(bank: bank) }

    private static let onWeakReferencePath: Void = useWeakReferenceHold(for: WeakReferenceBenchTarget.self)

    deinit { bank?.total &+= sum }

    static let responses = SendableResponses<WeakReferenceBenchTarget>()
        .on(Bench.tick) { me, value in me.sum &+= value }
        .on(Bench.first) { _, value in value &+ 1 }

    static func make(_ n: Int) -> [WeakReferenceBenchTarget] {
        (0..<n).map { _ in WeakReferenceBenchTarget() }
    }
}

/// FastDelegates' fallback weak hold: a `DelegateChain` holding its targets with a Swift `weak`
/// reference (the hold of Objective-C-rooted objects on Apple platforms), where a plain Swift
/// class gets the zeroing fast path (`fastdelegates-weak`).
enum FastDelegatesWeakReferenceVariant {
    static let variant = Variant(name: "fastdelegates-weak-reference") { scenario, n in
        typealias Chain = ChainMultiplexer<WeakReferenceBenchTarget>
        return switch scenario {
        case .tick: .tick(n, Chain())
        case .first: .first(n, Chain())
        case .responds: .responds(n, Chain())
        case .churn: .churn(Chain(), targets: n)
        default: nil
        }
    }
}
