/// A dispatcher of typed messages to ordered responders: ``DelegateChain``, ``DelegateSlot``,
/// ``DelegateInterceptor`` and ``DelegateRouter`` all are one.
///
/// Conformers provide the walk over responders (``forEachAnswer(to:_:_:)``) and
/// ``responds(to:)``; the sends that answer with one value, a default or a combination of every
/// answer (``send(_:_:combining:)``) come with the protocol.
public protocol MessageDispatching: AnyObject {
    /// Calls the live responders of `message` in order with `input`, handing each answer to
    /// `body`, until `body` returns true.
    ///
    /// This is one send: observers of `message` see it once, whatever `body` does.
    /// - Returns: whether `body` stopped the walk.
    func forEachAnswer<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool

    /// Whether some live target answers `message`.
    func responds<Input, Output>(to message: Message<Input, Output>) -> Bool

    /// Sends a void message to the responders this dispatcher's semantics choose.
    func send<Input>(_ message: Message<Input, Void>, _ input: Input)
}

extension MessageDispatching {
    /// Sends a void message to every live responder, in order.
    @inlinable
    public func send<Input>(_ message: Message<Input, Void>, _ input: Input) {
        _ = forEachAnswer(to: message, input) { _ in false }
    }

    /// Sends a void message that carries no input.
    @inlinable
    public func send(_ message: Message<Void, Void>) {
        send(message, ())
    }

    /// Sends a message with an answer to the first live responder.
    /// - Returns: the first live responder's answer, or nil if no live target answers.
    @inlinable
    public func send<Input, Output>(_ message: Message<Input, Output>, _ input: Input) -> Output? {
        firstAnswer(to: message, input)
    }

    /// Sends a message with an answer and no input to the first live responder.
    @inlinable
    public func send<Output>(_ message: Message<Void, Output>) -> Output? {
        send(message, ())
    }

    /// Sends a message whose answer is itself optional to the first live responder, and returns
    /// that answer, not wrapped once more.
    ///
    /// ```swift
    /// static let viewForZooming = Message<Void, View?>("viewForZoomingInScrollView:")
    /// let view = chain.send(Scroll.viewForZooming)        // View?, not View??
    /// ```
    ///
    /// The result is nil both when no live target answers and when the first responder answers
    /// nil. To tell the two apart, ask ``responds(to:)``, or send with
    /// `combining: .first`, whose result keeps both levels (`nil`: nobody answered;
    /// `.some(nil)`: the first responder answered nil).
    /// - Returns: the first live responder's answer, or nil if no live target answers.
    @inlinable
    public func send<Input, Wrapped>(_ message: Message<Input, Wrapped?>, _ input: Input) -> Wrapped? {
        firstAnswer(to: message, input) ?? nil
    }

    /// Sends a message with no input whose answer is itself optional to the first live
    /// responder, and returns that answer, not wrapped once more; nil also when it answers nil.
    @inlinable
    public func send<Wrapped>(_ message: Message<Void, Wrapped?>) -> Wrapped? {
        send(message, ())
    }

    /// Sends a message with an answer to the first live responder, or returns `defaultValue`
    /// when no live target answers.
    @inlinable
    public func send<Input, Output>(
        _ message: Message<Input, Output>, _ input: Input, default defaultValue: @autoclosure () -> Output
    ) -> Output {
        send(message, input) ?? defaultValue()
    }

    /// Sends a message with an answer and no input to the first live responder, or returns
    /// `defaultValue` when no live target answers.
    @inlinable
    public func send<Output>(_ message: Message<Void, Output>, default defaultValue: @autoclosure () -> Output)
        -> Output
    {
        send(message, ()) ?? defaultValue()
    }

    /// Sends a message to every live responder (only the first, for
    /// ``AnswerCombination/first-1fsp7``) and combines their answers.
    ///
    /// ```swift
    /// let scrollToTop = chain.send(Scroll.shouldScrollToTop, (), combining: .allTrue)
    /// let heights = chain.send(Table.heightForRow, row, combining: .all)
    /// let total = chain.send(Table.badgeCount, (), combining: .reduce(0, +))
    /// ```
    ///
    /// Every live responder is called, in order, even in a ``DelegateChain/Mode/breaking``
    /// chain: the breaking mode concerns void messages only.
    /// - Complexity: one call per live responder.
    @inlinable
    public func send<Input, Output, Result>(
        _ message: Message<Input, Output>, _ input: Input, combining combination: AnswerCombination<Output, Result>
    ) -> Result {
        var result = combination.initial
        _ = forEachAnswer(to: message, input) { combination.step(&result, $0) }
        return result
    }

    /// Sends a message with no input to every live responder and combines their answers.
    @inlinable
    public func send<Output, Result>(
        _ message: Message<Void, Output>, combining combination: AnswerCombination<Output, Result>
    ) -> Result {
        send(message, (), combining: combination)
    }

    /// The first live responder's answer to `message`, or nil if no live target answers: every
    /// first-answer send is this walk, stopped at its first answer.
    @inlinable
    func firstAnswer<Input, Output>(to message: Message<Input, Output>, _ input: Input) -> Output? {
        var answer: Output?
        _ = forEachAnswer(to: message, input) { output in
            answer = output
            return true
        }
        return answer
    }
}
