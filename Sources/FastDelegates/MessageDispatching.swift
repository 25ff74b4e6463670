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
        var answer: Output?
        _ = forEachAnswer(to: message, input) { output in
            answer = output
            return true
        }
        return answer
    }

    /// Sends a message with an answer and no input to the first live responder.
    @inlinable
    public func send<Output>(_ message: Message<Void, Output>) -> Output? {
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
    public func send<Output>(_ message: Message<Void, Output>, default defaultValue: @autoclosure () -> Output) -> Output {
        send(message, ()) ?? defaultValue()
    }

    /// Sends a message to every live responder (only the first, for
    /// ``AnswerCombination/first``) and combines their answers.
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
}

/// How the answers of several responders become one result: the first, all of them, whether
/// all or any are `true`, or a reduction.
public struct AnswerCombination<Output, Result> {
    /// The result when no live target answers.
    public let initial: Result

    /// Folds one more answer into the result; returns true to stop asking further responders.
    public let step: (inout Result, Output) -> Bool

    /// A combination that starts at `initial` and folds each answer in with `step`, which
    /// returns true to stop asking further responders.
    @inlinable
    public init(initial: Result, step: @escaping (inout Result, Output) -> Bool) {
        self.initial = initial
        self.step = step
    }

    /// Folds every answer into `initial` with `next`, in responder order.
    @inlinable
    public static func reduce(_ initial: Result, _ next: @escaping (Result, Output) -> Result) -> Self {
        AnswerCombination(initial: initial) { result, output in
            result = next(result, output)
            return false
        }
    }
}

extension AnswerCombination where Result == Output? {
    /// The first live responder's answer, or nil; later responders are not called.
    @inlinable
    public static var first: Self {
        AnswerCombination(initial: nil) { result, output in
            result = output
            return true
        }
    }
}

extension AnswerCombination where Result == [Output] {
    /// Every live responder's answer, in responder order.
    @inlinable
    public static var all: Self {
        AnswerCombination(initial: []) { result, output in
            result.append(output)
            return false
        }
    }
}

extension AnswerCombination where Output == Bool, Result == Bool {
    /// `true` unless some live responder answers `false` (so `true` when nobody answers, as a
    /// delegate that does not implement "should scroll to top" allows it). Every responder is
    /// called.
    @inlinable
    public static var allTrue: Self {
        AnswerCombination(initial: true) { result, output in
            result = result && output
            return false
        }
    }

    /// `true` if some live responder answers `true` (`false` when nobody answers). Every
    /// responder is called.
    @inlinable
    public static var anyTrue: Self {
        AnswerCombination(initial: false) { result, output in
            result = result || output
            return false
        }
    }
}
