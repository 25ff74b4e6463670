// A single-thread chain is not Sendable: it cannot be handed to another task while still used here.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }

func scroll() {
    let chain = DelegateChain()
    Task.detached { chain.send(Scroll.didScroll, 1) }
    chain.send(Scroll.didScroll, 2)
}
// expect-error: sending 'chain' risks causing data races
