import CDispatchTable

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
        // Two walks, so that neither tests the mode for each responder.
        if mode == .breaking {
            _ = forEachAnswer(to: message, input) { _ in true }
        } else {
            _ = forEachAnswer(to: message, input) { _ in false }
        }
    }

    /// Calls the live responders of `message` in order with `input`, handing each answer to
    /// `body`, until `body` returns true (whatever the chain's mode).
    /// - Returns: whether `body` stopped the walk.
    /// - Complexity: O(1) expected to find the responders, then one call per responder.
    @inlinable
    public func forEachAnswer<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if needsSlowPath { return forEachAnswerObservedOrForwarding(to: message, input, body) }
        return forEachAnswer(among: table.responders(of: message), input, body)
    }

    /// The unobserved walk of `forEachAnswer`, over the responders of one message (found by the
    /// send of a ``Message`` or of a ``PreparedMessage``), as one dispatch of the table.
    @inlinable @inline(__always)
    func forEachAnswer<Input, Output>(
        among responders: DispatchTable.Responders, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        dispatch(among: responders) { (target, handler: Handler<Input, Output>) in
            body(handler.body(target, input))
        }
    }

    /// One dispatch of the table: entered, `body` called with each live one of `responders`
    /// (found just before, with nothing changed since) until it returns true, left, and finished
    /// when it was the outermost and left work. Every walk of the chain is one; a walk of no
    /// responders enters nothing.
    /// - Returns: whether `body` stopped the walk.
    @inlinable @inline(__always)
    func dispatch<Input, Output>(
        among responders: DispatchTable.Responders, _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        // No responders, nothing to enter or leave. This also gives the walk a single exit, so that
        // the compiler reloads the table after the loop, not in it (3 instructions per target).
        guard responders.start != responders.end else { return false }
        let table = self.table
        table.enter()
        let stopped = table.forEachResponder(in: responders, body)
        if table.leave() { finishDispatch() }
        return stopped
    }

    /// Whether some live target answers `message` (for a forwarded message, whether the
    /// dispatcher it is forwarded to responds now).
    /// - Complexity: O(1) expected, plus a skip past each dead target.
    @inlinable
    public func responds<Input, Output>(to message: Message<Input, Output>) -> Bool {
        if needsSlowPath { enterPending(of: message.id) }
        let forwards = hasForwarders
        return dispatch(
            among: table.responders(of: message),
            { (target, handler: Handler<Input, Output>) in !forwards || (handler.forwarding?.responds(target) ?? true) }
        )
    }

    /// A send on a chain that something observes, that forwards to a dispatcher or that has
    /// handlers not entered yet: out of line, so that every other send pays one flag check for
    /// all three.
    @inlinable @inline(never)
    func forEachAnswerObservedOrForwarding<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        enterAllPending()
        if isObservedOrForwarding { return observedWalk(message, input, body) }
        return forEachAnswer(among: table.responders(of: message), input, body)
    }

    /// The walk of `forEachAnswer`, where a forwarded message walks its target dispatcher's
    /// answers in the target's place.
    @inlinable
    func walk<Input, Output>(_ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool) -> Bool {
        dispatch(
            among: table.responders(of: message),
            { (target, handler: Handler<Input, Output>) in
                if let forwarding = handler.forwarding { return forwarding.walk(target, input, body) }
                return body(handler.body(target, input))
            })
    }
}

extension DelegateChain: ObservedDispatcher {}
