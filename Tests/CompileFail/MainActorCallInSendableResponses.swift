// SendableResponses handlers may run on any thread, so they cannot call main-actor methods.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }

@MainActor final class ViewController {
    var offset = 0.0
    func apply(_ y: Double) { offset = y }
    static let responses = SendableResponses<ViewController>().on(Scroll.didScroll) { me, y in me.apply(y) }
}
// expect-error: call to main actor-isolated instance method 'apply' in a synchronous nonisolated context
