import CDispatchTable

// What a `@DelegateProxy` protocol's requirements need of the chains: the declining record its
// generated defaults claim (`RequirementDefaults`), the statuses of handlers in a span, and
// `DelegateChain`'s checking walk and the refresh of a requirement's `PreparedMessage`. How it
// works: ``RequirementDispatching``.

/// What the default implementations that `@DelegateProxy` generates for a protocol's
/// requirements ask the library. For generated code.
public enum RequirementDefaults {
    /// Whether a proxy's send is asking `listener` for `message` right now, its handler's first
    /// call (see ``RequirementDispatching``): then this marks `listener` as not implementing the
    /// requirement, and the default returns at once without calling a completion handler.
    /// Otherwise (a host calling the method directly, a plain send, another object's
    /// implementation calling this listener's default) it returns false, and the default
    /// behaves as the protocol documents.
    ///
    /// - Complexity: O(1): a read of a thread-local record.
    public static func declines<Input, Output>(_ message: Message<Input, Output>, _ listener: AnyObject) -> Bool {
        cdt_decline_claim(message.id, UnsafeRawPointer(Unmanaged.passUnretained(listener).toOpaque()))
    }

    /// ``declines(_:_:)`` for the default of a requirement that a refining protocol restates:
    /// it is the witness of each of `messages` (the refining protocol's own message, and its
    /// parents' messages of the same requirement), so it declines whichever of them a proxy's send
    /// is asking `listener` for.
    ///
    /// - Complexity: O(`messages.count`) reads of a thread-local record.
    public static func declinesAny<Input, Output>(_ messages: [Message<Input, Output>], _ listener: AnyObject) -> Bool {
        messages.contains { declines($0, listener) }
    }

    /// ``declinesAny(_:_:)`` for an `async` requirement (``declinesAsync(_:_:)``).
    public static func declinesAnyAsync<Input, Output, Failure>(
        _ messages: [Message<Input, AsyncCall<Output, Failure>>], _ listener: AnyObject
    ) -> Bool {
        messages.contains { declinesAsync($0, listener) }
    }

    /// Calls `handler` armed for `message` and `target`; returns its answer, or nil when the
    /// target's default declined.
    @usableFromInline
    static func ask<Output>(_ message: UInt32, _ target: AnyObject, _ handler: () -> Output) -> Output? {
        let previous = cdt_decline_arm(message, UnsafeRawPointer(Unmanaged.passUnretained(target).toOpaque()))
        let output = handler()
        return cdt_decline_disarm(previous) ? nil : output
    }
}

extension DispatchTable {
    /// Whether every live handler among `responders` (read outside a dispatch, or between
    /// ``enter()`` and ``leave()``) is verified.
    @usableFromInline
    func allVerified(_ responders: Responders) -> Bool {
        guard var next = responders.start, let end = responders.end else { return true }
        while next != end {
            let entry = next
            next += 1
            guard let slot = entry.pointee.slot_address, slot.pointee.generation == entry.pointee.generation,
                let handler = entry.pointee.handler
            else { continue }
            let verified = Unmanaged<AnyHandler>.fromOpaque(handler)._withUnsafeGuaranteedRef {
                $0.status == .verified
            }
            if !verified { return false }
        }
        return true
    }
}

extension DispatchTable {
    /// The registrations among `responders` (read outside a dispatch, or between ``enter()``
    /// and ``leave()``) whose handler is known to decline; none, with no allocation, usually.
    func decliningRegistrations(_ responders: Responders) -> [ChainRegistration] {
        var found: [ChainRegistration] = []
        guard var next = responders.start, let end = responders.end else { return found }
        while next != end {
            let entry = next
            next += 1
            guard let slot = entry.pointee.slot_address, slot.pointee.generation == entry.pointee.generation,
                let handler = entry.pointee.handler, let object = slot.pointee.object
            else { continue }
            let declined = Unmanaged<AnyHandler>.fromOpaque(handler)._withUnsafeGuaranteedRef {
                $0.status == .declined
            }
            if declined { found.append(Unmanaged<ChainRegistration>.fromOpaque(object).takeUnretainedValue()) }
        }
        return found
    }
}

