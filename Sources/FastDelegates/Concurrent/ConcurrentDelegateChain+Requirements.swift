import CDispatchTable
import Synchronization

// The sends of a `@DelegateProxy` protocol's requirements through a concurrent chain: each call
// checks its handler's status (one atomic load and a branch per responder), so that a listener
// that does not implement the requirement is asked once and then skipped; the first send that
// finds it declining also takes its handler out of its registration.

extension ConcurrentDelegateChain {
    /// Sends a requirement's void message: every live listener that implements it, in order, or
    /// only the first of them in ``DelegateChain/Mode/breaking`` mode. See ``RequirementMessage``
    /// for how a listener that does not implement it is found out.
    @inlinable
    public func send<Input>(requirement message: Message<Input, Void>, _ input: Input) {
        let breaking = mode == .breaking
        _ = forEachAnswer(toRequirement: message, input) { _ in breaking }
    }

    /// Sends to the first live listener that implements a requirement, whatever the chain's
    /// mode: how a proxy hands a completion handler to exactly one listener.
    /// - Returns: whether a listener took it (when none did, the caller completes).
    @inlinable
    public func sendToFirst<Input>(requirement message: Message<Input, Void>, _ input: Input) -> Bool {
        forEachAnswer(toRequirement: message, input) { _ in true }
    }

    /// The first live implementing listener's answer to a requirement, or nil if none answers.
    @inlinable
    public func send<Input, Output>(requirement message: Message<Input, Output>, _ input: Input) -> Output? {
        FastDelegates.firstAnswer { forEachAnswer(toRequirement: message, input, $0) }
    }

    /// The first live implementing listener's answer to a requirement whose answer is itself
    /// optional, not wrapped once more (nil also when it answers nil).
    @inlinable
    public func send<Input, Wrapped>(requirement message: Message<Input, Wrapped?>, _ input: Input) -> Wrapped? {
        FastDelegates.firstAnswer { forEachAnswer(toRequirement: message, input, $0) } ?? nil
    }

    /// The first live implementing listener's answer to a requirement, or `defaultValue` when
    /// no live listener implements it.
    @inlinable
    public func send<Input, Output>(
        requirement message: Message<Input, Output>, _ input: Input,
        default defaultValue: @autoclosure () -> Output
    ) -> Output {
        send(requirement: message, input) ?? defaultValue()
    }

    /// The answers of every live listener that implements a requirement, combined; the
    /// combination's initial value when none does.
    @inlinable
    public func send<Input, Output, Result>(
        requirement message: Message<Input, Output>, _ input: Input,
        combining combination: AnswerCombination<Output, Result>
    ) -> Result {
        combinedAnswers(of: { forEachAnswer(toRequirement: message, input, $0) }, combination)
    }

    /// Calls the live listeners that implement a requirement in order with `input`, handing each
    /// answer to `body`, until it returns true. A verified handler is called as by
    /// ``forEachAnswer(to:_:_:)``; a declined one is skipped; an unverified one is asked (see
    /// ``RequirementMessage``), and dropped from its registration after the walk if it declines.
    /// - Returns: whether `body` stopped the walk.
    @inlinable
    public func forEachAnswer<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        let seenAfter = observed.load(ordering: .relaxed) ? notifyObservers(message, input) : false
        var answer: Output?
        var stopped = false
        var declined: [AnyObject] = []
        dispatch(message) { target, handler in
            let output: Output
            switch handler.status {
            case .verified:
                output = handler.body(target, input)
            case .declined:
                return false
            case .unverified:
                guard let asked = RequirementDefaults.ask(message.id, target, { handler.body(target, input) }) else {
                    handler.status = .declined
                    declined.append(target)
                    return false
                }
                handler.status = .verified
                output = asked
            }
            if seenAfter, answer == nil { answer = output }
            stopped = body(output)
            return stopped
        }
        if seenAfter { notifyObserversAfterResponders(message, Invocation(input: input, answer: answer)) }
        if !declined.isEmpty { dropDeclined(message.id, of: declined) }
        return stopped
    }

    /// Takes the declined handler of `message` out of each of `targets`' registrations, through
    /// the chain's mutex: sends that start afterwards do not meet it.
    @usableFromInline
    func dropDeclined(_ message: UInt32, of targets: [AnyObject]) {
        let request = Unchecked(targets)
        let garbage = locked { state -> Garbage in
            var garbage = Garbage()
            var changed = false
            for target in request.value {
                guard let registration = state.list.lookup(target).live,
                    let handler = registration.responses[message], handler.status == .declined
                else { continue }
                garbage.items.append(registration.responses)
                registration.responses[message] = nil
                changed = true
            }
            if changed { publish(&state, garbage: &garbage) }
            return garbage
        }
        withExtendedLifetime(garbage) {}
        reclaimRetired()
    }
}
