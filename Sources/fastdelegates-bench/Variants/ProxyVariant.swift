import FastDelegates

/// A `@DelegateProxy` proxy (the checked-in expansion in `BenchScrollDelegate+Generated.swift`):
/// the host calls the protocol method on the proxy in its delegate slot, and the proxy sends
/// through its chain to weakly held listeners. Against `fastdelegates-weak`, what the generated
/// forwarding adds.
enum ProxyVariant {
    static let variant = Variant(name: "fastdelegates-proxy") { scenario, n in
        switch scenario {
        case .tick: TickRunner(n)
        case .first: FirstRunner(n)
        default: nil
        }
    }

    /// A host's delegate: the proxy behind the protocol, with `n` listeners added in one line each.
    class ProxyHost {
        let proxy = BenchScrollDelegateProxy()
        /// Held strongly here: a host's weak load is the host's cost, the same for any delegate.
        let delegate: any BenchScrollDelegate
        let targets: [BenchTarget]

        init(_ n: Int) {
            targets = BenchTarget.make(n)
            for target in targets { proxy.add(target) }
            delegate = proxy
        }
    }

    final class TickRunner: ProxyHost, Runner {
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { delegate.scrollTick(base &+ i) }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: ProxyHost, Runner {
        var answers = 0
        @inline(never)
        func run(_ count: Int, base: Int) {
            var sum = 0
            for i in 0..<count { sum &+= delegate.firstResponder(base &+ i) }
            answers &+= sum
        }
        var checksum: Int { answers }
    }
}

extension BenchTarget: BenchScrollDelegate {}
