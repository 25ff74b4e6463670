// Responses is not Sendable (no unchecked conformance): it cannot be captured by a closure that
// may run on another thread, so its handlers never leave their isolation domain.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }
final class Plain {}

func leak() {
    let responses = Responses<Plain>().on(Scroll.didScroll) { _, _ in }
    let elsewhere: @Sendable () -> Int = { responses.count }
    _ = elsewhere
}
// expect-error: capture of 'responses' with non-Sendable type 'Responses<Plain>' in a '@Sendable' closure
