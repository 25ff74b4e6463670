import CDispatchTable

/// A ``Message`` prepared for repeated sends: it remembers where the message's responders were
/// found in the last ``DelegateChain`` it was sent through, so that the next send skips the hash
/// lookup while that place still holds the message.
///
/// The proxies that `@DelegateProxy` generates hold one per requirement. Keep one per message and
/// sender, for example in a stored property, and send it as you would the message:
///
/// ```swift
/// let didScroll = PreparedMessage(Scroll.didScroll)
/// chain.send(didScroll, offset)
/// ```
///
/// A send checks the remembered place with two compares (the place lies in the chain's table
/// and holds this message) and falls back to the plain lookup when anything moved it: adding or
/// removing responders, the table growing or shrinking, another chain. So it is always correct,
/// with any chain, at any time, also from a send inside another send.
///
/// Not `Sendable`: keep it in one isolation domain, as a ``DelegateChain``.
public final class PreparedMessage<Input, Output> {
    /// The message this sends.
    public let message: Message<Input, Output>

    /// The bucket of `message` found last: a hint that `cdt_chain_lookup_hinted` checks.
    @usableFromInline @exclusivity(unchecked)
    var bucketHint: UInt32 = .max

    /// `message`, prepared for repeated sends.
    public init(_ message: Message<Input, Output>) {
        self.message = message
    }
}

@available(*, unavailable, message: "PreparedMessage is not thread-safe; keep it with its chain")
extension PreparedMessage: Sendable {}

extension DispatchTable {
    /// The responders of a prepared message, found through its hint, for a walk between
    /// ``enter()`` and ``leave()``.
    /// - Complexity: O(1) expected; two compares while the hint holds.
    @inlinable @inline(__always)
    func responders<Input, Output>(of message: PreparedMessage<Input, Output>) -> cdt_span {
        cdt_chain_lookup_hinted(chain, message.message.id, &message.bucketHint)
    }
}

extension DelegateChain {
    /// Sends a prepared void message: every live responder in order, or only the first in
    /// ``Mode/breaking`` mode, as the send of a ``Message``, without the hash lookup
    /// while the message's place in the table stays the same.
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
        if needsSlowPath { return forEachAnswerObservedOrForwarding(to: message.message, input, body) }
        return forEachAnswer(among: { $0.responders(of: message) }, input, body)
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
        var result = combination.initial
        _ = forEachAnswer(to: message, input) { combination.step(&result, $0) }
        return result
    }

    /// The first live responder's answer to a prepared message, or nil if no live target answers.
    @inlinable
    func firstAnswer<Input, Output>(to message: PreparedMessage<Input, Output>, _ input: Input) -> Output? {
        var answer: Output?
        _ = forEachAnswer(to: message, input) { output in
            answer = output
            return true
        }
        return answer
    }
}
