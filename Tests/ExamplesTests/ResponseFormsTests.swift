import FastDelegates
import Synchronization
import Testing

// The forms in which a type declares its responses once (issue 12, item 3), each compiled and
// run. The @MainActor forms are also in the seed examples: the isolated conformance
// (`extension Editor: @MainActor DelegateResponder`, BreakingChainExample.swift) and the
// protocol-extension `responder` of a @MainActor delegate protocol (ScrollView.swift).

/// Form 1: an ordinary (nonisolated) class: `SendableResponses`, which any dispatcher takes,
/// the concurrent chain included.
final class Analytics: DelegateResponder, Sendable {
    let ticks = Atomic<Int>(0)
    static let responses = SendableResponses<Analytics>()
        .on(Scroll.didScroll) { me, _ in me.ticks.add(1, ordering: .relaxed) }
}

/// Form 2: a @MainActor class with an isolated conformance; its handlers call its methods.
@MainActor final class Zoomer {
    private(set) var scale = 1.0
    func zoom(by offset: Double) { scale = 1 + offset / 100 }
}

extension Zoomer: @MainActor DelegateResponder {
    static let responses = Responses<Zoomer>().on(Scroll.didScroll) { me, offset in me.zoom(by: offset) }
}

/// Form 4: a nonisolated, Sendable delegate protocol whose extension declares `@Sendable`
/// responses for every conformer: what a concurrent chain takes.
protocol TickListener: AnyObject, Sendable {
    func scrolled(_ offset: Double)
}

extension TickListener {
    var sendableResponder: AnySendableResponder {
        AnySendableResponder(
            self,
            responses: SendableResponses<Self>()
                .on(Scroll.didScroll) { me, offset in me.scrolled(offset) })
    }
}

final class AtomicListener: TickListener {
    let total = Atomic<Int>(0)
    func scrolled(_ offset: Double) { total.add(Int(offset), ordering: .relaxed) }
}

@Suite("Responses declared once per type")
struct ResponseFormTests {
    @Test func anOrdinaryClassJoinsEveryKindOfDispatcher() {
        let analytics = Analytics()
        let chain = DelegateChain(), concurrent = ConcurrentDelegateChain(), slot = DelegateSlot()
        chain.add(analytics)
        concurrent.add(analytics)
        slot.attach(analytics)
        chain.send(Scroll.didScroll, 1)
        concurrent.send(Scroll.didScroll, 1)
        slot.send(Scroll.didScroll, 1)
        #expect(analytics.ticks.load(ordering: .relaxed) == 3)
    }

    @Test @MainActor func aMainActorClassWithAnIsolatedConformance() {
        let zoomer = Zoomer()
        let chain = DelegateChain()
        chain.add(zoomer)
        chain.send(Scroll.didScroll, 50)
        #expect(zoomer.scale == 1.5)
        #expect(AnyResponder(zoomer).answers(Scroll.didScroll))
    }

    @Test @MainActor func aMainActorProtocolsResponder() {
        final class Listener: ScrollViewDelegate {
            var last = 0.0
            func scrollViewDidScroll(_ offset: Double) { last = offset }
        }
        let listener = Listener()
        let chain = DelegateChain()
        chain.add(listener.responder)
        chain.send(ScrollMessages.didScroll, 7)
        #expect(listener.last == 7)
    }

    @Test func aSendableProtocolsResponderOnTheConcurrentChain() {
        let listener = AtomicListener()
        let concurrent = ConcurrentDelegateChain()
        concurrent.add(listener.sendableResponder)
        concurrent.insert(AtomicListener().sendableResponder, at: 0) // dies at once: skipped
        concurrent.send(Scroll.didScroll, 5)
        let chain = DelegateChain()
        chain.add(AnyResponder(listener.sendableResponder))
        chain.send(Scroll.didScroll, 6)
        #expect(listener.total.load(ordering: .relaxed) == 11)
    }
}
