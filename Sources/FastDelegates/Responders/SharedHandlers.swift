import Synchronization

/// The handlers of generated proxies' listeners, one set per (exact class, protocol), for the
/// process: ``ResponderCache/responder(of:answering:_:)``.
@usableFromInline
package final class SharedHandlers: Sendable {
    /// The key of a set: the listener's class and the protocol's messages namespace.
    struct Key: Hashable {
        let type: ObjectIdentifier
        let messages: ObjectIdentifier

        init(_ listener: AnyObject, _ messages: Any.Type) {
            self.init(Swift.type(of: listener), messages)
        }

        init(_ type: AnyObject.Type, _ messages: Any.Type) {
            self.type = ObjectIdentifier(type)
            self.messages = ObjectIdentifier(messages)
        }
    }

    /// One set of handlers, handed between the threads of different proxies.
    struct Handlers: @unchecked Sendable {
        // Sound: built by a generated responder (`responder(of:answering:_:)` is for generated
        // code), whose bodies capture nothing and call their target's method, so calling them from
        // any proxy of the protocol is calling the listener's method there: a @MainActor
        // protocol's proxies all run on the main actor, a nonisolated one's each on its owner's
        // thread with its own listeners, a `Sendable` one's are `@Sendable`. The objects are
        // immutable but for their atomic status; the dictionary is a value, never changed in place.
        let value: [UInt32: AnyHandler]
        /// The count of ``SharedHandlers/declines`` when `value` was last found to hold no
        /// declined handler.
        var checked: UInt64
        /// Whether the class is itself a proxy of the protocol's kind (its `add` nests it): known
        /// once a proxy of generated-file format 3 kept or looked up the set; nil before.
        var isProxy: Bool?
    }

    /// How many times a handler was found declined, in the process: a set whose `checked` count
    /// is this one holds no handler declined since it was checked, and needs no new check.
    static let declines = Atomic<UInt64>(0)

    /// The table of the proxies over a ``DelegateChain``.
    @usableFromInline
    package static let single = SharedHandlers()
    /// The table of the proxies over a ``ConcurrentDelegateChain``.
    @usableFromInline
    package static let sendable = SharedHandlers()

    fileprivate struct State {
        var sets: [Key: Handlers] = [:]
        /// The set last looked up or kept, and its key: found without hashing when the next
        /// listener has the class of the last one, as the listeners of a list's cells have.
        var last: (key: Key, handlers: Handlers)?
        /// How many sets were built per key: more than one only for threads that raced.
        var builds: [Key: Int] = [:]
    }

    private let state = HandoffMutex(State())

    /// The handlers of `listener`'s class for the protocol of `messages`: those of the first
    /// listener of its class, less the ones found declined; nil when none is known yet.
    @usableFromInline
    func handlers(of listener: AnyObject, answering messages: Any.Type) -> [UInt32: AnyHandler]? {
        handlersAndKind(of: listener, answering: messages)?.handlers
    }

    /// ``handlers(of:answering:)``, with whether `listener`'s class is a proxy of the protocol's
    /// kind, when known (see ``Handlers/isProxy``).
    @usableFromInline
    func handlersAndKind(of listener: AnyObject, answering messages: Any.Type) -> (
        handlers: [UInt32: AnyHandler], isProxy: Bool?
    )? {
        let key = Key(listener, messages)
        return state.withLock { $0.lookUp(key) }.map { ($0.value, $0.isProxy) }
    }

    /// Keeps `built`, built (outside the lock) for `listener`'s class and the protocol of
    /// `messages`, unless another thread kept a set first: returns the set kept.
    @usableFromInline
    func keep(
        _ built: [UInt32: AnyHandler], of listener: AnyObject, answering messages: Any.Type
    ) -> [UInt32: AnyHandler] {
        keep(built, isProxy: nil, of: listener, answering: messages).handlers
    }

    /// ``keep(_:of:answering:)``, with whether `listener`'s class is a proxy of the protocol's
    /// kind (nil: not known), and what the set kept knows of it.
    @usableFromInline
    func keep(
        _ built: [UInt32: AnyHandler], isProxy: Bool?, of listener: AnyObject, answering messages: Any.Type
    ) -> (handlers: [UInt32: AnyHandler], isProxy: Bool?) {
        let key = Key(listener, messages)
        let built = Handlers(value: built, checked: 0, isProxy: isProxy)
        let kept = state.withLock { state in
            state.builds[key, default: 0] += 1
            if var raced = state.lookUp(key) {
                if raced.isProxy == nil, let isProxy {
                    raced.isProxy = isProxy
                    state.sets[key] = raced
                    state.last = (key, raced)
                }
                return raced
            }
            // Checked as of the count read before any of its statuses: a decline counted later
            // is found by the next look-up.
            var kept = built
            kept.checked = SharedHandlers.declines.load(ordering: .acquiring)
            state.sets[key] = kept
            state.last = (key, kept)
            return kept
        }
        return (kept.value, kept.isProxy)
    }

    /// How many times the handlers of `type` for the protocol of `messages` were built, and the
    /// set kept now: a test hook.
    package func entry(of type: AnyObject.Type, answering messages: Any.Type) -> (
        builds: Int, handlers: [UInt32: ObjectIdentifier]
    ) {
        let key = Key(type, messages)
        return state.withLock { state in
            (state.builds[key] ?? 0, (state.sets[key]?.value ?? [:]).mapValues { ObjectIdentifier($0) })
        }
    }
}

extension SharedHandlers.State {
    /// The set of `key`, less (from now on) its handlers found declined.
    fileprivate mutating func lookUp(_ key: SharedHandlers.Key) -> SharedHandlers.Handlers? {
        // Read before the statuses: a handler declined after this read bumps the count again.
        let declines = SharedHandlers.declines.load(ordering: .acquiring)
        if let last, last.key == key, last.handlers.checked == declines { return last.handlers }
        guard let found = last?.key == key ? last?.handlers : sets[key] else { return nil }
        var kept = found
        if found.checked != declines {
            if let remaining = withoutDeclined(found.value) {
                kept = SharedHandlers.Handlers(value: remaining, checked: 0, isProxy: found.isProxy)
            }
            kept.checked = declines
            sets[key] = kept
        }
        last = (key, kept)
        return kept
    }
}

extension DelegateChain {
    /// The handlers of `target`'s registration, by message id, as object identities (empty when it
    /// has none): what tests compare with ``SharedHandlers/entry(of:answering:)``.
    package func handlerIdentitiesForTesting(of target: AnyObject) -> [UInt32: ObjectIdentifier] {
        (liveRegistration(of: target)?.responses ?? [:]).mapValues { ObjectIdentifier($0) }
    }
}

extension ConcurrentDelegateChain {
    /// ``DelegateChain/handlerIdentitiesForTesting(of:)`` for a concurrent chain.
    package func handlerIdentitiesForTesting(of target: AnyObject) -> [UInt32: ObjectIdentifier] {
        let target = Unchecked(target)
        return locked { state in
            (state.list.lookup(target.value).live?.responses ?? [:]).mapValues { ObjectIdentifier($0) }
        }
    }
}
