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
    /// The handlers the proxy shares among its listeners of one class (``ResponderCache``): what
    /// the files of generated-file format 1 use. The proxies of later formats share them for the
    /// process (``ResponderCache/responder(of:answering:_:)``) and take the default, an empty cache.
    var forwardingResponders: ResponderCache { get }
}

extension DelegateForwarding {
    /// A new, empty cache: a proxy that shares its listeners' handlers for the process keeps none,
    /// and a format-1 parent's `add` through it then registers each listener's responder as built.
    public var forwardingResponders: ResponderCache { ResponderCache() }
}

/// ``DelegateForwarding`` for a `@MainActor` proxy: the same members, on the main actor.
public protocol MainActorDelegateForwarding: AnyObject {
    /// The chain the proxy sends every requirement through.
    @MainActor var forwardingChain: DelegateChain { get }
    /// The handlers the proxy shares among its listeners of one class (``ResponderCache``): what
    /// the files of generated-file format 1 use (see ``DelegateForwarding``).
    @MainActor var forwardingResponders: ResponderCache { get }
}

extension MainActorDelegateForwarding {
    /// A new, empty cache (see ``DelegateForwarding``).
    @MainActor public var forwardingResponders: ResponderCache { ResponderCache() }
}

/// ``DelegateForwarding`` for the `Sendable` proxy of a protocol that refines `Sendable`: over a
/// ``ConcurrentDelegateChain``.
public protocol ConcurrentDelegateForwarding: AnyObject, Sendable {
    /// The chain the proxy sends every requirement through.
    var forwardingChain: ConcurrentDelegateChain { get }
    /// The handlers the proxy shares among its listeners of one class (``SendableResponderCache``):
    /// what the files of generated-file format 1 use (see ``DelegateForwarding``).
    var forwardingResponders: SendableResponderCache { get }
}

extension ConcurrentDelegateForwarding {
    /// A new, empty cache (see ``DelegateForwarding``).
    public var forwardingResponders: SendableResponderCache { SendableResponderCache() }
}

/// What the messages namespaces of the proxies over a ``DelegateChain`` share
/// (``MainActorProxyMessages`` and ``NonisolatedProxyMessages``): the types their proxies are
/// made of, for a refining protocol that inherits its isolation without declaring it.
public protocol DelegateChainProxyMessages {}

extension DelegateChainProxyMessages {
    /// The namespace whose isolation the protocol's descendants inherit: this one.
    public typealias ProxyIsolationRoot = Self
    /// The proxy's chain.
    public typealias ProxyChain = DelegateChain
    /// The token of an `add`.
    public typealias ProxyToken = DelegateToken
    /// The handlers shared among listeners of one class.
    public typealias ProxyResponderCache = ResponderCache
    /// A conformer's responder.
    public typealias ProxyResponder = AnyResponder
    /// A conformer's responses.
    public typealias ProxyResponses<Target: AnyObject> = Responses<Target>
}

/// The messages namespace of a `@MainActor` `@DelegateProxy` protocol (see
/// ``DelegateChainProxyMessages``).
public protocol MainActorProxyMessages: DelegateChainProxyMessages {}

/// The messages namespace of a nonisolated `@DelegateProxy` protocol (see
/// ``DelegateChainProxyMessages``).
public protocol NonisolatedProxyMessages: DelegateChainProxyMessages {}

/// The messages namespace of a `Sendable` `@DelegateProxy` protocol: see ``DelegateChainProxyMessages``.
public protocol SendableProxyMessages {}

extension SendableProxyMessages {
    /// The namespace whose isolation the protocol's descendants inherit: this one.
    public typealias ProxyIsolationRoot = Self
    /// The proxy's chain.
    public typealias ProxyChain = ConcurrentDelegateChain
    /// The token of an `add`.
    public typealias ProxyToken = ConcurrentDelegateToken
    /// The handlers shared among listeners of one class.
    public typealias ProxyResponderCache = SendableResponderCache
    /// A conformer's responder.
    public typealias ProxyResponder = AnySendableResponder
    /// A conformer's responses.
    public typealias ProxyResponses<Target: AnyObject> = SendableResponses<Target>
}
