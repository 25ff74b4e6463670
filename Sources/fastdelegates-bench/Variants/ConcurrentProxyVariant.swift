import FastDelegates

/// A `@DelegateProxy(concurrent: true)` proxy of a nonisolated protocol (the checked-in expansion
/// in `BenchFrameDelegate+Generated.swift`): the host calls the protocol method on the proxy in
/// its delegate slot, and the proxy sends through its `ConcurrentDelegateChain` to weakly held
/// `Sendable` listeners. Against `concurrent-weak`, what the generated forwarding adds.
enum ConcurrentProxyVariant {
    static let variant = Variant(name: "concurrent-proxy") { scenario, n in
        let targets = BenchTarget.make(n)
        let proxy = BenchFrameDelegateProxy()
        for target in targets { proxy.add(target) }
        switch scenario {
        case .tick: return .tick(Host(delegate: proxy), targets: targets)
        case .first: return .first(Host(delegate: proxy), targets: targets)
        default: return nil
        }
    }

    /// A host's delegate: the protocol method called on whatever is in the slot.
    struct Host: Ticking, FirstAnswering {
        /// Held strongly here: a host's weak load is the host's cost, the same for any delegate.
        let delegate: any BenchFrameDelegate

        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
    }
}

extension BenchTarget: BenchFrameDelegate {}
