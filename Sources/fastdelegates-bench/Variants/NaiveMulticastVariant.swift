/// A naive multicast delegate in the style of jonasman/MulticastDelegate: an array of weak
/// boxes, each target cast with `as?` to the delegate protocol at every call.
final class MulticastDelegate<T> {
    private struct Weak {
        weak var value: AnyObject?
    }

    private var delegates: [Weak] = []

    /// Adds a delegate (dropping dead boxes on the way).
    func add(_ delegate: T) {
        delegates.removeAll { $0.value == nil }
        delegates.append(Weak(value: delegate as AnyObject))
    }

    /// Removes a delegate.
    func remove(_ delegate: T) {
        let object = delegate as AnyObject
        delegates.removeAll { $0.value === object || $0.value == nil }
    }

    /// Calls `body` on every live delegate that is a `T`.
    func invoke(_ body: (T) -> Void) {
        for box in delegates {
            if let delegate = box.value as? T { body(delegate) }
        }
    }

    /// The first live delegate's answer.
    func first<R>(_ body: (T) -> R) -> R? {
        for box in delegates {
            if let delegate = box.value as? T { return body(delegate) }
        }
        return nil
    }

    /// Whether some live delegate is a `T`.
    var responds: Bool {
        delegates.contains { $0.value is T }
    }
}

enum NaiveMulticastVariant {
    static let variant = Variant(name: "naive-weak-multicast") { scenario, n in
        switch scenario {
        case .tick: TickRunner(n)
        case .first: FirstRunner(n)
        case .responds: RespondsRunner(n)
        case .churn: Churn(n)
        case .lookup: nil
        }
    }

    static func multicast(_ targets: [BenchTarget]) -> MulticastDelegate<any ScrollDelegate> {
        let multicast = MulticastDelegate<any ScrollDelegate>()
        for target in targets { multicast.add(target) }
        return multicast
    }

    final class TickRunner: Runner {
        let targets: [BenchTarget]
        let multicast: MulticastDelegate<any ScrollDelegate>
        init(_ n: Int) {
            targets = BenchTarget.make(n)
            multicast = NaiveMulticastVariant.multicast(targets)
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { multicast.invoke { $0.scrollTick(base &+ i) } }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let targets: [BenchTarget]
        let multicast: MulticastDelegate<any ScrollDelegate>
        var answers = 0
        init(_ n: Int) {
            targets = BenchTarget.make(n)
            multicast = NaiveMulticastVariant.multicast(targets)
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var sum = 0
            for i in 0..<count { sum &+= multicast.first { $0.firstResponder(base &+ i) } ?? 0 }
            answers &+= sum
        }
        var checksum: Int { answers }
    }

    final class RespondsRunner: Runner {
        let targets: [BenchTarget]
        let multicast: MulticastDelegate<any ScrollDelegate>
        var trues = 0
        init(_ n: Int) {
            targets = BenchTarget.make(n)
            multicast = NaiveMulticastVariant.multicast(targets)
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var found = 0
            for _ in 0..<count where multicast.responds { found &+= 1 }
            trues &+= found
        }
        var checksum: Int { trues }
    }

    final class Churn: Churning {
        let churn = ChurnState<BenchTarget>()
        init(_ n: Int) { setUpChurn(n) }
        let multicast = MulticastDelegate<any ScrollDelegate>()
        func makeTarget(bank: Bank) -> BenchTarget { BenchTarget(id: 1, bank: bank) }
        func sum(of target: BenchTarget) -> Int { target.sum }
        func add(_ target: BenchTarget) { multicast.add(target) }
        func remove(_ target: BenchTarget) { multicast.remove(target) }
        func tick(_ value: Int) { multicast.invoke { $0.scrollTick(value) } }
    }
}
