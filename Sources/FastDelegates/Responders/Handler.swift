/// Storage for one handler, of any message type.
///
/// Not `Sendable`: a handler may be any closure, capturing non-`Sendable` state or isolated to
/// the actor it was formed on. Only ``SendableResponses`` (made of `@Sendable` closures alone)
/// hands handlers to a ``ConcurrentDelegateChain``.
@usableFromInline
class AnyHandler {
    @usableFromInline
    init() {}
}

/// One handler of a `Message<Input, Output>`, taking its target type-erased. Immutable.
@usableFromInline
final class Handler<Input, Output>: AnyHandler {
    @usableFromInline
    let body: (AnyObject, Input) -> Output

    @usableFromInline
    init(_ body: @escaping (AnyObject, Input) -> Output) {
        self.body = body
    }
}
