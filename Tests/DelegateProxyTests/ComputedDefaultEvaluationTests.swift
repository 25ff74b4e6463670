#if Macros
import FastDelegates
import Testing

// How many times a computed default runs, as <doc:DelegateProxies> says: once per send that no
// listener answers, plus once for each listener class that inherits the default, the first time a
// send reaches a listener of that class (its default computes the answer before the send learns
// that it declines; the process learns it per class, for every proxy of the protocol). A class
// that one test teaches the process about is no other test's.

/// Counts the evaluations of ``EvaluatedDefaultDelegate``'s computed defaults.
@MainActor enum DefaultEvaluations {
    static var count = 0
    static func record(_ value: Int) -> Int {
        count += 1
        return value
    }
}

@DelegateProxy
@MainActor protocol EvaluatedDefaultDelegate: AnyObject {
    @DelegateDefault(expression: "DefaultEvaluations.record(value)")
    func answer(_ value: Int) -> Int
    @DelegateDefault(expression: "DefaultEvaluations.record(value)")
    func answer(_ value: Int, completion: @escaping (Int) -> Void)
}

/// Implements nothing.
@MainActor final class EvaluatedDefaultBystander: EvaluatedDefaultDelegate {}
/// Implements nothing either: another class.
@MainActor final class EvaluatedDefaultOnlooker: EvaluatedDefaultDelegate {}
/// Implements nothing either: a third class.
@MainActor final class EvaluatedDefaultPasserby: EvaluatedDefaultDelegate {}
/// Implements nothing either: the class of `oneClass()` alone.
@MainActor final class EvaluatedDefaultLoner: EvaluatedDefaultDelegate {}

@MainActor
@Suite("How often a computed default runs")
struct ComputedDefaultEvaluationTests {
    @Test("An answer: four times on the first send past three non-implementing classes, then once per send")
    func answer() {
        let proxy = EvaluatedDefaultDelegateProxy()
        let listeners: [any EvaluatedDefaultDelegate] = [
            EvaluatedDefaultBystander(), EvaluatedDefaultOnlooker(), EvaluatedDefaultPasserby(),
        ]
        for listener in listeners { proxy.add(listener) }
        DefaultEvaluations.count = 0
        #expect(proxy.answer(7) == 7)
        #expect(DefaultEvaluations.count == 4)
        #expect(proxy.answer(8) == 8)
        #expect(DefaultEvaluations.count == 5)
    }

    @Test("Listeners of one class count once: the process learns per class, for every proxy")
    func oneClass() {
        let proxy = EvaluatedDefaultDelegateProxy()
        let listeners = (0..<3).map { _ in EvaluatedDefaultLoner() }
        for listener in listeners { proxy.add(listener) }
        DefaultEvaluations.count = 0
        #expect(proxy.answer(7) == 7)
        #expect(DefaultEvaluations.count == 2)
        #expect(proxy.answer(8) == 8)
        #expect(DefaultEvaluations.count == 3)
        // Another proxy's listener of the class: known to decline, never asked.
        let other = EvaluatedDefaultDelegateProxy()
        let late = EvaluatedDefaultLoner()
        other.add(late)
        #expect(other.answer(9) == 9)
        #expect(DefaultEvaluations.count == 4)
    }

    @Test("A completion handler: once per send (a declining listener does not run it)")
    func completion() {
        let proxy = EvaluatedDefaultDelegateProxy()
        let listeners = (0..<3).map { _ in EvaluatedDefaultBystander() }
        for listener in listeners { proxy.add(listener) }
        DefaultEvaluations.count = 0
        var answers: [Int] = []
        proxy.answer(7) { answers.append($0) }
        #expect(DefaultEvaluations.count == 1)
        proxy.answer(8) { answers.append($0) }
        #expect(DefaultEvaluations.count == 2)
        #expect(answers == [7, 8])
    }
}
#endif
