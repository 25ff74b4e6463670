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

/// A `@DelegateProxy` protocol's requirement prepared for a proxy's repeated sends, stored in the
/// proxy itself: what a requirement's ``PreparedMessage`` (``PreparedMessage/init(requirement:)``)
/// remembers, without an object of its own.
///
/// The proxies that `@DelegateProxy` generates over a ``DelegateChain`` keep one per synchronous
/// requirement, as a stored property that their methods pass `inout` to the send, 32 bytes inline
/// in the proxy:
///
/// ```swift
/// @exclusivity(unchecked) private var _didScrollMessage = PreparedRequirement(Scroll.didScroll)
/// func scrollViewDidScroll(_ offset: Double) { chain.send(&_didScrollMessage, offset) }
/// ```
///
/// Its sends are those of the requirement's ``PreparedMessage``: each reaches only the listeners
/// that implement the requirement (see ``RequirementDispatching``), and costs what the send of any
/// prepared message costs once every listener it reaches is known to implement it. A send inside
/// a send of the same requirement, from the same proxy, may refresh what it remembers while the
/// outer one runs: the outer one read it before its walk and never again, so the property is
/// declared `@exclusivity(unchecked)`.
///
/// Not `Sendable`: keep it in one isolation domain, as a ``DelegateChain``.
public struct PreparedRequirement<Input, Output> {
    /// The table's version when `responders` were found: the chain's `version` then (0, no
    /// table's, before the first send).
    @usableFromInline
    var version: UInt64 = 0

    /// The responders of `message` found last, valid while the table's version is `version`.
    @usableFromInline
    var responders = DispatchTable.Responders(start: nil, end: nil)

    /// The requirement's message.
    public let message: Message<Input, Output>

    /// `message`, a `@DelegateProxy` protocol's requirement, prepared for a proxy's sends.
    public init(_ message: Message<Input, Output>) {
        self.message = message
    }
}

@available(*, unavailable, message: "PreparedRequirement is not thread-safe; keep it with its chain")
extension PreparedRequirement: Sendable {}

extension DelegateChain {
    /// Sends a requirement's void message through the proxy's ``PreparedRequirement``: every live
    /// listener that implements it in order, or only the first in ``Mode/breaking`` mode.
    @inlinable @inline(__always)
    public func send<Input>(_ message: inout PreparedRequirement<Input, Void>, _ input: Input) {
        // One call of the refresh, before the mode's two walks: the address of `message` is then
        // taken on that path only, and holds no register on the fast one.
        if _slowPath(message.version != table.chain.pointee.version) {
            let breaking = mode == .breaking
            _ = forEachAnswerRefreshing(to: &message, input) { _ in breaking }
            return
        }
        if mode == .breaking {
            _ = forEachAnswer(among: message.responders, input) { (_: Void) in true }
        } else {
            _ = forEachAnswer(among: message.responders, input) { (_: Void) in false }
        }
    }

    /// Calls the live listeners that implement a requirement in order with `input`, handing each
    /// answer to `body`, until it returns true: ``forEachAnswer(toRequirement:_:_:)`` without the
    /// hash lookup while the chain's table is unchanged and its listeners known to implement it.
    /// - Returns: whether `body` stopped the walk.
    @inlinable @inline(__always)
    public func forEachAnswer<Input, Output>(
        to message: inout PreparedRequirement<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        // As for a `PreparedMessage`: responders are remembered only on the fast path, and leaving
        // it gives the table a new version.
        if _slowPath(message.version != table.chain.pointee.version) {
            return forEachAnswerRefreshing(to: &message, input, body)
        }
        return forEachAnswer(among: message.responders, input, body)
    }

    /// `forEachAnswer(to:_:_:)` of a prepared requirement whose remembered responders are out of
    /// date: it remembers the new ones when all their handlers are verified, and else asks them
    /// with the checking walk. Out of line, so that the sends that use it stay small.
    @inlinable @inline(never)
    func forEachAnswerRefreshing<Input, Output>(
        to message: inout PreparedRequirement<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        guard mayRemember(requirement: message.message) else {
            return forEachAnswer(toRequirement: message.message, input, body)
        }
        message.responders = DispatchTable.Responders(cdt_chain_lookup(table.chain, message.message.id))
        message.version = table.chain.pointee.version
        return forEachAnswer(among: message.responders, input, body)
    }

    /// Sends a requirement's void message to the first live listener that implements it only,
    /// whatever the chain's mode: how a proxy hands a completion handler to exactly one listener.
    /// - Returns: whether a listener took it (when none did, the caller completes).
    @inlinable
    public func sendToFirst<Input>(_ message: inout PreparedRequirement<Input, Void>, _ input: Input) -> Bool {
        forEachAnswer(to: &message, input) { _ in true }
    }

    /// Sends a requirement's message with an answer to the first live listener that implements it.
    /// - Returns: that listener's answer, or nil if none does.
    @inlinable
    public func send<Input, Output>(_ message: inout PreparedRequirement<Input, Output>, _ input: Input) -> Output? {
        FastDelegates.firstAnswer { forEachAnswer(to: &message, input, $0) }
    }

    /// Sends a requirement's message whose answer is itself optional to the first live listener
    /// that implements it, and returns that answer, not wrapped once more (nil also when it
    /// answers nil).
    @inlinable
    public func send<Input, Wrapped>(_ message: inout PreparedRequirement<Input, Wrapped?>, _ input: Input) -> Wrapped?
    {
        FastDelegates.firstAnswer { forEachAnswer(to: &message, input, $0) } ?? nil
    }

    /// Sends a requirement's message with an answer to the first live listener that implements
    /// it, or returns `defaultValue` when none does.
    @inlinable
    public func send<Input, Output>(
        _ message: inout PreparedRequirement<Input, Output>, _ input: Input,
        default defaultValue: @autoclosure () -> Output
    ) -> Output {
        FastDelegates.firstAnswer { forEachAnswer(to: &message, input, $0) } ?? defaultValue()
    }

    /// Sends a requirement's message to every live listener that implements it and combines their
    /// answers (as `send(_:_:combining:)` of a `Message`).
    @inlinable
    public func send<Input, Output, Result>(
        _ message: inout PreparedRequirement<Input, Output>, _ input: Input,
        combining combination: AnswerCombination<Output, Result>
    ) -> Result {
        combinedAnswers(of: { forEachAnswer(to: &message, input, $0) }, combination)
    }
}
