import FastDelegates

/// A `@DelegateProxy` proxy (the checked-in expansion in `BenchScrollDelegate+Generated.swift`):
/// the host calls the protocol method on the proxy in its delegate slot, and the proxy sends
/// through its chain to weakly held listeners. Against `fastdelegates-weak`, what the generated
/// forwarding adds; against `handwritten-forwarder`, what it saves over the glue it replaces.
enum ProxyVariant {
    static let variant = Variant(name: "fastdelegates-proxy") { scenario, n in
        ScrollProxyCopies.hosted(scenario, n, sparse: false)
    }

    /// The same calling situation with the per-method glue the macro replaces, written by hand:
    /// a class conforming to the protocol whose methods send `Message`s through a chain.
    static let handWritten = Variant(name: "handwritten-forwarder") { scenario, n in
        let forwarder = Forwarder()
        return .hosted(scenario, n, Host(delegate: forwarder)) { forwarder.chain.add($0.benchScrollDelegateResponder) }
    }

    /// A host's delegate: the protocol method called on whatever is in the slot.
    struct Host: Ticking, FirstAnswering {
        /// Held strongly here: a host's weak load is the host's cost, the same for any delegate.
        let delegate: any BenchScrollDelegate

        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
    }

    /// A forwarding class as written before the macro: one method per requirement, each sending
    /// its message through the chain.
    final class Forwarder: BenchScrollDelegate {
        let chain = DelegateChain()

        func scrollTick(_ value: Int) { chain.send(BenchScrollDelegateMessages.scrollTick, value) }

        func firstResponder(_ value: Int) -> Int {
            chain.send(BenchScrollDelegateMessages.firstResponder, value, default: 0)
        }
    }
}

extension BenchTarget: BenchScrollDelegate {}
