import FastDelegates

/// A `@DelegateProxy` proxy (the checked-in expansion in `BenchScrollDelegate+Generated.swift`):
/// the host calls the protocol method on the proxy in its delegate slot, and the proxy sends
/// through its chain to weakly held listeners. Against `fastdelegates-weak`, what the generated
/// forwarding adds.
enum ProxyVariant {
    static let variant = Variant(name: "fastdelegates-proxy") { scenario, n in
        switch scenario {
        case .tick: .tick(Host(n))
        case .first: .first(Host(n))
        default: nil
        }
    }

    /// A host's delegate: the proxy behind the protocol, with `n` listeners added in one line each.
    struct Host: Ticking, FirstAnswering {
        let proxy = BenchScrollDelegateProxy()
        /// Held strongly here: a host's weak load is the host's cost, the same for any delegate.
        let delegate: any BenchScrollDelegate
        let targets: [BenchTarget]

        init(_ n: Int) {
            targets = BenchTarget.make(n)
            for target in targets { proxy.add(target) }
            delegate = proxy
        }

        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
        var tickSum: Int { targets.tickSum }
    }
}

extension BenchTarget: BenchScrollDelegate {}
