/// A dispatcher whose handlers run on any thread, so it takes `@Sendable` handlers only:
/// ``ConcurrentDelegateChain``.
///
/// As ``DelegateRegistering``: a conformer implements ``register(_:retention:at:)``, and every
/// `add` and `insert` overload comes from this protocol's extension. Each takes
/// ``SendableResponses``, an ``AnySendableResponder``, or a ``DelegateResponder`` whose
/// `responses` are ``SendableResponses``; the compiler rejects ``Responses``, an
/// ``AnyResponder``, and a handler that captures non-`Sendable` state or calls an actor's
/// isolated methods.
///
/// Every target is `Sendable` too (`Target: AnyObject & Sendable`): its handlers receive it on
/// whatever thread sends, so its class must be safe to use from several threads at once (a
/// `final class` with immutable or synchronized state, or a `@MainActor` class, whose
/// `@Sendable` handlers can only reach its nonisolated members). The compiler rejects any other
/// target where it is registered: `error: type 'Counter' does not conform to the 'Sendable'
/// protocol`.
public protocol SendableDelegateRegistering: AnyObject {
    /// What a registration returns: a token whose `cancel()` removes the target.
    associatedtype RegistrationToken

    /// Adds `responder`'s target, answering its `@Sendable` handlers, at live index `index` of
    /// the targets (at the end when nil), held as `retention` says; otherwise as
    /// ``DelegateRegistering/register(_:retention:at:)``.
    @discardableResult
    func register(_ responder: AnySendableResponder, retention: Retention, at index: Int?) -> RegistrationToken
}

extension SendableDelegateRegistering {
    /// Adds `target` at the end, answering its type's ``DelegateResponder/responses``.
    ///
    /// If `target` is already registered it stays where it is; its responses are merged with
    /// these (new handlers win) and its retention becomes `retention`.
    /// - Returns: a token whose `cancel()` removes the target.
    @inlinable @discardableResult
    public func add<Target: DelegateResponder & Sendable>(_ target: Target, retention: Retention = .weak)
        -> RegistrationToken
    where Target.DeclaredResponses == SendableResponses<Target> {
        register(AnySendableResponder(target), retention: retention, at: nil)
    }

    /// Adds `target` at the end, answering `responses`.
    @inlinable @discardableResult
    public func add<Target: AnyObject & Sendable>(
        _ target: Target, retention: Retention = .weak, responses: SendableResponses<Target>
    ) -> RegistrationToken {
        register(AnySendableResponder(target, responses: responses), retention: retention, at: nil)
    }

    /// Adds `target` at the end, answering the responses `build` declares for this registration.
    @inlinable @discardableResult
    public func add<Target: AnyObject & Sendable>(
        _ target: Target, retention: Retention = .weak,
        _ build: (SendableResponses<Target>) -> SendableResponses<Target>
    ) -> RegistrationToken {
        register(AnySendableResponder(target, responses: build(SendableResponses())), retention: retention, at: nil)
    }

    /// Adds `target` at the end, answering its type's responses plus those `build` declares.
    @inlinable @discardableResult
    public func add<Target: DelegateResponder & Sendable>(
        _ target: Target, retention: Retention = .weak,
        _ build: (SendableResponses<Target>) -> SendableResponses<Target>
    ) -> RegistrationToken where Target.DeclaredResponses == SendableResponses<Target> {
        register(AnySendableResponder(target, responses: build(Target.responses)), retention: retention, at: nil)
    }

    /// Adds `responder`'s target at the end, answering its `@Sendable` handlers.
    ///
    /// An ``AnyResponder`` is not accepted: its handlers need not be `@Sendable`.
    @inlinable @discardableResult
    public func add(_ responder: AnySendableResponder, retention: Retention = .weak) -> RegistrationToken {
        register(responder, retention: retention, at: nil)
    }

    /// Inserts `target` so that it becomes the live target at `index`, answering `responses`.
    ///
    /// A target already registered moves to `index` (counted among the other targets).
    /// - Precondition: `0 <= index <= ` the number of live targets (not counting `target`).
    @inlinable @discardableResult
    public func insert<Target: AnyObject & Sendable>(
        _ target: Target, at index: Int, retention: Retention = .weak, responses: SendableResponses<Target>
    ) -> RegistrationToken {
        register(AnySendableResponder(target, responses: responses), retention: retention, at: index)
    }

    /// Inserts `target` at `index`, answering its type's responses.
    @inlinable @discardableResult
    public func insert<Target: DelegateResponder & Sendable>(
        _ target: Target, at index: Int, retention: Retention = .weak
    ) -> RegistrationToken where Target.DeclaredResponses == SendableResponses<Target> {
        register(AnySendableResponder(target), retention: retention, at: index)
    }

    /// Inserts `responder`'s target at `index`, answering its `@Sendable` handlers.
    @inlinable @discardableResult
    public func insert(_ responder: AnySendableResponder, at index: Int, retention: Retention = .weak)
        -> RegistrationToken
    {
        register(responder, retention: retention, at: index)
    }
}
