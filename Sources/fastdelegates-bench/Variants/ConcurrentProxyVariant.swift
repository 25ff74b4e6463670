import FastDelegates

/// A `@DelegateProxy(concurrent: true)` proxy of a nonisolated protocol (the checked-in expansion
/// in `BenchFrameDelegate+Generated.swift`): the host calls the protocol method on the proxy in
/// its delegate slot, and the proxy sends through its `ConcurrentDelegateChain` to weakly held
/// `Sendable` listeners. Against `concurrent-weak`, what the generated forwarding adds; against
/// `handwritten-concurrent-forwarder`, what it saves over the glue it replaces.
enum ConcurrentProxyVariant {
    static let variant = Variant(name: "concurrent-proxy") { scenario, n in
        let proxy = BenchFrameDelegateProxy()
        return .hosted(scenario, n, Host(delegate: proxy)) { proxy.add($0) }
    }

    /// The same calling situation with the per-method glue the macro replaces, written by hand:
    /// a `Sendable` class conforming to the protocol whose methods send `Message`s through a
    /// concurrent chain. What any object in the slot that sends through the chain costs.
    static let handWritten = Variant(name: "handwritten-concurrent-forwarder") { scenario, n in
        let forwarder = Forwarder()
        return .hosted(scenario, n, Host(delegate: forwarder)) {
            forwarder.chain.add($0.benchFrameDelegateSendableResponder)
        }
    }

    /// A host's delegate: the protocol method called on whatever is in the slot.
    struct Host: Ticking, FirstAnswering {
        /// Held strongly here: a host's weak load is the host's cost, the same for any delegate.
        let delegate: any BenchFrameDelegate

        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
    }

    /// A forwarding class as written before the macro: one method per requirement, each sending
    /// its message through the concurrent chain.
    final class Forwarder: BenchFrameDelegate, Sendable {
        let chain = ConcurrentDelegateChain()

        func scrollTick(_ value: Int) { chain.send(BenchFrameDelegateMessages.scrollTick, value) }

        func firstResponder(_ value: Int) -> Int {
            chain.send(BenchFrameDelegateMessages.firstResponder, value, default: 0)
        }
    }
}

extension BenchTarget: BenchFrameDelegate {}
