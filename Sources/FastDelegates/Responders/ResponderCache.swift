/// Shares the handlers of responders among targets of one class: a chain's listeners of one
/// type then use one set of handlers, wherever their responders were built.
///
/// A conformer's `…Responder` builds a new set of handlers each time it is read, and without a
/// cache every listener would keep its own copy alive (more memory, and a send to many listeners
/// reading handlers scattered over the heap). The proxies that `@DelegateProxy` generates share
/// them process-wide, through ``responder(of:answering:_:)``, which builds nothing for a class
/// seen before; an instance is for the responders you build yourself and whose handlers depend
/// only on their target's type:
///
/// ```swift
/// let responders = ResponderCache()
/// chain.add(responders.shared(listener.responder))
/// ```
///
/// The handlers of the first responder given for a class serve every later responder whose target
/// has exactly that class (a subclass gets its own) and that answers the same messages: responders
/// of two protocols for one class (a listener of two proxies that share a cache) keep their own
/// sets. A handler that a requirement's send found declining (the class does not implement that
/// requirement: see ``RequirementDispatching``) is left out, so a later listener of the class never
/// registers it. Not `Sendable`: keep it with its chain.
///
/// The key is the target's class as its type metadata's address. On Apple platforms two limits
/// follow, which generated responders never meet but a hand-built one could: instances of a class
/// cluster share one private class (`__NSCFString`) across their public types, so they share
/// handlers that call through that class; and a class created at run time and disposed
/// (`objc_disposeClassPair`) frees its address for another class. Pass only responders whose
/// handlers call the target through its class's conformance, as a protocol extension's do.
///
/// - Complexity: O(*m*) per call for a responder of *m* messages, to key it; one entry per class
///   and set of messages seen.
public final class ResponderCache {
    private var handlers: [ResponderKey: [UInt32: AnyHandler]] = [:]

    /// An empty cache.
    public init() {}

    /// `responder`'s target with the handlers of the first responder given for a target of its
    /// class: `responder`'s own the first time.
    ///
    /// Give it responders whose handlers depend on the target's type only (as a protocol
    /// extension's `responder` does), not on the target they were built for.
    public func shared(_ responder: AnyResponder) -> AnyResponder {
        let key = ResponderKey(responder.target, responder.handlers)
        guard var shared = handlers[key] else {
            handlers[key] = responder.handlers
            return responder
        }
        if let kept = withoutDeclined(shared) {
            shared = kept
            handlers[key] = shared
        }
        return AnyResponder(responder.target, handlers: shared)
    }
}

@available(*, unavailable, message: "ResponderCache is not thread-safe; keep it with its chain")
extension ResponderCache: Sendable {}

/// ``ResponderCache`` for ``AnySendableResponder``s, safe to use from any thread. Keyed as
/// ``ResponderCache`` is, with its limits. A proxy over a ``ConcurrentDelegateChain`` shares its
/// listeners' handlers process-wide instead (``responder(of:answering:_:)``).
///
/// - Complexity: O(*m*) per call for a responder of *m* messages, under a lock; one entry per
///   class and set of messages seen.
public final class SendableResponderCache: Sendable {
    // The handlers of `AnySendableResponder`s: immutable, with `@Sendable` bodies, as a
    // concurrent chain shares them between threads.
    private let handlers = HandoffMutex<[ResponderKey: Unchecked<[UInt32: AnyHandler]>]>([:])

    /// An empty cache.
    public init() {}

    /// `responder`'s target with the handlers of the first responder given for a target of its
    /// class: `responder`'s own the first time.
    ///
    /// Give it responders whose handlers depend on the target's type only, not on the target
    /// they were built for.
    public func shared(_ responder: AnySendableResponder) -> AnySendableResponder {
        let key = ResponderKey(responder.target, responder.handlers)
        let own = Unchecked(responder.handlers)
        let shared = handlers.withLock { handlers in
            if let shared = handlers[key] {
                guard let remaining = withoutDeclined(shared.value) else { return shared }
                let kept = Unchecked(remaining)
                handlers[key] = kept
                return kept
            }
            handlers[key] = own
            return own
        }
        return AnySendableResponder(responder.target, handlers: shared.value)
    }
}

/// `handlers` less those a send found declined (see ``HandlerStatus``), or nil when none was: what
/// every cache checks before it hands a shared set out again.
func withoutDeclined(_ handlers: [UInt32: AnyHandler]) -> [UInt32: AnyHandler]? {
    guard handlers.values.contains(where: { $0.status == .declined }) else { return nil }
    return handlers.filter { $0.value.status != .declined }
}

/// What the handlers of a responder built by a protocol extension depend on: the target's exact
/// class and the messages the responder answers (which tell one protocol's responder from
/// another's).
private struct ResponderKey: Hashable {
    let type: ObjectIdentifier
    let messages: [UInt32]

    init(_ target: AnyObject, _ handlers: [UInt32: AnyHandler]) {
        type = ObjectIdentifier(Swift.type(of: target))
        messages = handlers.keys.sorted()
    }
}

