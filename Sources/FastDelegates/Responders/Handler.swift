/// Storage for one handler, of any message type.
@usableFromInline
class AnyHandler: @unchecked Sendable {
    @usableFromInline
    init() {}
}

/// One handler of a `Message<Input, Output>`, taking its target type-erased. Immutable.
@usableFromInline
final class Handler<Input, Output>: AnyHandler, @unchecked Sendable {
    @usableFromInline
    let body: @Sendable (AnyObject, Input) -> Output

    @usableFromInline
    init(_ body: @escaping @Sendable (AnyObject, Input) -> Output) {
        self.body = body
    }
}
