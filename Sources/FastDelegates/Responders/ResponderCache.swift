/// Shares the handlers of responders among targets of one class: a chain's listeners of one
/// type then use one set of handlers, wherever their responders were built.
///
/// A `@DelegateProxy` proxy keeps one: a conformer's `…Responder` builds a new set of handlers
/// each time it is read, and without the cache every listener would keep its own copy alive (more
/// memory, and a send to many listeners reading handlers scattered over the heap). Use it the
/// same way for responders whose handlers depend only on their target's type:
///
/// ```swift
/// let responders = ResponderCache()
/// chain.add(responders.shared(listener.responder))
/// ```
///
/// The handlers of the first responder given for a class serve every later responder whose target
/// has exactly that class (a subclass gets its own). A handler that a ``RequirementMessage`` send
/// found declining (the class does not implement that requirement) is left out: a later listener
/// of the class never registers it. Not `Sendable`: keep it with its chain, as a
/// proxy does.
///
/// - Complexity: O(1) expected per call; one entry per class seen.
public final class ResponderCache {
    private var handlers: [ObjectIdentifier: [UInt32: AnyHandler]] = [:]

    /// An empty cache.
    public init() {}

    /// `responder`'s target with the handlers of the first responder given for a target of its
    /// class: `responder`'s own the first time.
    ///
    /// Give it responders whose handlers depend on the target's type only (as a protocol
    /// extension's `responder` does), not on the target they were built for.
    public func shared(_ responder: AnyResponder) -> AnyResponder {
        let key = ObjectIdentifier(type(of: responder.target))
        guard var shared = handlers[key] else {
            handlers[key] = responder.handlers
            return responder
        }
        if shared.values.contains(where: { $0.status == .declined }) {
            shared = shared.filter { $0.value.status != .declined }
            handlers[key] = shared
        }
        return AnyResponder(responder.target, handlers: shared)
    }
}

@available(*, unavailable, message: "ResponderCache is not thread-safe; keep it with its chain")
extension ResponderCache: Sendable {}

/// ``ResponderCache`` for ``AnySendableResponder``s, safe to use from any thread: what a proxy
/// over a ``ConcurrentDelegateChain`` keeps.
///
/// - Complexity: O(1) expected per call, under a lock; one entry per class seen.
public final class SendableResponderCache: Sendable {
    // The handlers of `AnySendableResponder`s: immutable, with `@Sendable` bodies, as a
    // concurrent chain shares them between threads.
    private let handlers = HandoffMutex<[ObjectIdentifier: Unchecked<[UInt32: AnyHandler]>]>([:])

    /// An empty cache.
    public init() {}

    /// `responder`'s target with the handlers of the first responder given for a target of its
    /// class: `responder`'s own the first time.
    ///
    /// Give it responders whose handlers depend on the target's type only, not on the target
    /// they were built for.
    public func shared(_ responder: AnySendableResponder) -> AnySendableResponder {
        let key = ObjectIdentifier(type(of: responder.target))
        let own = Unchecked(responder.handlers)
        let shared = handlers.withLock { handlers in
            if let shared = handlers[key] {
                guard shared.value.values.contains(where: { $0.status == .declined }) else { return shared }
                let kept = Unchecked(shared.value.filter { $0.value.status != .declined })
                handlers[key] = kept
                return kept
            }
            handlers[key] = own
            return own
        }
        return AnySendableResponder(responder.target, handlers: shared.value)
    }
}
