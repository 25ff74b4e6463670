// The same shapes as the rejected snippets, written the allowed way: this must compile.
import FastDelegates
import Synchronization

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }
final class Counter { var n = 0 }
final class Plain {}

func singleThreadTakesNonSendableCaptures() {
    let chain = DelegateChain(), counter = Counter(), target = Plain()
    chain.add(target) { $0.on(Scroll.didScroll) { _, _ in counter.n += 1 } }
    chain.send(Scroll.didScroll, 1)
}

/// What the NonSendableTarget* snippets register, made `Sendable`: synchronized state.
final class SharedCounter: Sendable {
    let n = Mutex(0)
}
final class DeclaredCounter: DelegateResponder, Sendable {
    let n = Atomic<Int>(0)
    static let responses = SendableResponses<DeclaredCounter>().on(Scroll.didScroll) { me, _ in
        me.n.add(1, ordering: .relaxed)
    }
}
@MainActor final class MainActorTarget {
    nonisolated let name = "main"
}

func concurrentTakesSendableHandlersAndTargets() {
    let chain = ConcurrentDelegateChain(), counter = SharedCounter(), declared = DeclaredCounter()
    chain.add(counter) { $0.on(Scroll.didScroll) { me, _ in me.n.withLock { $0 += 1 } } }
    chain.add(counter, retention: .strong, responses: SendableResponses<SharedCounter>())
    chain.insert(counter, at: 0, responses: SendableResponses<SharedCounter>())
    chain.add(declared)
    chain.add(declared) { $0 }
    chain.insert(declared, at: 0)
    chain.add(AnySendableResponder(counter, responses: SendableResponses<SharedCounter>()))
    chain.add(AnySendableResponder(declared))
    let targets: [any AnyObject & Sendable] = chain.targets
    chain.send(Scroll.didScroll, 1)
    withExtendedLifetime(targets) {}
}

@MainActor func concurrentTakesMainActorTargets(_ chain: ConcurrentDelegateChain) {
    let target = MainActorTarget()
    chain.add(target) { $0.on(Scroll.didScroll) { me, offset in print(me.name, offset) } }
}

@MainActor final class Host {
    let chain = DelegateChain()
    func start() {
        Task { @MainActor in self.chain.send(Scroll.didScroll, 1) }
    }
}
