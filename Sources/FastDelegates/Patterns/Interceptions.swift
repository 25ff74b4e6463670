/// The messages a middle man intercepts, each with a handler that may call through to the
/// receiver.
public struct Interceptions<MiddleMan: AnyObject>: Sendable {
    @usableFromInline
    var makers: [UInt32: @Sendable (ReceiverLink) -> AnyHandler] = [:]

    /// Intercepts nothing yet.
    public init() {}

    /// These interceptions plus `handler` intercepting `message`.
    ///
    /// The handler receives the middle man, the input and `callThrough`, which sends the
    /// message on to the receiver with the input it is given and returns the receiver's
    /// answer (`nil` if the receiver does not answer). Not calling it keeps the message from
    /// the receiver.
    @inlinable
    public func on<Input, Output>(
        _ message: Message<Input, Output>,
        _ handler: @escaping @Sendable (MiddleMan, Input, _ callThrough: (Input) -> Output?) -> Output
    ) -> Interceptions<MiddleMan> {
        var copy = self
        copy.makers[message.id] = { link in
            Handler<Input, Output> { target, input in
                // Sound: the only target of the middle chain is the `MiddleMan` it was made for.
                handler(unsafeDowncast(target, to: MiddleMan.self), input) { forwarded in
                    link.chain.send(message, forwarded)
                }
            }
        }
        return copy
    }

    /// Whether these interceptions handle `message`.
    public func intercepts<Input, Output>(_ message: Message<Input, Output>) -> Bool {
        makers[message.id] != nil
    }
}
