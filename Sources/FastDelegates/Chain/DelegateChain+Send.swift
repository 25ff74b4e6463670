// The dispatch entry points. They are @inlinable so that a client module gets code specialized
// for its own message types: no generic dispatch, no allocation, no lock, no cast per send.
// The sends with an answer, a default or no input come from `MessageDispatching`, over
// `forEachAnswer`.

extension DelegateChain {
    /// Sends a void message: every live responder in order, or only the first in
    /// ``Mode/breaking`` mode.
    ///
    /// - Complexity: O(1) expected to find the responders, then one call per responder.
    @inlinable
    public func send<Input>(_ message: Message<Input, Void>, _ input: Input) {
        let breaking = mode == .breaking
        _ = forEachAnswer(to: message, input) { _ in breaking }
    }

    /// Hands a send to the streams observing it; out of line so that a send nobody observes
    /// pays only the nil check before the call.
    @inlinable @inline(never)
    func notifyObservers<Input, Output>(_ message: Message<Input, Output>, _ input: Input) {
        observers?.notify(message, input)
    }

    /// Calls the live responders of `message` in order with `input`, handing each answer to
    /// `body`, until `body` returns true (whatever the chain's mode).
    /// - Returns: whether `body` stopped the walk.
    /// - Complexity: O(1) expected to find the responders, then one call per responder.
    @inlinable
    public func forEachAnswer<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if observers != nil { notifyObservers(message, input) }
        let stopped = table.forEachResponder(of: message) { target, handler in
            body(handler.body(target, input))
        }
        if table.needsCleanup, !table.isDispatching { finishDispatch() }
        return stopped
    }

    /// Whether some live target answers `message`.
    /// - Complexity: O(1) expected, plus a skip past each dead target.
    @inlinable
    public func responds<Input, Output>(to message: Message<Input, Output>) -> Bool {
        let found = table.forEachResponder(of: message) { _, _ in true }
        if table.needsCleanup, !table.isDispatching { finishDispatch() }
        return found
    }
}
