import CDispatchTable
import Synchronization

// The sends of a `@DelegateProxy` protocol's requirements through a concurrent chain. The
// snapshot records, per message, whether all its handlers were verified when it was built: then
// a send is a plain send. Otherwise the send checks each handler's status (one atomic load and a
// branch per responder), so that a listener that does not implement the requirement is asked once
// and then skipped; the first send that finds it declining takes its handler out of its
// registration, and the first that verifies the last unverified handler publishes a snapshot
// that records it.

extension ConcurrentDelegateChain: RequirementDispatching {
    /// Calls the live listeners that implement a requirement in order with `input`, handing each
    /// answer to `body`, until it returns true. A verified handler is called as by
    /// ``forEachAnswer(to:_:_:)``; a declined one is skipped; an unverified one is asked (see
    /// ``RequirementDispatching``), and dropped from its registration after the walk if it declines.
    /// - Returns: whether `body` stopped the walk.
    /// - Complexity: once every handler of the requirement is verified, that of
    ///   ``forEachAnswer(to:_:_:)``.
    @inlinable @inline(__always)
    public func forEachAnswer<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if !observed.load(ordering: .relaxed) {
            var stopped = false
            let walked = dispatch(message, onlyIfVerified: true) { target, handler in
                stopped = body(handler.body(target, input))
                return stopped
            }
            if walked { return stopped }
        }
        return forEachAnswerChecking(toRequirement: message, input, body)
    }

    /// ``forEachAnswer(toRequirement:_:_:)`` while some handler of the requirement is not known
    /// to be verified, or something observes the chain: the walk that checks each handler's
    /// status. Out of line, so that the sends that skip it stay small.
    @inlinable @inline(never)
    func forEachAnswerChecking<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        // Unobserved, the send is here because the published snapshot does not record `message`
        // as verified.
        let unobserved = !observed.load(ordering: .relaxed)
        let seenAfter = observing.load(ordering: .relaxed) ? notifyObservers(message, input) : false
        var answer: Output?
        var stopped = false
        var declined: [AnyObject] = []
        var verifiedSome = false
        // Whether every handler met was verified and forwards nothing: handlers are shared per
        // listener class and protocol, so a send through another chain may have verified them
        // all since this chain's snapshot was built, and no send here ever verifies one.
        var allVerified = true
        func handle(_ output: Output) -> Bool {
            if seenAfter, answer == nil { answer = output }
            stopped = body(output)
            return stopped
        }
        dispatch(message) { target, handler in
            let output: Output
            switch handler.status {
            case .verified:
                if let forwarding = handler.forwarding {
                    allVerified = false
                    return forwarding.walkRequirement(target, message.id, input, handle)
                }
                output = handler.body(target, input)
            case .declined:
                // Declined through another chain (handlers are shared): dropped here too, or
                // every send of this chain would meet it again.
                allVerified = false
                declined.append(target)
                return false
            case .unverified:
                guard let asked = RequirementDefaults.ask(message.id, target, { handler.body(target, input) }) else {
                    allVerified = false
                    handler.status = .declined
                    declined.append(target)
                    return false
                }
                handler.status = .verified
                verifiedSome = true
                output = asked
            }
            return handle(output)
        }
        if seenAfter { notifyObserversAfterResponders(message, Invocation(input: input, answer: answer)) }
        if !declined.isEmpty {
            dropDeclined(message.id, of: declined)
        } else if verifiedSome || (allVerified && unobserved && !stopped) {
            publishVerified(message.id)
        }
        return stopped
    }

    /// Publishes a new snapshot if every handler of `message` in the published one is now
    /// verified although it was built with some unverified: the sends that follow skip the
    /// status checks. Through the chain's mutex, once per requirement and change of the chain.
    @usableFromInline
    func publishVerified(_ message: UInt32) {
        let published = locked { state -> Bool in
            let verified = cell.published._withUnsafeGuaranteedRef { $0.isVerifiedSinceBuilt(message) }
            if verified {
                var garbage = Garbage()
                publish(&state, garbage: &garbage)
            }
            return verified
        }
        if published { reclaimRetired() }
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
        dispose(garbage)
        reclaimRetired()
    }
}
