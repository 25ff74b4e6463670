/// A single-thread dispatcher whose sends its ``ObserverTable`` see: the one place that wraps
/// a walk over the responders in the before- and after-responders notifications.
@usableFromInline
protocol ObservedDispatcher: AnyObject {
    /// The streams observing this dispatcher's sends; nil while none does.
    var observers: ObserverTable? { get }

    /// Hands the answers of the responders of `message` to `body` until it returns true.
    func walk<Input, Output>(_ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool) -> Bool
    /// ``walk(_:_:_:)`` for a requirement's send, which asks each unverified handler whether its
    /// listener implements the requirement (see ``RequirementDispatching``).
    func checkingWalk<Input, Output>(
        _ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool
}

extension ObservedDispatcher {
    /// One send as the observers see it: the streams before the responders get `input`, the
    /// walk runs (the ``checkingWalk(_:_:_:)`` of a requirement's send, when `asking`), and the
    /// streams after the responders get `input` with the first answer.
    /// - Returns: whether `body` stopped the walk.
    @inlinable
    func observedWalk<Input, Output>(
        _ message: Message<Input, Output>, _ input: Input, asking: Bool = false, _ body: (Output) -> Bool
    ) -> Bool {
        guard let observers, observers.notifyBeforeResponders(message, input) else {
            return walk(message, input, asking: asking, body)
        }
        var answer: Output?
        let stopped = walk(message, input, asking: asking) { output in
            if answer == nil { answer = output }
            return body(output)
        }
        observers.notifyAfterResponders(message, Invocation(input: input, answer: answer))
        return stopped
    }

    /// ``checkingWalk(_:_:_:)`` when `asking`, else ``walk(_:_:_:)``.
    @inlinable
    func walk<Input, Output>(
        _ message: Message<Input, Output>, _ input: Input, asking: Bool, _ body: (Output) -> Bool
    ) -> Bool {
        asking ? checkingWalk(message, input, body) : walk(message, input, body)
    }

    /// A dispatcher with no requirements to ask walks as ``walk(_:_:_:)``.
    @inlinable
    func checkingWalk<Input, Output>(
        _ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        walk(message, input, body)
    }
}
