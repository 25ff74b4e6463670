import CDispatchTable

/// The message of a `@DelegateProxy` protocol's requirement, prepared for the proxy's repeated
/// sends through a ``DelegateChain``: a ``PreparedMessage`` that also learns which listeners
/// implement the requirement.
///
/// A protocol's listeners implement only the requirements they need; the protocol's generated
/// extension gives every other requirement a default implementation. A send cannot tell the two
/// apart without calling them, so the first send that meets a listener's handler for the
/// requirement (a handler of ``Responses/on(requirement:_:)-(Message<Input,Output>,_)``, *unverified*) asks it: it arms
/// this thread's declining record for the message and the listener, calls the handler, and reads
/// the record back. A generated default that finds the record armed for its own message and
/// listener claims it (``RequirementDefaults/declines(_:_:)``) and returns at once:
/// - a listener that declined is not counted: its answer is ignored, the walk goes on, and its
///   registration loses the requirement's handler at once. Listeners of the same class share
///   the handler (``ResponderCache``), so they lose it too as sends reach them, and a listener
///   of that class added later never registers it. From then on the chain's
///   ``DelegateChain/responds(to:)`` does not count them, and no send calls them;
/// - a listener that answered has its handler marked *verified*: its answer counts.
///
/// Until a send of the requirement has reached a listener, the chain counts it as responding
/// (``DelegateChain/responds(to:)`` is true for it).
///
/// A send whose responders are all verified is exactly a ``PreparedMessage`` send: one compare
/// while the table is unchanged, then the walk. Only the send that follows a change of the table
/// looks at the handlers' statuses, out of line.
///
/// Not `Sendable`: keep it in one isolation domain, as a ``DelegateChain``.
public final class RequirementMessage<Input, Output> {
    /// The message this sends.
    public let message: Message<Input, Output>

    /// The responders of `message` found last, all verified, with the version of the table they
    /// were found in (see ``PreparedMessage``).
    @usableFromInline @exclusivity(unchecked)
    var cache = cdt_span_cache()

    /// `message`, prepared for a proxy's repeated sends.
    public init(_ message: Message<Input, Output>) {
        self.message = message
    }
}

@available(*, unavailable, message: "RequirementMessage is not thread-safe; keep it with its chain")
extension RequirementMessage: Sendable {}

