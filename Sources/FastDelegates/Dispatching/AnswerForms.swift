// The answers a send returns, built from one walk over the responders: a function that hands
// each answer to its body until the body returns true. The send forms of prepared messages and of
// requirements (on both chains) are these over their own walks, so each form is written once.
// `MessageDispatching` keeps its own two, `RequirementDispatching` its first answer: through
// this closure, a protocol extension's first-answer query cost 21 more instructions on
// `DelegateChain` and 9 more on the concurrent chain, and a concurrent proxy's first-answer
// requirement 5 more (callgrind, first-responder query at N = 4), where the prepared sends cost
// the same either way.

/// The first answer `walk` hands over, or nil if it hands none (it stops at the first).
@inlinable @inline(__always)
func firstAnswer<Output>(of walk: ((Output) -> Bool) -> Bool) -> Output? {
    var answer: Output?
    _ = walk { output in
        answer = output
        return true
    }
    return answer
}

/// The answers `walk` hands over, folded into `combination` (its initial value when none).
@inlinable @inline(__always)
func combinedAnswers<Output, Result>(
    of walk: ((Output) -> Bool) -> Bool, _ combination: AnswerCombination<Output, Result>
) -> Result {
    var result = combination.initial
    _ = walk { combination.step(&result, $0) }
    return result
}
