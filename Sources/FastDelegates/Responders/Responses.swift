/// The messages a target answers, each with the handler that answers it.
///
/// A handler receives the target as its first parameter, so it never has to capture the target
/// (no retain cycle, no `weak self` dance) and never casts it: the compiler already knows its type.
///
/// `Responses` is for the single-thread dispatchers (``DelegateChain``, ``DelegateSlot``,
/// ``DelegateInterceptor``, ``DelegateRouter``), which stay in one isolation domain, so a
/// handler may be any closure: it may capture non-`Sendable` state, and a handler written in
/// `@MainActor` code may call the main actor's methods and read its state directly. For that
/// reason `Responses` is not `Sendable`; declare a type's responses once as a `static let` in a
/// `@MainActor` type, or use ``SendableResponses`` in a nonisolated one (and for a
/// ``ConcurrentDelegateChain``):
///
/// ```swift
/// @MainActor final class ZoomController {
///     var scale = 1.0
///     func zoom(by y: Double) { scale = 1 + y / 100 }
/// }
/// extension ZoomController: @MainActor DelegateResponder {
///     static let responses = Responses<ZoomController>()
///         .on(Scroll.didScroll) { me, offset in me.zoom(by: offset) }
/// }
///
/// let counter = Counter()                              // not Sendable
/// chain.add(logger) { $0.on(Scroll.didScroll) { _, _ in counter.n += 1 } }
/// ```
///
/// Registering a second handler for the same message replaces the first.
public struct Responses<Target: AnyObject>: ResponseSet {
    @usableFromInline
    var handlers: [UInt32: AnyHandler]

    /// Responses that answer nothing yet.
    public init() {
        handlers = [:]
    }

    /// The handlers of `responses`, which all are `@Sendable`, for a single-thread dispatcher.
    public init(_ responses: SendableResponses<Target>) {
        handlers = responses.handlers
    }

    /// These responses plus `handler` answering `message`.
    ///
    /// - Complexity: O(1) amortized when nothing else shares these responses, as in a chain of
    ///   `.on` calls or `responses = (consume responses).on(…)`; otherwise O(*n*) for *n*
    ///   handlers, to copy them first.
    @inlinable
    public consuming func on<Input, Output>(
        _ message: Message<Input, Output>,
        _ handler: @escaping (Target, Input) -> Output
    ) -> Responses<Target> {
        // `self` is owned here: when the caller shares it with nothing, this adds in place.
        self.handlers[message.id] = Handler<Input, Output>.calling(handler)
        return self
    }

    /// These responses plus `handler` answering `message`, a message that carries no input.
    @inlinable
    public consuming func on<Output>(
        _ message: Message<Void, Output>,
        _ handler: @escaping (Target) -> Output
    ) -> Responses<Target> {
        on(message) { target, _ in handler(target) }
    }

    /// These responses plus `handler` answering `message`, the message of a `@DelegateProxy`
    /// protocol's requirement, which `handler` calls on its target: what the protocol's generated
    /// responder writes.
    ///
    /// The target's method may be the protocol's generated default (its class does not implement
    /// the requirement). A proxy's send (``RequirementDispatching``) asks the handler once whether it
    /// answers, and drops it from the target's responses if it declines; any other send calls it
    /// as a handler of ``on(_:_:)-(Message<Input,Output>,_)``, and the default answers as the protocol documents.
    public consuming func on<Input, Output>(
        requirement message: Message<Input, Output>,
        _ handler: @escaping (Target, Input) -> Output
    ) -> Responses<Target> {
        self.handlers[message.id] = Handler<Input, Output>(TargetErasedBody(handler).erased, status: .unverified)
        return self
    }

    /// ``on(requirement:_:)-(Message<Input,Output>,_)`` for a requirement that takes no parameters.
    public consuming func on<Output>(
        requirement message: Message<Void, Output>,
        _ handler: @escaping (Target) -> Output
    ) -> Responses<Target> {
        on(requirement: message) { target, _ in handler(target) }
    }

    /// These responses plus every handler of `other`; where both answer a message, `other` wins.
    public func merging(_ other: some ResponseSet<Target>) -> Responses<Target> {
        var copy = self
        copy.handlers.merge(other.responses.handlers) { _, new in new }
        return copy
    }

