/// A proxy that forwards requirements through a ``DelegateChain``: what every nonisolated
/// `@DelegateProxy` proxy conforms to.
///
/// Each `@DelegateProxy` protocol also extends itself where `Self` conforms to this protocol
/// (or to ``MainActorDelegateForwarding`` or ``ConcurrentDelegateForwarding``, after its
/// isolation) with a forwarding implementation of each of its requirements, and with
/// `add(_:retention:)` and `remove(_:)` for its listeners. So the proxy of a protocol that
/// refines another annotated protocol forwards the parent's requirements too, and takes
/// listeners that conform to the parent only, even when the parent is declared in another
/// module: the child's macro knows its parents only by name.
///
/// You do not conform to it yourself; the generated proxies do.
public protocol DelegateForwarding: AnyObject {
    /// The chain the proxy sends every requirement through.
    var forwardingChain: DelegateChain { get }
    /// The handlers the proxy shares among its listeners of one class (``ResponderCache``).
    var forwardingResponders: ResponderCache { get }
}

/// ``DelegateForwarding`` for a `@MainActor` proxy: the same members, on the main actor.
public protocol MainActorDelegateForwarding: AnyObject {
    /// The chain the proxy sends every requirement through.
    @MainActor var forwardingChain: DelegateChain { get }
    /// The handlers the proxy shares among its listeners of one class (``ResponderCache``).
    @MainActor var forwardingResponders: ResponderCache { get }
}

/// ``DelegateForwarding`` for the `Sendable` proxy of a protocol that refines `Sendable`: over a
/// ``ConcurrentDelegateChain``.
public protocol ConcurrentDelegateForwarding: AnyObject, Sendable {
    /// The chain the proxy sends every requirement through.
    var forwardingChain: ConcurrentDelegateChain { get }
    /// The handlers the proxy shares among its listeners of one class (``SendableResponderCache``).
    var forwardingResponders: SendableResponderCache { get }
}