extension ResponderCache {
    /// `listener` answering the requirements of a `@DelegateProxy` protocol, whose messages
    /// namespace is `messages`, with the handlers that every listener of its exact class shares
    /// in every proxy of that protocol, process-wide: what a generated proxy's `add` calls.
    ///
    /// `build` (the conformer's `…Responder`) runs only for the first listener of a class and
    /// protocol (or of two threads racing on it, whose loser's set is dropped): a later `add`
    /// builds no handler and no dictionary. A requirement that a send found declined for the
    /// class (see ``RequirementDispatching``) is left out for every later listener of it, in
    /// whichever proxy it was found. The key is the class as ``shared(_:)`` keys it, with its
    /// limits; the table keeps one entry per class and protocol seen, for the process.
    ///
    /// For generated code: `build` returns the protocol extension's responder of `listener`,
    /// whose handlers depend on its class only and capture nothing, so that any proxy of the
    /// protocol, on any thread, may call them.
    ///
    /// - Complexity: O(1) under a process-wide lock when the listener's class is the last one
    ///   looked up and no handler was found declined since; else O(*m*) for a protocol of *m*
    ///   requirements (a dictionary lookup and a check of each handler's status); `build`'s cost
    ///   once per class.
    @inlinable
    public static func responder(
        of listener: AnyObject, answering messages: Any.Type, _ build: () -> AnyResponder
    ) -> AnyResponder {
        // Inlined, so that `build` runs where the listener's type may be known, and its handlers
        // call it directly, as those of a responder built there.
        let shared = SharedHandlers.single
        if let known = shared.handlers(of: listener, answering: messages) {
            return AnyResponder(listener, handlers: known)
        }
        return AnyResponder(listener, handlers: shared.keep(build().handlers, of: listener, answering: messages))
    }
}

extension ResponderCache {
    /// ``responder(of:answering:_:)``, and the chain of `listener` when it is itself a proxy of
    /// the protocol's kind, for ``DelegateChain/add(_:nesting:retention:)``: what the `add` of a
    /// proxy of generated-file format 3 calls.
    ///
    /// `nesting` (the cast of its argument to the protocol's forwarding kind, and its
    /// `forwardingChain`) runs for the first listener of a class, and then only for the listeners
    /// of a class it found to be a proxy: whether a class is one is kept with its handlers, so a
    /// plain listener's `add` makes no dynamic cast.
    ///
    /// - Complexity: as ``responder(of:answering:_:)``.
    @inlinable
    public static func responder(
        of listener: AnyObject, answering messages: Any.Type, _ build: () -> AnyResponder,
        nesting: (AnyObject) -> DelegateChain?
    ) -> (responder: AnyResponder, nesting: DelegateChain?) {
        let shared = SharedHandlers.single
        if let known = shared.handlersAndKind(of: listener, answering: messages) {
            // Not known for a set a format-2 proxy kept: cast.
            let isProxy = known.isProxy ?? true
            return (AnyResponder(listener, handlers: known.handlers), isProxy ? nesting(listener) : nil)
        }
        let chain = nesting(listener)
        let kept = shared.keep(build().handlers, isProxy: chain != nil, of: listener, answering: messages)
        return (AnyResponder(listener, handlers: kept.handlers), chain)
    }
}

extension SendableResponderCache {
    /// ``responder(of:answering:_:)``, and the chain of `listener` when it is itself a proxy of
    /// the protocol's kind, for ``ConcurrentDelegateChain/add(_:nesting:retention:)``: as
    /// ``ResponderCache/responder(of:answering:_:nesting:)``, for the `Sendable` proxies.
    ///
    /// - Complexity: as ``ResponderCache/responder(of:answering:_:)``.
    @inlinable
    public static func responder(
        of listener: any AnyObject & Sendable, answering messages: Any.Type, _ build: () -> AnySendableResponder,
        nesting: (AnyObject) -> ConcurrentDelegateChain?
    ) -> (responder: AnySendableResponder, nesting: ConcurrentDelegateChain?) {
        let shared = SharedHandlers.sendable
        if let known = shared.handlersAndKind(of: listener, answering: messages) {
            // Not known for a set a format-2 proxy kept: cast.
            let isProxy = known.isProxy ?? true
            return (AnySendableResponder(listener, handlers: known.handlers), isProxy ? nesting(listener) : nil)
        }
        let chain = nesting(listener)
        let kept = shared.keep(build().handlers, isProxy: chain != nil, of: listener, answering: messages)
        return (AnySendableResponder(listener, handlers: kept.handlers), chain)
    }
}

extension SendableResponderCache {
    /// ``ResponderCache/responder(of:answering:_:)`` for the `Sendable` proxies, over a
    /// ``ConcurrentDelegateChain``: `build` (a `Sendable` conformer's `…SendableResponder`) runs
    /// only for the first listener of a class and protocol. Its table is not the single-thread
    /// proxies' (a nonisolated protocol's `@Sendable` handlers stay apart from its others).
    ///
    /// - Complexity: as ``ResponderCache/responder(of:answering:_:)``.
    @inlinable
    public static func responder(
        of listener: any AnyObject & Sendable, answering messages: Any.Type, _ build: () -> AnySendableResponder
    ) -> AnySendableResponder {
        let shared = SharedHandlers.sendable
        if let known = shared.handlers(of: listener, answering: messages) {
            return AnySendableResponder(listener, handlers: known)
        }
        return AnySendableResponder(
            listener, handlers: shared.keep(build().handlers, of: listener, answering: messages))
    }
}
