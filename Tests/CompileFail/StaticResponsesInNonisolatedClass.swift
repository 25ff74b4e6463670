// A nonisolated class's static responses are shared by every thread: Responses (which may hold
// non-Sendable handlers) cannot be one; SendableResponses can.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }

final class Analytics: DelegateResponder {
    var ticks = 0
    static let responses = Responses<Analytics>().on(Scroll.didScroll) { me, _ in me.ticks += 1 }
}
// expect-error: static property 'responses' is not concurrency-safe because non-'Sendable' type 'Responses<Analytics>' may have shared mutable state