extension DelegateChain: RequirementDispatching {
    /// The refresh of a requirement's ``PreparedMessage`` (``PreparedMessage/init(requirement:)``)
    /// whose remembered span is out of date: it remembers the new span when all its handlers are
    /// verified, and else asks them with the checking walk.
    @inlinable @inline(never)
    func forEachAnswerRefreshingRequirement<Input, Output>(
        to message: PreparedMessage<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        guard mayRemember(requirement: message.message) else {
            return forEachAnswer(toRequirement: message.message, input, body)
        }
        _ = cdt_chain_lookup_cached(table.chain, message.message.id, &message.cache)
        return forEachAnswer(among: DispatchTable.Responders(remembered: message), input, body)
    }

    /// Whether a requirement's prepared send may remember the responders of `message` now, and
    /// take the fast path with them: on a chain not observed, when all their handlers are
    /// verified. Else the send takes the checking walk (``forEachAnswer(toRequirement:_:_:)``).
    @usableFromInline
    func mayRemember<Input, Output>(requirement message: Message<Input, Output>) -> Bool {
        if needsSlowPath {
            enterPending(of: message.id)
            if isObservedOrForwarding { return false }
        }
        // Listeners already known to decline leave first: a send that stops early (a query)
        // would never reach those behind its answer, and they would keep the span unremembered.
        dropDecliners(of: message.id)
        return table.allVerified(table.responders(of: message))
    }

    /// Calls the live listeners that implement a requirement in order with `input`, handing each
    /// answer to `body`, until it returns true: the walk that asks each unverified handler whether
    /// it answers (see ``RequirementDispatching``), with the chain's observers and forwarders. Used
    /// unprepared for a proxy's inherited requirements, and by a requirement's ``PreparedMessage``
    /// only after a change of the table, or on an observed chain.
    /// - Returns: whether `body` stopped the walk.
    @inlinable
    public func forEachAnswer<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if needsSlowPath { return forEachAnswerObserved(toRequirement: message, input, body) }
        return checkingWalk(message, input, body)
    }

    /// ``forEachAnswer(toRequirement:_:_:)`` on a chain that something observes, that forwards
    /// or that has handlers not entered yet: out of line, as a plain send's.
    @usableFromInline @inline(never)
    func forEachAnswerObserved<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        enterPending(of: message.id)
        if isObservedOrForwarding { return observedWalk(message, input, asking: true, body) }
        return checkingWalk(message, input, body)
    }

    @inlinable
    func checkingWalk<Input, Output>(
        _ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        dispatch(
            among: table.responders(of: message),
            { (target, handler: Handler<Input, Output>) in
                if let forwarding = handler.forwarding {
                    return forwarding.walkRequirement(target, message.id, input, body)
                }
                switch handler.status {
                case .verified:
                    return body(handler.body(target, input))
                case .declined:
                    dropDeclined(message.id, handler, of: target)
                    return false
                case .unverified:
                    guard let output = RequirementDefaults.ask(message.id, target, { handler.body(target, input) })
                    else {
                        handler.status = .declined
                        dropDeclined(message.id, handler, of: target)
                        return false
                    }
                    handler.status = .verified
                    return body(output)
                }
            })
    }

    /// Takes the handlers of `message` known to decline out of their registrations, outside a
    /// dispatch: a registration added before its class was found declining still holds one.
    @usableFromInline
    func dropDecliners(of message: UInt32) {
        for registration in table.decliningRegistrations(
            DispatchTable.Responders(cdt_chain_lookup(table.chain, message)))
        {
            var responses = registration.responses
            responses[message] = nil
            table.replaceResponses(of: registration, with: responses)
        }
    }

    /// Takes `handler`, which declined `message`, out of `target`'s responses (also during a
    /// dispatch: the running walks skip it from then on).
    @usableFromInline
    func dropDeclined(_ message: UInt32, _ handler: AnyHandler, of target: AnyObject) {
        guard let registration = liveRegistration(of: target), registration.responses[message] === handler else {
            return
        }
        var responses = registration.responses
        responses[message] = nil
        table.replaceResponses(of: registration, with: responses)
    }
}