    /// Whether these responses answer `message`.
    public func answers<Input, Output>(_ message: Message<Input, Output>) -> Bool {
        handlers[message.id] != nil
    }

    /// How many messages these responses answer.
    public var count: Int { handlers.count }

    /// These responses themselves.
    public var responses: Responses<Target> { self }
}

extension Responses where Target: MessageDispatching {
    /// These responses plus `message` forwarded to the target, itself a dispatcher: a chain of
    /// chains (or of slots, routers, interceptors).
    ///
    /// ```swift
    /// outer.add(inner, retention: .strong) { $0.forwarding(Scroll.didScroll).forwarding(Scroll.viewForZooming) }
    /// ```
    ///
    /// Unlike a handler written with `on(_:_:)` that sends to the inner dispatcher (it always
    /// answers), a forwarded message follows the inner
    /// dispatcher's live state:
    /// - The outer dispatcher's `responds(to:)` is true while the inner one responds to
    ///   `message` (some live target of it answers), and false once they are gone or removed.
    /// - A send walks the inner dispatcher's responders in the inner one's place (with its own
    ///   semantics: a slot's primary first, a router's active route, an interceptor's middle
    ///   man): each of their answers is an answer of the outer send, in order, and an inner
    ///   dispatcher with no live responder is skipped as if it were not there (the next target
    ///   answers; a breaking chain's void message goes on to it). The outer dispatcher's mode
    ///   decides where the walk stops, and the inner dispatcher's observers see the send.
    ///
    /// For the single-thread dispatchers (``DelegateChain`` and the patterns built on it); a
    /// chain that holds a forwarded message pays one flag check per send for it.
    public consuming func forwarding<Input, Output>(_ message: Message<Input, Output>) -> Responses<Target> {
        self.handlers[message.id] = Handler<Input, Output>(
            forwarding: Forwarding(
                walk: { target, input, body in
                    // Sound: a handler only ever receives the target it was registered with.
                    unsafeDowncast(target, to: Target.self).forEachAnswer(to: message, input, body)
                },
                responds: { target in unsafeDowncast(target, to: Target.self).responds(to: message) },
                requirements: Self.requirements(of: message)))
        return self
    }

    /// How a target that is a chain forwards `message` as a requirement; nil for the patterns,
    /// which cannot (a requirement's send through them stops with a clear error).
    private static func requirements<Input, Output>(
        of message: Message<Input, Output>
    ) -> ForwardedRequirements<Input, Output>? {
        switch Target.self {
        case is DelegateChain.Type: ForwardedRequirements<Input, Output>.chain(DelegateChain.self, message)
        case is ConcurrentDelegateChain.Type:
            ForwardedRequirements<Input, Output>.chain(ConcurrentDelegateChain.self, message)
        default: nil
        }
    }
}

extension ForwardedRequirements {
    /// The requirement sends of `Chain`, the target of a forwarding handler of `message`.
    static func chain<Chain: RequirementDispatching & AsyncRequirementChain>(
        _: Chain.Type, _ message: Message<Input, Output>
    ) -> ForwardedRequirements {
        // Sound: a handler only ever receives the target it was registered with, a `Chain`.
        chain(message) { unsafeDowncast($0, to: Chain.self) }
    }

    /// The requirement sends of the chain `chainOf` gives for a forwarding handler's target.
    static func chain<Chain: RequirementDispatching & AsyncRequirementChain>(
        _ message: Message<Input, Output>, _ chainOf: @escaping (AnyObject) -> Chain
    ) -> ForwardedRequirements {
        ForwardedRequirements(
            walk: { target, input, body in chainOf(target).forEachAnswer(toRequirement: message, input, body) },
            stillImplements: { target, listener in chainOf(target).stillImplements(message, listener) },
            dropDeclined: { target, listener in chainOf(target).dropAsyncDeclined(message, of: listener) },
            commit: { target, listener in
                let chain = chainOf(target)
                guard let commitment = chain.commitCall(of: message, to: listener) else { return nil }
                return ForwardedCommitment(end: { chain.endCall(commitment) })
            })
    }
}
