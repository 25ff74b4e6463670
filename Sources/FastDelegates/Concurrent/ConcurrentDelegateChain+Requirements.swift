import CDispatchTable
import Synchronization

// The sends of a `@DelegateProxy` protocol's requirements through a concurrent chain: each call
// checks its handler's status (one atomic load and a branch per responder), so that a listener
// that does not implement the requirement is asked once and then skipped; the first send that
// finds it declining also takes its handler out of its registration.

extension ConcurrentDelegateChain: RequirementDispatching {
    /// Calls the live listeners that implement a requirement in order with `input`, handing each
    /// answer to `body`, until it returns true. A verified handler is called as by
    /// ``forEachAnswer(to:_:_:)``; a declined one is skipped; an unverified one is asked (see
    /// ``RequirementDispatching``), and dropped from its registration after the walk if it declines.
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
