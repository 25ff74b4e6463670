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

// The combinations of answers of the same type as the result: what a `@DelegateProxy`
// requirement's `@DelegateCombining` names, since a proxy's method returns what each listener's
// method returns. Disfavored: where the result's type is free (`chain.send(m, x, combining:
// .first)`), the general `.first` and `.all` above are meant, which keep "nobody answered"
// apart from an answer of nil or of an empty collection.

extension AnswerCombination where Output == Result, Result: RangeReplaceableCollection {
    /// Every live responder's collection, joined in responder order (empty when nobody answers):
    /// `@DelegateCombining(.all) func menuItems() -> [MenuItem]` returns every listener's items.
    @inlinable @_disfavoredOverload
    public static var all: Self {
        AnswerCombination(initial: Result()) { result, output in
            result.append(contentsOf: output)
            return false
        }
    }
}

extension AnswerCombination where Output == Result, Result: ExpressibleByNilLiteral {
    /// The first live responder's answer, itself optional (nil when nobody answers); later
    /// responders are not called: `@DelegateCombining(.first) func title() -> String?`.
    @inlinable @_disfavoredOverload
    public static var first: Self {
        AnswerCombination(initial: nil) { result, output in
            result = output
            return true
        }
    }
}
