// A proxy added as a listener of another proxy: its listeners answer in its place, as if they
// were in the outer list there (nesting flattens).

import Synchronization

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
    package static let hook = HandoffMutex<Hook?>(nil)

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
    /// and the outer chain responds while one of them does. Once the proxy's registration in the
    /// outer chain is removed (`link`), a walk already running calls none of its listeners after
    /// the one that answered last: the walk ends there and the outer walk goes on behind the proxy.
    static func nested<Chain: MessageDispatching & RequirementDispatching & AsyncRequirementChain & NestingChain>(
        _ message: Message<Input, Output>, in chain: Chain, link: NestedLink
    ) -> Forwarding {
        let sends = ForwardedRequirements.chain(message) { _ in chain }
        let requirements = ForwardedRequirements(
            walk: { _, input, body in
                var cut = false
                let stopped = chain.forEachAnswer(toRequirement: message, input) { link.answered($0, body, cut: &cut) }
                return stopped && !cut
            },
            stillImplements: sends.stillImplements, dropDeclined: sends.dropDeclined, commit: sends.commit)
        return Forwarding(
            walk: { _, input, body in
                var cut = false
                let stopped = chain.forEachAnswer(to: message, input) { link.answered($0, body, cut: &cut) }
                return stopped && !cut
            },
            responds: { _ in chain.responds(to: message) },
            requirements: requirements, nestedChain: chain)
    }
}

/// A registration of an outer chain that a nested proxy's handlers may ask whether it was removed.
protocol NestedRegistration: AnyObject {
    /// Whether the registration has left its chain (removed, or its target found dead).
    var hasLeft: Bool { get }
}

extension ChainRegistration: NestedRegistration {
    // `removeAll()` unlists without marking dead.
    var hasLeft: Bool { isDead || isUnlisted }
}

extension ConcurrentRegistration: NestedRegistration {
    var hasLeft: Bool { removed.load(ordering: .sequentiallyConsistent) }
}

/// Where a nested proxy's handlers stand in the outer chain: its registration there, which the
/// walk of the proxy's listeners checks after each answer, so that removing the proxy from the
/// outer chain (by one of its own listeners, say) stops a walk already running, as it stops the
/// outer walk before the proxy. Only the nested path pays for it.
///
/// Known once the outer `add` returned (``attach(_:)``): a send on another thread before that
/// walks on. The registration is held weakly (it holds the handlers that hold this link), under
/// a mutex because another thread may walk while the `add` attaches it.
final class NestedLink: Sendable {
    private struct State {
        var attached = false
        weak var registration: (any NestedRegistration)?
    }

    private let state = Mutex(State())

    /// Attaches the registration the outer `add` made or kept; nil when it was removed already.
    func attach(_ registration: (any NestedRegistration)?) {
        // Sound: a `DelegateChain`'s registration is only ever read on its chain's thread, and a
        // `ConcurrentRegistration` is `Sendable`; the box only carries the reference into the mutex.
        let box = Unchecked(registration)
        state.withLock { state in
            state.attached = true
            state.registration = box.value
        }
    }

    /// Whether the proxy's registration in the outer chain has left it.
    var isCut: Bool {
        // The reference leaves the mutex before it is used or released.
        let found = state.withLock { state in Unchecked((state.attached, state.registration)) }.value
        guard found.0 else { return false }
        return found.1?.hasLeft ?? true
    }

    /// What the walk of the proxy's listeners does with each answer: hands it to the outer
    /// walk's `body`, then, unless that stopped the walk, ends the walk when the proxy has been
    /// removed from the outer chain meanwhile (`cut`: the walk then returns false, so that the
    /// outer walk goes on after the proxy).
    @inline(__always)
    func answered<Output>(_ output: Output, _ body: (Output) -> Bool, cut: inout Bool) -> Bool {
        if body(output) { return true }
        cut = isCut
        return cut
    }
}

