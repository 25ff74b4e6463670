// A proxy added as a listener of another proxy: its listeners answer in its place, as if they
// were in the outer list there (nesting flattens).

/// A chain that a proxy's handler may walk in its target's place: what the cycle check of a
/// nesting `add` follows.
protocol NestingChain: AnyObject {
    /// Whether `chain` is reachable from this chain through the chains of its nested proxies.
    func nests(_ chain: AnyObject) -> Bool
}

extension NestingChain {
    /// Stops the program when nesting `nested` in this chain would make a proxy a listener of
    /// itself.
    func preconditionNoCycle(nesting nested: Self) {
        precondition(
            nested !== self && !nested.nests(self),
            "FastDelegates: a proxy cannot be a listener of itself, directly or through other proxies")
    }
}

extension Forwarding {
    /// How a handler of `message` walks `chain`, the chain of a proxy that is a listener of
    /// another: a plain send walks its responders, a requirement send its implementing listeners,
    /// and the outer chain responds while one of them does.
    static func nested<Chain: MessageDispatching & RequirementDispatching & AsyncRequirementChain & NestingChain>(
        _ message: Message<Input, Output>, in chain: Chain
    ) -> Forwarding {
        Forwarding(
            walk: { _, input, body in chain.forEachAnswer(to: message, input, body) },
            responds: { _ in chain.responds(to: message) },
            requirements: .chain(message) { _ in chain }, nestedChain: chain)
    }
}

extension AnyResponder {
    /// This responder's target answering each of its messages through `chain`'s listeners.
    func nested(in chain: DelegateChain) -> AnyResponder {
        AnyResponder(target, handlers: handlers.reduce(into: [:]) { $0[$1.key] = $1.value.nested($1.key, in: chain) })
    }
}

extension AnySendableResponder {
    /// This responder's target answering each of its messages through `chain`'s listeners.
    func nested(in chain: ConcurrentDelegateChain) -> AnySendableResponder {
        AnySendableResponder(
            target, handlers: handlers.reduce(into: [:]) { $0[$1.key] = $1.value.nested($1.key, in: chain) })
    }
}

extension DelegateChain: NestingChain {
    /// Adds `responder` after the others, held weakly by default; when its target is itself a
    /// proxy over `nested`, adds it so that `nested`'s listeners answer in its place: what the
    /// `add` of a `@DelegateProxy` proxy calls.
    ///
    /// A listener that is itself a proxy then implements a requirement exactly when one of its
    /// own live listeners does, at the time of the call, and answers as that listener would: the
    /// outer walk goes on past it when none does, a void requirement reaches each of its
    /// implementing listeners (only the first of all in `.breaking` mode), and a combined
    /// answer counts each of theirs. Proxies nest to any depth. This chain pays one flag check
    /// per send for it (as for ``Responses/forwarding(_:)``).
    /// - Returns: a token whose `cancel()` removes the listener.
    @discardableResult
    public func add(_ responder: AnyResponder, nesting nested: DelegateChain?, retention: Retention = .weak)
        -> DelegateToken
    {
        guard let nested else { return add(responder, retention: retention) }
        preconditionNoCycle(nesting: nested)
        return add(responder.nested(in: nested), retention: retention)
    }

    func nests(_ chain: AnyObject) -> Bool {
        list.entries.contains { registration in
            !registration.isUnlisted
                && registration.responses.values.contains { handler in
                    handler.nestedChain.map { $0 === chain || $0.nests(chain) } ?? false
                }
        }
    }
}

extension ConcurrentDelegateChain: NestingChain {
    /// Adds `responder` after the others, held weakly by default; when its target is itself a
    /// proxy over `nested`, adds it so that `nested`'s listeners answer in its place: what the
    /// `add` of a `Sendable` `@DelegateProxy` proxy calls (as ``DelegateChain/add(_:nesting:retention:)``
    /// does for the others).
    ///
    /// A listener that is itself a proxy then implements a requirement exactly when one of its
    /// own live listeners does, at the time of the call, and answers as that listener would: the
    /// outer walk goes on past it when none does, a void requirement reaches each of its
    /// implementing listeners (only the first of all in `.breaking` mode), a combined answer counts
    /// each of theirs, and an `async` requirement's call is committed in the chain of the
    /// listener it reaches (``removeAwaitingCalls(_:isolation:)`` there waits for it). Proxies nest
    /// to any depth. Once a chain holds a
    /// nested proxy, its sends take the path an observed chain's take (one flag check each, as
    /// before; then a check of each responder's handler).
    /// - Returns: a token whose `cancel()` removes the listener.
    @discardableResult
    public func add(
        _ responder: AnySendableResponder, nesting nested: ConcurrentDelegateChain?, retention: Retention = .weak
    )
        -> ConcurrentDelegateToken
    {
        guard let nested else { return add(responder, retention: retention) }
        preconditionNoCycle(nesting: nested)
        return add(responder.nested(in: nested), retention: retention)
    }

    func nests(_ chain: AnyObject) -> Bool {
        // Walked outside the mutex: each inner chain takes its own.
        let inner = locked { state in
            state.list.entries.flatMap { registration -> [ConcurrentDelegateChain] in
                guard !registration.isUnlisted else { return [] }
                return registration.responses.values.compactMap { $0.nestedChain as? ConcurrentDelegateChain }
            }
        }
        return inner.contains { $0 === chain || $0.nests(chain) }
    }
}
