// An AnyResponder may carry non-Sendable handlers: a ConcurrentDelegateChain takes only an
// AnySendableResponder.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }
final class Counter { var n = 0 }
final class Plain {}

func register(_ chain: ConcurrentDelegateChain) {
    let counter = Counter(), target = Plain()
    chain.add(AnyResponder(target, responses: Responses<Plain>().on(Scroll.didScroll) { _, _ in counter.n += 1 }))
}
// expect-error: instance method 'add(_:retention:)' requires that 'AnyResponder' conform to 'DelegateResponder'
