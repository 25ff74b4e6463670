import FastDelegates

/// A `@DelegateProxy` proxy (the checked-in expansion in `BenchScrollDelegate+Generated.swift`):
/// the host calls the protocol method on the proxy in its delegate slot, and the proxy sends
/// through its chain to weakly held listeners. Against `fastdelegates-weak`, what the generated
/// forwarding adds.
enum ProxyVariant {
    static let variant = Variant(name: "fastdelegates-proxy") { scenario, n in
        let targets = BenchTarget.make(n)
        return switch scenario {
        case .tick: .tick(Host(targets), targets: targets)
        case .first: .first(Host(targets), targets: targets)
        default: nil
        }
    }

    /// A host's delegate: the proxy behind the protocol, with the listeners added in one line each.
    struct Host: Ticking, FirstAnswering {
        let proxy = BenchScrollDelegateProxy()
        /// Held strongly here: a host's weak load is the host's cost, the same for any delegate.
        let delegate: any BenchScrollDelegate

        init(_ targets: [BenchTarget]) {
            for target in targets { proxy.add(target) }
            delegate = proxy
        }

        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
    }
}

extension BenchTarget: BenchScrollDelegate {}