extension AnyResponder {
    /// This responder's target answering each of its messages through `chain`'s listeners.
    func nested(in chain: DelegateChain, link: NestedLink) -> AnyResponder {
        AnyResponder(
            target, handlers: handlers.reduce(into: [:]) { $0[$1.key] = $1.value.nested($1.key, in: chain, link: link) }
        )
    }
}

extension AnySendableResponder {
    /// This responder's target answering each of its messages through `chain`'s listeners.
    func nested(in chain: ConcurrentDelegateChain, link: NestedLink) -> AnySendableResponder {
        AnySendableResponder(
            target, handlers: handlers.reduce(into: [:]) { $0[$1.key] = $1.value.nested($1.key, in: chain, link: link) }
        )
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
    /// answer counts each of theirs. Removing the proxy from this chain is removing its listeners
    /// from it: they receive nothing more, even from a send already running (one of them removing
    /// the proxy ends the walk of the others there, and the send goes on after the proxy), for
    /// `async` requirements as for the others. Proxies nest to any depth. This chain pays one
    /// flag check per send for it (as for ``Responses/forwarding(_:)``); only a walk through a
    /// nested proxy checks its removal, once per answer of its listeners.
    /// - Returns: a token whose `cancel()` removes the listener.
    @inlinable @discardableResult
    public func add(_ responder: AnyResponder, nesting nested: DelegateChain?, retention: Retention = .weak)
        -> DelegateToken
    {
        // The token is made in the caller's code, as `register` makes it.
        DelegateToken(chain: self, serial: registerSerial(responder, nesting: nested, retention: retention))
    }

    /// What ``add(_:nesting:retention:)`` does, but the token: the registration's serial.
    @usableFromInline
    func registerSerial(_ responder: AnyResponder, nesting nested: DelegateChain?, retention: Retention) -> UInt64 {
        guard let nested else { return registerSerial(responder, retention: retention, at: nil) }
        preconditionNoCycle(nesting: nested)
        let link = NestedLink()
        let serial = registerSerial(responder.nested(in: nested, link: link), retention: retention, at: nil)
        link.attach(list.entry(serial: serial))
        return serial
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
    /// it is committed). Removing the proxy from this chain removes its listeners from it as
    /// ``remove(_:)`` removes a listener: from the moment the removal is made, a send already
    /// running calls none of them (one of them removing the proxy ends the walk of the others
    /// there). Proxies nest to any depth. Once a chain holds a nested proxy, its sends take the
    /// path an observed chain's take (one flag check each, as before; then a check of each
    /// responder's handler).
    ///
    /// The cycle check and the insertion are one step with respect to every other nesting add,
    /// on any thread (a process-wide lock that only nesting adds take; plain adds, removals and
    /// sends never wait for it): of two threads nesting two proxies into each other at once,
    /// one stops the program. The check visits each chain reachable from `nested` once.
    /// - Precondition: `nested` is not this chain and does not reach it through the chains of
    ///   its own nested proxies (the proxy would be a listener of itself).
    /// - Returns: a token whose `cancel()` removes the listener.
    @inlinable @discardableResult
    public func add(
        _ responder: AnySendableResponder, nesting nested: ConcurrentDelegateChain?, retention: Retention = .weak
    )
        -> ConcurrentDelegateToken
    {
        // The token is made in the caller's code, as `register` makes it.
        ConcurrentDelegateToken(chain: self, serial: registerSerial(responder, nesting: nested, retention: retention))
    }

    /// What ``add(_:nesting:retention:)`` does, but the token: the registration's serial.
    @usableFromInline
    func registerSerial(
        _ responder: AnySendableResponder, nesting nested: ConcurrentDelegateChain?, retention: Retention
    ) -> UInt64 {
        guard let nested else { return registerSerial(responder, retention: retention, at: nil) }
        let link = NestedLink()
        let responder = responder.nested(in: nested, link: link)
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
        finishInsertion(insertion)
        let serial = insertion.serial
        link.attach(locked { state in state.list.entry(serial: serial) })
        return serial
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
