/// The messages a middle man intercepts, each with a handler that may call through to the
/// receiver.
///
/// Like ``Responses``, for a dispatcher confined to one isolation domain: a handler may be any
/// closure, so a `@MainActor` middle man's handlers use its isolated state directly. Not
/// `Sendable`, for the same reason.
public struct Interceptions<MiddleMan: AnyObject> {
    @usableFromInline
    var makers: [UInt32: (ReceiverLink) -> AnyHandler] = [:]

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
        _ handler: @escaping (MiddleMan, Input, _ callThrough: (Input) -> Output?) -> Output
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
