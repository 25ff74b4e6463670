import Synchronization

// The dispatch entry points of ConcurrentDelegateChain. @inlinable so that a client module gets
// code specialized for its message types. A send takes no lock and allocates nothing: it
// announces itself in its thread's record, walks the published snapshot unretained, and leaves
// (see ReadSide).

extension ConcurrentDelegateChain {
    /// Sends a void message: every live responder in order, or only the first in
    /// ``DelegateChain/Mode/breaking`` mode. Handlers run on the calling thread.
    ///
    /// The responders are those of the snapshot published when the send starts: a concurrent
    /// addition is seen entirely or not at all, and a target removed meanwhile (on any thread)
    /// is skipped from the moment its removal is made.
    /// - Complexity: O(1) expected to find the responders, then one call per responder.
    @inlinable @inline(__always)
    public func send<Input>(_ message: Message<Input, Void>, _ input: Input) {
        let breaking = mode == .breaking
        if observed.load(ordering: .relaxed) {
            _ = forEachAnswerObserved(to: message, input) { _ in breaking }
            return
        }
        // Two walks, so that neither tests the mode for each responder.
        if breaking {
            dispatch(message) { target, handler in
                handler.body(target, input)
                return true
            }
        } else {
            dispatch(message) { target, handler in
                handler.body(target, input)
                return false
            }
        }
    }

    /// Whether some live target answers `message`, at the instant of the call.
    /// - Complexity: O(1) expected, plus a skip past each dead or removed target.
    @inlinable
    public func responds<Input, Output>(to message: Message<Input, Output>) -> Bool {
        if forwards.load(ordering: .relaxed) { return respondsForwarding(to: message) }
        let dispatch = enterConcurrentDispatch(readSide, cell: cell)
        let found = cell.load(for: dispatch, readSide)._withUnsafeGuaranteedRef { $0.hasLiveResponder(of: message.id) }
        leaveConcurrentDispatch(readSide, dispatch, cell: cell)
        return found
    }

    /// Calls `body` with each live, not removed responder of `message` in order, until it
    /// returns true; then reclaims dead targets it met, if the chain's mutex is free. With
    /// `onlyIfVerified`, walks only if every handler of `message` was verified when the published
    /// snapshot was built (see ``RequirementDispatching``).
    /// - Returns: whether it walked the responders (always, without `onlyIfVerified`).
    @inlinable @inline(__always) @discardableResult
    func dispatch<Input, Output>(
        _ message: Message<Input, Output>, onlyIfVerified: Bool = false,
        _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        let dispatch = enterConcurrentDispatch(readSide, cell: cell)
        let snapshot = cell.load(for: dispatch, readSide)
        if onlyIfVerified && !snapshot._withUnsafeGuaranteedRef({ $0.isVerified(message.id) }) {
            // A leave of its own, before any walk: what only the checking walk that follows
            // needs (the input, the message) then stays out of the walk's registers.
            leaveConcurrentDispatch(readSide, dispatch, cell: cell)
            return false
        }
        let sawDead = dispatch.record._withUnsafeGuaranteedRef { record in
            snapshot._withUnsafeGuaranteedRef {
                $0.forEachResponder(of: message, record: record, level: dispatch.level, readSide: readSide, body)
            }
        }
        // Leaves before anything is released: a deinit that runs then is outside the dispatch.
        leaveConcurrentDispatch(readSide, dispatch, cell: cell)
        if sawDead || needsSweep.load(ordering: .relaxed) {
            needsSweep.store(true, ordering: .relaxed)
            sweepIfUncontended()
        }
        return true
    }
}

extension ConcurrentDelegateChain: MessageDispatching {
    /// Calls the live responders of `message` in order with `input`, handing each answer to
    /// `body`, until `body` returns true (whatever the chain's mode), on the calling thread.
    ///
    /// This gives a concurrent chain the combined answers of ``MessageDispatching``, such as
    /// ``MessageDispatching/send(_:_:combining:)``.
    /// - Returns: whether `body` stopped the walk.
    /// - Complexity: O(1) expected to find the responders, then one call per responder.
    @inlinable @inline(__always)
    public func forEachAnswer<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if observed.load(ordering: .relaxed) { return forEachAnswerObserved(to: message, input, body) }
        var stopped = false
        dispatch(message) { target, handler in
            stopped = body(handler.body(target, input))
            return stopped
        }
        return stopped
    }

    /// A send while something observes the chain or it holds a nested proxy: the streams that
    /// see it before the responders, the walk (outside the observers' lock, a nested proxy's
    /// listeners answering in its place), then the streams that see it after.
    @inlinable @inline(never)
    func forEachAnswerObserved<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        let seenAfter = observing.load(ordering: .relaxed) ? notifyObservers(message, input) : false
        var stopped = false
        var answer: Output?
        func handle(_ output: Output) -> Bool {
            if seenAfter, answer == nil { answer = output }
            stopped = body(output)
            return stopped
        }
        dispatch(message) { target, handler in
            if let forwarding = handler.forwarding { return forwarding.walk(target, input, handle) }
            return handle(handler.body(target, input))
        }
        if seenAfter { notifyObserversAfterResponders(message, Invocation(input: input, answer: answer)) }
        return stopped
    }

    /// ``responds(to:)`` on a chain that holds a nested proxy: such a responder responds while
    /// one of its own listeners does.
    @inlinable @inline(never)
    func respondsForwarding<Input, Output>(to message: Message<Input, Output>) -> Bool {
        var found = false
        dispatch(message) { (target, handler: Handler<Input, Output>) in
            found = handler.forwarding?.responds(target) ?? true
            return found
        }
        return found
    }
}
