import CDispatchTable

/// A ``Message`` prepared for repeated sends: it remembers the message's responders as it found
/// them in the last ``DelegateChain`` it was sent through, so that the next send skips the hash
/// lookup while that chain's table stays unchanged.
///
/// The proxies that `@DelegateProxy` generates hold one per requirement. Keep one per message and
/// sender, for example in a stored property, and send it as you would the message:
///
/// ```swift
/// let didScroll = PreparedMessage(Scroll.didScroll)
/// chain.send(didScroll, offset)
/// ```
///
/// A send checks what it remembers with one compare: every change of a chain's table (adding or
/// removing responders or their handlers, the table growing, shrinking or compacting) gives the
/// table a new version, unique across chains, and the send looks the message up again when the
/// version it remembers is not the chain's. So it is always correct, with any chain, at any
/// time, also from a send inside another send.
///
/// Not `Sendable`: keep it in one isolation domain, as a ``DelegateChain``.
public final class PreparedMessage<Input, Output> {
    /// The message this sends.
    public let message: Message<Input, Output>

    /// The responders of `message` found last, with the version of the table they were found
    /// in: `cdt_chain_lookup_cached` uses them while that table stays unchanged.
    @usableFromInline @exclusivity(unchecked)
    var cache = cdt_span_cache()

    /// Whether `message` is a `@DelegateProxy` requirement's, whose listeners may not implement
    /// it: then the send after a change of the table asks the handlers not yet verified (see
    /// ``RequirementDispatching``) before it remembers the span.
    @usableFromInline
    let isRequirement: Bool

    /// `message`, prepared for repeated sends.
    public init(_ message: Message<Input, Output>) {
        self.message = message
        isRequirement = false
    }

    /// `message`, a `@DelegateProxy` protocol's requirement, prepared for a proxy's repeated
    /// sends: each send reaches only the listeners that implement it (see
    /// ``RequirementDispatching``), and costs what the send of any prepared message costs once
    /// every listener it reaches is known to implement it.
    public init(requirement message: Message<Input, Output>) {
        self.message = message
        isRequirement = true
    }
}

@available(*, unavailable, message: "PreparedMessage is not thread-safe; keep it with its chain")
extension PreparedMessage: Sendable {}

extension DispatchTable {
    /// The responders of a prepared message, as it remembers them while the table is unchanged,
    /// for a walk between ``enter()`` and ``leave()``.
    /// - Complexity: O(1) expected; one compare while the table is unchanged.
    @inlinable @inline(__always)
    func responders<Input, Output>(of message: PreparedMessage<Input, Output>) -> Responders {
        _ = cdt_chain_lookup_cached(chain, message.message.id, &message.cache)
        return Responders(remembered: message)
    }
}

extension DelegateChain {
    /// Sends a prepared void message: every live responder in order, or only the first in
    /// ``Mode/breaking`` mode, as the send of a ``Message``, without the hash lookup
    /// while the chain's table is unchanged.
    @inlinable @inline(__always)
    public func send<Input>(_ message: PreparedMessage<Input, Void>, _ input: Input) {
        if mode == .breaking {
            _ = forEachAnswer(to: message, input) { _ in true }
        } else {
            _ = forEachAnswer(to: message, input) { _ in false }
        }
    }

    /// `forEachAnswer(to:_:_:)` for a prepared message.
    @inlinable @inline(__always)
    public func forEachAnswer<Input, Output>(
        to message: PreparedMessage<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        // A span is remembered only on the fast path (for a requirement, once its handlers are
        // all verified), and leaving the fast path gives the table a new version: while the
        // version is the one remembered, the fast path holds.
        if _slowPath(message.cache.version != table.chain.pointee.version) {
            return forEachAnswerRefreshing(to: message, input, body)
        }
        return forEachAnswer(among: DispatchTable.Responders(remembered: message), input, body)
    }

    /// `forEachAnswer(to:_:_:)` of a prepared message whose remembered span is out of date: out
    /// of line, so that the sends that use it stay small.
    @inlinable @inline(never)
    func forEachAnswerRefreshing<Input, Output>(
        to message: PreparedMessage<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        if message.isRequirement { return forEachAnswerRefreshingRequirement(to: message, input, body) }
        if needsSlowPath {
            // Pending handlers alone leave the fast path to the span remembered once entered.
            enterPending(of: message.message.id)
            if isObservedOrForwarding { return forEachAnswerObservedOrForwarding(to: message.message, input, body) }
        }
        return forEachAnswer(among: table.responders(of: message), input, body)
    }

    /// Sends a prepared void message to the first live responder only, whatever the chain's
    /// mode: how a proxy hands a completion handler to exactly one listener.
    /// - Returns: whether a responder took it (when none did, the caller completes).
    @inlinable
    public func sendToFirst<Input>(_ message: PreparedMessage<Input, Void>, _ input: Input) -> Bool {
        forEachAnswer(to: message, input) { _ in true }
    }

    /// Sends a prepared message with an answer to the first live responder.
    /// - Returns: the first live responder's answer, or nil if no live target answers.
    @inlinable
    public func send<Input, Output>(_ message: PreparedMessage<Input, Output>, _ input: Input) -> Output? {
        firstAnswer(to: message, input)
    }

    /// Sends a prepared message whose answer is itself optional to the first live responder, and
    /// returns that answer, not wrapped once more (nil also when it answers nil).
    @inlinable
    public func send<Input, Wrapped>(_ message: PreparedMessage<Input, Wrapped?>, _ input: Input) -> Wrapped? {
        firstAnswer(to: message, input) ?? nil
    }

    /// Sends a prepared message with an answer to the first live responder, or returns
    /// `defaultValue` when no live target answers.
    @inlinable
    public func send<Input, Output>(
        _ message: PreparedMessage<Input, Output>, _ input: Input, default defaultValue: @autoclosure () -> Output
    ) -> Output {
        send(message, input) ?? defaultValue()
    }

    /// Sends a prepared message to every live responder and combines their answers (as
    /// `send(_:_:combining:)` of a `Message`).
    @inlinable
    public func send<Input, Output, Result>(
        _ message: PreparedMessage<Input, Output>, _ input: Input,
        combining combination: AnswerCombination<Output, Result>
    ) -> Result {
        combinedAnswers(of: { forEachAnswer(to: message, input, $0) }, combination)
    }

    /// The first live responder's answer to a prepared message, or nil if no live target answers.
    @inlinable
    func firstAnswer<Input, Output>(to message: PreparedMessage<Input, Output>, _ input: Input) -> Output? {
        FastDelegates.firstAnswer { forEachAnswer(to: message, input, $0) }
    }
}

extension DispatchTable.Responders {
    /// The responders `message` remembers (valid while its version is the table's).
    @inlinable @inline(__always)
    init<Input, Output>(remembered message: PreparedMessage<Input, Output>) {
        self.init(start: message.cache.span.entries, end: message.cache.end)
    }
}
