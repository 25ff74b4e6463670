/// The messages a target answers, with `@Sendable` handlers only: the form that may be shared
/// across threads and that a ``ConcurrentDelegateChain`` requires.
///
/// Use it for a type's `static let responses` in a nonisolated type (a static constant must be
/// `Sendable` there), and for every registration on a ``ConcurrentDelegateChain``, whose
/// handlers run on whatever thread sends:
///
/// ```swift
/// final class Analytics: DelegateResponder {
///     let ticks = Atomic<Int>(0)
///     static let responses = SendableResponses<Analytics>()
///         .on(Scroll.didScroll) { me, _ in me.ticks.add(1, ordering: .relaxed) }
/// }
/// ```
///
/// A handler here may capture only `Sendable` values and cannot use an actor's isolated state;
/// single-thread dispatchers also take ``Responses``, which lifts both limits. Registering a
/// second handler for the same message replaces the first.
public struct SendableResponses<Target: AnyObject>: ResponseSet, @unchecked Sendable {
    // Sound: the only way in is `on`, which takes `@Sendable` closures, so every handler stored
    // here wraps a `@Sendable` closure, and a `Handler` is immutable (the storage type is shared
    // with `Responses`, whose handlers need not be, so that converting costs no copy per handler).
    @usableFromInline
    var handlers: [UInt32: AnyHandler]

    /// Responses that answer nothing yet.
    public init() {
        handlers = [:]
    }

    /// These responses plus `handler` answering `message`.
    ///
    /// - Complexity: O(1) amortized when nothing else shares these responses, as in a chain of
    ///   `.on` calls; otherwise O(*n*) for *n* handlers, to copy them first.
    @inlinable
    public consuming func on<Input, Output>(
        _ message: Message<Input, Output>,
        _ handler: @escaping @Sendable (Target, Input) -> Output
    ) -> SendableResponses<Target> {
        self.handlers[message.id] = Handler<Input, Output>.calling(handler)
        return self
    }

    /// These responses plus `handler` answering `message`, a message that carries no input.
    @inlinable
    public consuming func on<Output>(
        _ message: Message<Void, Output>,
        _ handler: @escaping @Sendable (Target) -> Output
    ) -> SendableResponses<Target> {
        on(message) { target, _ in handler(target) }
    }

    /// These responses plus `handler` answering `message`, the message of a `@DelegateProxy`
    /// protocol's requirement: see ``Responses/on(requirement:_:)-(Message<Input,Output>,_)``.
    public consuming func on<Input, Output>(
        requirement message: Message<Input, Output>,
        _ handler: @escaping @Sendable (Target, Input) -> Output
    ) -> SendableResponses<Target> {
        self.handlers[message.id] = Handler<Input, Output>(TargetErasedBody(handler).erased, status: .unverified)
        return self
    }

    /// ``on(requirement:_:)-(Message<Input,Output>,_)`` for a requirement that takes no parameters.
    public consuming func on<Output>(
        requirement message: Message<Void, Output>,
        _ handler: @escaping @Sendable (Target) -> Output
    ) -> SendableResponses<Target> {
        on(requirement: message) { target, _ in handler(target) }
    }

    /// These responses plus every handler of `other`; where both answer a message, `other` wins.
    public func merging(_ other: SendableResponses<Target>) -> SendableResponses<Target> {
        var copy = self
        copy.handlers.merge(other.handlers) { _, new in new }
        return copy
    }

    /// Whether these responses answer `message`.
    public func answers<Input, Output>(_ message: Message<Input, Output>) -> Bool {
        handlers[message.id] != nil
    }

    /// How many messages these responses answer.
    public var count: Int { handlers.count }

    /// The same handlers as ``Responses``, for a single-thread dispatcher.
    public var responses: Responses<Target> { Responses(self) }
}