/// What the default implementations that `@DelegateProxy` generates for a protocol's
/// requirements ask the library. For generated code.
public enum RequirementDefaults {
    /// Whether a proxy's send is asking `listener` for `message` right now, its handler's first
    /// call (see ``RequirementMessage``): then this marks `listener` as not implementing the
    /// requirement, and the default returns at once without calling a completion handler.
    /// Otherwise (a host calling the method directly, a plain send, another object's
    /// implementation calling this listener's default) it returns false, and the default
    /// behaves as the protocol documents.
    ///
    /// - Complexity: O(1): a read of a thread-local record.
    public static func declines<Input, Output>(_ message: Message<Input, Output>, _ listener: AnyObject) -> Bool {
        cdt_decline_claim(message.id, UnsafeRawPointer(Unmanaged.passUnretained(listener).toOpaque()))
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

extension DispatchTable.Responders {
    /// The responders `message` remembers (valid while its version is the table's).
    @inlinable @inline(__always)
    init<Input, Output>(remembered message: RequirementMessage<Input, Output>) {
        self.init(start: message.cache.span.entries, end: message.cache.end)
    }
}

extension DelegateChain: RequirementDispatching {
    /// Sends a requirement's void message: every live listener that implements it, in order,
    /// or only the first of them in ``Mode/breaking`` mode.
    @inlinable @inline(__always)
    public func send<Input>(_ message: RequirementMessage<Input, Void>, _ input: Input) {
        if mode == .breaking {
            _ = forEachAnswer(to: message, input) { _ in true }
        } else {
            _ = forEachAnswer(to: message, input) { _ in false }
        }
    }

    /// Calls the live listeners that implement a requirement in order with `input`, handing each
    /// answer to `body`, until `body` returns true (whatever the chain's mode). A listener whose
    /// default declines is not handed to `body` (see ``RequirementMessage``).
    /// - Returns: whether `body` stopped the walk.
    @inlinable @inline(__always)
    public func forEachAnswer<Input, Output>(
        to message: RequirementMessage<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        // A span is remembered only when all its handlers are verified and nothing observes or
        // forwards, and leaving either state takes a new version of the table.
        if _slowPath(message.cache.version != table.chain.pointee.version) {
            return forEachAnswerRefreshing(to: message, input, body)
        }
        return forEachAnswer(among: DispatchTable.Responders(remembered: message), input, body)
    }

    /// `forEachAnswer(to:_:_:)` of a requirement message whose remembered span is out of date:
    /// remembers the new span when all its handlers are verified, or else asks them.
    @inlinable @inline(never)
    func forEachAnswerRefreshing<Input, Output>(
        to message: RequirementMessage<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if needsSlowPath { return forEachAnswer(toRequirement: message.message, input, body) }
        // Listeners already known to decline leave first: a send that stops early (a query)
        // would never reach those behind its answer, and they would keep the span unremembered.
        dropDecliners(of: message.message.id)
        if !table.allVerified(table.responders(of: message.message)) {
            return forEachAnswer(toRequirement: message.message, input, body)
        }
        _ = cdt_chain_lookup_cached(table.chain, message.message.id, &message.cache)
        return forEachAnswer(among: DispatchTable.Responders(remembered: message), input, body)
    }

    /// Sends to the first live listener that implements a requirement, whatever the chain's
    /// mode: how a proxy hands a completion handler to exactly one listener.
    /// - Returns: whether a listener took it (when none did, the caller completes).
    @inlinable
    public func sendToFirst<Input>(_ message: RequirementMessage<Input, Void>, _ input: Input) -> Bool {
        forEachAnswer(to: message, input) { _ in true }
    }

    /// The first live implementing listener's answer to a requirement, or nil if none answers.
    @inlinable
    public func send<Input, Output>(_ message: RequirementMessage<Input, Output>, _ input: Input) -> Output? {
        FastDelegates.firstAnswer { forEachAnswer(to: message, input, $0) }
    }

    /// The first live implementing listener's answer to a requirement whose answer is itself
    /// optional, not wrapped once more (nil also when it answers nil).
    @inlinable
    public func send<Input, Wrapped>(_ message: RequirementMessage<Input, Wrapped?>, _ input: Input) -> Wrapped? {
        FastDelegates.firstAnswer { forEachAnswer(to: message, input, $0) } ?? nil
    }

    /// The first live implementing listener's answer to a requirement, or `defaultValue` when
    /// no live listener implements it.
    @inlinable
    public func send<Input, Output>(
        _ message: RequirementMessage<Input, Output>, _ input: Input, default defaultValue: @autoclosure () -> Output
    ) -> Output {
        send(message, input) ?? defaultValue()
    }

    /// The answers of every live listener that implements a requirement, combined; the
    /// combination's initial value when none does.
    @inlinable
    public func send<Input, Output, Result>(
        _ message: RequirementMessage<Input, Output>, _ input: Input,
        combining combination: AnswerCombination<Output, Result>
    ) -> Result {
        combinedAnswers(of: { forEachAnswer(to: message, input, $0) }, combination)
    }

    /// Calls the live listeners that implement a requirement in order with `input`, handing each
    /// answer to `body`, until it returns true: the walk that asks each unverified handler whether
    /// it answers (see ``RequirementMessage``), with the chain's observers and forwarders. Used
    /// unprepared for a proxy's inherited requirements, and by a ``RequirementMessage`` send only
    /// after a change of the table, or on an observed chain.
    /// - Returns: whether `body` stopped the walk.
    @inlinable
    public func forEachAnswer<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if needsSlowPath { return forEachAnswerObserved(toRequirement: message, input, body) }
        return checkingWalk(message, input, body)
    }

    /// ``forEachAnswer(toRequirement:_:_:)`` on a chain that something observes or that forwards:
    /// out of line.
    @usableFromInline @inline(never)
    func forEachAnswerObserved<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        guard let observers, observers.notifyBeforeResponders(message, input) else {
            return checkingWalk(message, input, body)
        }
        var answer: Output?
        let stopped = checkingWalk(message, input) { output in
            if answer == nil { answer = output }
            return body(output)
        }
        observers.notifyAfterResponders(message, Invocation(input: input, answer: answer))
        return stopped
    }

    @inlinable
    func checkingWalk<Input, Output>(
        _ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        dispatch(
            among: table.responders(of: message),
            { (target, handler: Handler<Input, Output>) in
                if let forwarding = handler.forwarding { return forwarding.walk(target, input, body) }
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
