// A handler of a ConcurrentDelegateChain runs on whatever thread sends: it must not capture
// non-Sendable state.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }
final class Counter { var n = 0 }
final class Plain {}

func count() {
    let chain = ConcurrentDelegateChain(), counter = Counter(), target = Plain()
    chain.add(target) { $0.on(Scroll.didScroll) { _, _ in counter.n += 1 } }
}
// expect-error: capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure
