// A chain owned by a @MainActor object stays on the main actor: a detached task cannot reach it.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }

@MainActor final class ScrollHost {
    let chain = DelegateChain()
    func scrollInBackground() {
        Task.detached { self.chain.send(Scroll.didScroll, 1) }
    }
}
// expect-error: main actor-isolated property 'chain' cannot be accessed from outside of the actor
