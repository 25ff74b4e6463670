// The same shapes as the rejected snippets, written the allowed way: this must compile.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }
final class Counter { var n = 0 }
final class Plain {}

func singleThreadTakesNonSendableCaptures() {
    let chain = DelegateChain(), counter = Counter(), target = Plain()
    chain.add(target) { $0.on(Scroll.didScroll) { _, _ in counter.n += 1 } }
    chain.send(Scroll.didScroll, 1)
}

func concurrentTakesSendableHandlers() {
    let chain = ConcurrentDelegateChain(), target = Plain()
    chain.add(target) { $0.on(Scroll.didScroll) { _, offset in print(offset) } }
    chain.send(Scroll.didScroll, 1)
}

@MainActor final class Host {
    let chain = DelegateChain()
    func start() {
        Task { @MainActor in self.chain.send(Scroll.didScroll, 1) }
    }
}
