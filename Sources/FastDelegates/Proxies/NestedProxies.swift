import Synchronization

// A proxy added as a listener of another proxy: its listeners answer in its place, as if they
// were in the outer list there (nesting flattens).

/// A chain that a proxy's handler may walk in its target's place: what the cycle check of a
/// nesting `add` follows.
protocol NestingChain: AnyObject {
    /// The chains of the nested proxies this chain holds now (one proxy's once per handler).
    func nestedChains() -> [any NestingChain]
}

extension NestingChain {
    /// Whether `chain` is reachable from this chain through the chains of its nested proxies.
    ///
    /// Visits each chain once (a set of the chains seen), so that nestings shaped as diamonds
    /// cost one visit per chain, not one per path: `visits` counts the chains whose nested
    /// chains were read, and `held` keeps every chain met, for the caller to let go of (after
    /// any lock it holds: the last reference to a chain may be the walk's, and a chain's deinit
    /// may run user code).
    func reaches(_ chain: AnyObject, visits: inout Int, held: inout [AnyObject]) -> Bool {
        if self === chain { return true }
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        var pending: [any NestingChain] = [self]
        while let next = pending.popLast() {
            visits += 1
            for inner in next.nestedChains() {
                if inner === chain { return true }
                held.append(inner)
                if seen.insert(ObjectIdentifier(inner)).inserted { pending.append(inner) }
            }
        }
        return false
    }

    /// Stops the program when nesting `nested` in this chain would make a proxy a listener of
    /// itself. Returns the chains the check met, for the caller to let go of (see
    /// `reaches(_:visits:held:)`).
    @discardableResult
    func preconditionNoCycle(nesting nested: Self) -> [AnyObject] {
        var visits = 0
        var held: [AnyObject] = []
        precondition(
            !nested.reaches(self, visits: &visits, held: &held),
            "FastDelegates: a proxy cannot be a listener of itself, directly or through other proxies")
        return held
    }
}

/// The lock that makes each nesting `add` of a ``ConcurrentDelegateChain`` one step: its cycle
/// check and its insertion happen under it, so that of two threads nesting two proxies into
/// each other, one fails the check. Taken by nesting adds alone, never by a plain add, a
/// removal or a send. Under it a nesting add takes one chain's mutex at a time and runs no user
/// code (what the check met and what the insertion displaced are let go of after it), and no
/// thread that holds a chain's mutex takes it: it cannot deadlock.
package enum ConcurrentNesting {
    static let lock = Mutex<Void>(())

    /// The steps of a nesting add that a test may interleave with another thread's.
    package enum Step: Sendable {
        /// The add found the lock taken and is about to wait for it.
        case waiting
        /// The add passed its cycle check and is about to insert.
        case checked
        /// A send of an `async` requirement found a nested proxy that forwards it and is about to
        /// commit the call in the proxy's chain (`ConcurrentDelegateChain.commitCall`).
        case committing
    }

    /// Called at each `Step` of every nesting add of a concurrent chain, and of every commitment
    /// through a nested proxy, with the chain that adds or commits, for tests (nil: none).
    package static let hook = Mutex<Hook?>(nil)

    package typealias Hook = @Sendable (Step, ConcurrentDelegateChain) -> Void

    /// Runs `body` under the lock; calls `hook` with `.waiting` first when another add holds it.
    static func withLock<Result: Sendable>(
        in chain: ConcurrentDelegateChain, hook: Hook?, _ body: () -> Result
    ) -> Result {
        if let result = lock.withLockIfAvailable({ _ in body() }) { return result }
        hook?(.waiting, chain)
        return lock.withLock { _ in body() }
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

    func nestedChains() -> [any NestingChain] {
        list.entries.flatMap { registration -> [any NestingChain] in
            guard !registration.isUnlisted else { return [] }
            return registration.responses.values.compactMap(\.nestedChain)
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
    /// listener it reaches and counted in this one as a call of the nested proxy (so both that
    /// chain's ``removeAwaitingCalls(_:isolation:)`` of the listener and this chain's of the
    /// proxy wait for it; once this chain's ``remove(_:)`` of the proxy returned, no call through
    /// it is committed). Proxies nest to any depth. Once a chain holds a nested proxy, its sends
    /// take the path an observed chain's take (one flag check each, as before; then a check of
    /// each responder's handler).
    ///
    /// The cycle check and the insertion are one step with respect to every other nesting add,
    /// on any thread (a process-wide lock that only nesting adds take; plain adds, removals and
    /// sends never wait for it): of two threads nesting two proxies into each other at once,
    /// one stops the program. The check visits each chain reachable from `nested` once.
    /// - Precondition: `nested` is not this chain and does not reach it through the chains of
    ///   its own nested proxies (the proxy would be a listener of itself).
    /// - Returns: a token whose `cancel()` removes the listener.
    @discardableResult
    public func add(
        _ responder: AnySendableResponder, nesting nested: ConcurrentDelegateChain?, retention: Retention = .weak
    )
        -> ConcurrentDelegateToken
    {
        guard let nested else { return add(responder, retention: retention) }
        let responder = responder.nested(in: nested)
        let hook = ConcurrentNesting.hook.withLock { $0 }
        let (insertion, met) = ConcurrentNesting.withLock(in: self, hook: hook) {
            () -> (Insertion, Unchecked<[AnyObject]>) in
            // The check and the insertion in one step with respect to every other nesting add.
            let met = Unchecked(preconditionNoCycle(nesting: nested))
            hook?(.checked, self)
            return (insert(responder.target, retention: retention, handlers: responder.handlers, at: nil), met)
        }
        // After the lock: the last reference to a chain the check met may be this one.
        withExtendedLifetime(met) {}
        return finishInsertion(insertion)
    }

    func nestedChains() -> [any NestingChain] {
        // Walked outside the mutex: each inner chain takes its own.
        locked { state in
            state.list.entries.flatMap { registration -> [ConcurrentDelegateChain] in
                guard !registration.isUnlisted else { return [] }
                return registration.responses.values.compactMap { $0.nestedChain as? ConcurrentDelegateChain }
            }
        }
    }
}
