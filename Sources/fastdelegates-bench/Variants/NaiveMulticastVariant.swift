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
        case .tick: .tick(n, Multiplexer())
        case .first: .first(n, Multiplexer())
        case .responds: .responds(n, Multiplexer())
        case .churn: .churn(Multiplexer(), targets: n)
        case .lookup, .xml, .lifecycle: nil
        }
    }

    /// A `MulticastDelegate` of targets reached through the delegate protocol.
    struct Multiplexer: Membership, FirstAnswering, Responding {
        let multicast = MulticastDelegate<any ScrollDelegate>()

        @inline(__always) func tick(_ value: Int) { multicast.invoke { $0.scrollTick(value) } }
        @inline(__always) func first(_ value: Int) -> Int? { multicast.first { $0.firstResponder(value) } }
        @inline(__always) var respondsToTick: Bool { multicast.responds }
        @inline(__always) func add(_ target: BenchTarget) { multicast.add(target) }
        @inline(__always) func remove(_ target: BenchTarget) { multicast.remove(target) }
    }
}
