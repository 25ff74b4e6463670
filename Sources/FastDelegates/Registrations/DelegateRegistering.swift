/// A dispatcher that takes targets together with the messages they answer: ``DelegateChain``.
///
/// A conformer implements one requirement, ``register(_:retention:at:)``; every `add` and
/// `insert` overload (a ``DelegateResponder``, ``Responses``, any ``ResponseSet``, a `build`
/// closure, an ``AnyResponder``) comes from this protocol's extension, so a new form is written
/// once for every such dispatcher. Handlers may be any closure (a ``Responses`` handler may
/// capture non-`Sendable` state and call its actor's isolated methods), since the conformer
/// runs them in its own isolation domain; ``SendableDelegateRegistering`` is the `@Sendable`
/// form, for ``ConcurrentDelegateChain``.
public protocol DelegateRegistering: AnyObject {
    /// What a registration returns: a token whose `cancel()` removes the target.
    associatedtype RegistrationToken

    /// Adds `responder`'s target, answering its handlers, at live index `index` of the targets
    /// (at the end when nil), held as `retention` says.
    ///
    /// A target already registered stays one target: its responses are merged with these (new
    /// handlers win), its retention becomes `retention`, and a non-nil `index` moves it there
    /// (counted among the other targets).
    /// - Precondition: `index` is nil or `0 <= index <= ` the number of other live targets.
    /// - Returns: a token whose `cancel()` removes the target.
    @discardableResult
    func register(_ responder: AnyResponder, retention: Retention, at index: Int?) -> RegistrationToken
}

extension DelegateRegistering {
    /// Adds `target` at the end, answering its type's ``DelegateResponder/responses``.
    ///
    /// If `target` is already registered it stays where it is; its responses are merged with
    /// these (new handlers win) and its retention becomes `retention`. (See
    /// ``register(_:retention:at:)``.)
    /// - Returns: a token whose `cancel()` removes the target.
    @inlinable @discardableResult
    public func add<Target: DelegateResponder>(_ target: Target, retention: Retention = .weak) -> RegistrationToken {
        register(AnyResponder(target), retention: retention, at: nil)
    }

    /// Adds `target` at the end, answering `responses`.
    @inlinable @discardableResult
    public func add<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: Responses<Target>
    ) -> RegistrationToken {
        register(AnyResponder(target, responses: responses), retention: retention, at: nil)
    }

    /// Adds `target` at the end, answering `responses` in another form, such as a type's
    /// ``SendableResponses``.
    @inlinable @discardableResult
    public func add<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: some ResponseSet<Target>
    ) -> RegistrationToken {
        register(AnyResponder(target, responses: responses), retention: retention, at: nil)
    }

    /// Adds `target` at the end, answering the responses `build` declares for this registration.
    ///
    /// ```swift
    /// chain.add(logger) { $0.on(Scroll.didScroll) { me, y in me.log(y) } }
    /// ```
    @inlinable @discardableResult
    public func add<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak,
        _ build: (Responses<Target>) -> Responses<Target>
    ) -> RegistrationToken {
        register(AnyResponder(target, responses: build(Responses())), retention: retention, at: nil)
    }

    /// Adds `target` at the end, answering its type's responses plus those `build` declares.
    @inlinable @discardableResult
    public func add<Target: DelegateResponder>(
        _ target: Target, retention: Retention = .weak,
        _ build: (Responses<Target>) -> Responses<Target>
    ) -> RegistrationToken {
        register(AnyResponder(target, responses: build(Target.responses.responses)), retention: retention, at: nil)
    }

    /// Adds `responder`'s target at the end, answering its responses.
    @inlinable @discardableResult
    public func add(_ responder: AnyResponder, retention: Retention = .weak) -> RegistrationToken {
        register(responder, retention: retention, at: nil)
    }

    /// Inserts `target` so that it becomes the live target at `index`, answering `responses`.
    ///
    /// A target already registered moves to `index` (counted among the other targets).
    /// - Precondition: `0 <= index <= ` the number of live targets (not counting `target`).
    @inlinable @discardableResult
    public func insert<Target: AnyObject>(
        _ target: Target, at index: Int, retention: Retention = .weak, responses: Responses<Target>
    ) -> RegistrationToken {
        register(AnyResponder(target, responses: responses), retention: retention, at: index)
    }

    /// Inserts `target` at `index`, answering `responses` in another form, such as a type's
    /// ``SendableResponses``.
    @inlinable @discardableResult
    public func insert<Target: AnyObject>(
        _ target: Target, at index: Int, retention: Retention = .weak, responses: some ResponseSet<Target>
    ) -> RegistrationToken {
        register(AnyResponder(target, responses: responses), retention: retention, at: index)
    }

    /// Inserts `target` at `index`, answering its type's responses.
    @inlinable @discardableResult
    public func insert<Target: DelegateResponder>(
        _ target: Target, at index: Int, retention: Retention = .weak
    ) -> RegistrationToken {
        register(AnyResponder(target), retention: retention, at: index)
    }

    /// Inserts `responder`'s target at `index`, answering its responses.
    @inlinable @discardableResult
    public func insert(_ responder: AnyResponder, at index: Int, retention: Retention = .weak) -> RegistrationToken {
        register(responder, retention: retention, at: index)
    }
}
