import Testing

@testable import FastDelegates

/// A dispatcher added to a chain with its messages forwarded (`Responses.forwarding(_:)`): the
/// outer chain's `responds(to:)` and sends follow the inner dispatcher's live state, for each
/// kind of inner dispatcher.
@Suite("A chain of dispatchers: forwarded messages follow the inner dispatcher")
struct ForwardingTests {
    /// Adds `target` to the inner dispatcher (weakly), and removes it.
    struct Inner<Dispatcher: MessageDispatching> {
        let dispatcher: Dispatcher
        let add: (Probe) -> Void
        let remove: (Probe) -> Void
    }

    static func check<D: MessageDispatching>(_ inner: Inner<D>) {
        let log = Log()
        let outer = DelegateChain()
        outer.add(inner.dispatcher, retention: .strong) {
            $0.forwarding(Scroll.didScroll).forwarding(Scroll.viewForZooming)
        }
        // Nothing in the inner dispatcher yet: the outer chain does not respond.
        #expect(!outer.responds(to: Scroll.viewForZooming))
        #expect(outer.send(Scroll.viewForZooming) == nil)
        #expect(outer.send(Scroll.viewForZooming, combining: .all).isEmpty)
        let a = Probe("a", log: log)
        inner.add(a)
        #expect(outer.responds(to: Scroll.viewForZooming))
        #expect(outer.responds(to: Scroll.didScroll))
        #expect(!outer.responds(to: Scroll.willBeginDragging)) // not forwarded
        #expect(outer.send(Scroll.viewForZooming) == "view of a")
        outer.send(Scroll.didScroll, 1)
        #expect(log.events.suffix(1) == ["a.didScroll(1)"])
        // Removed from the inner dispatcher: false again.
        inner.remove(a)
        #expect(!outer.responds(to: Scroll.viewForZooming))
        #expect(outer.send(Scroll.viewForZooming) == nil)
        // Dead (held weakly by the inner dispatcher): false again.
        do {
            let doomed = Probe("doomed", log: log)
            inner.add(doomed)
            #expect(outer.responds(to: Scroll.didScroll))
        }
        #expect(!outer.responds(to: Scroll.didScroll))
        #expect(!outer.responds(to: Scroll.viewForZooming))
        #expect(outer.invariantViolation == 0)
    }

    @Test func anInnerDelegateChain() {
        let chain = DelegateChain()
        Self.check(Inner(dispatcher: chain, add: { chain.add($0) }, remove: { chain.remove($0) }))
    }

    @Test func anInnerDelegateSlot() {
        let slot = DelegateSlot()
        Self.check(Inner(dispatcher: slot, add: { slot.setPrimary($0) }, remove: { _ in slot.setPrimary(nil) }))
        let secondaries = DelegateSlot()
        Self.check(
            Inner(dispatcher: secondaries, add: { secondaries.attach($0) }, remove: { secondaries.detach($0) }))
    }

    @Test func anInnerDelegateRouter() {
        let router = DelegateRouter(key: "people")
        Self.check(
            Inner(
                dispatcher: router, add: { router.route("people", to: $0, retention: .weak) },
                remove: { _ in router.removeRoute(for: "people") }))
    }

    @Test func anInnerDelegateInterceptor() {
        let middleMan = Plain("middle", log: Log())
        let interceptor = DelegateInterceptor(middleMan: middleMan, interceptions: Interceptions<Plain>())
        Self.check(
            Inner(
                dispatcher: interceptor, add: { interceptor.setReceiver($0) },
                remove: { _ in interceptor.setReceiver(nil) }))
        withExtendedLifetime(middleMan) {}
    }

    /// An inner dispatcher with no live responder is skipped as if it were not there: a
    /// breaking chain's void message goes on to the next target, and answers come from it. With
    /// a responder, the inner one's answers are the outer send's, in order.
    @Test func anEmptyInnerDispatcherIsSkippedAndAFullOneAnswersInItsPlace() {
        let log = Log()
        let outer = DelegateChain(mode: .breaking), inner = DelegateChain()
        let after = Probe("after", log: log)
        outer.add(inner, retention: .strong) { $0.forwarding(Scroll.didScroll).forwarding(Scroll.heightForHeader) }
        outer.add(after)
        outer.send(Scroll.didScroll, 1)
        #expect(log.events == ["after.didScroll(1)"])
        #expect(outer.send(Scroll.heightForHeader, 0, combining: .all) == [500])
        let a = Probe("a", log: log), bb = Probe("bb", log: log)
        inner.add(a)
        inner.add(bb)
        log.events.removeAll()
        outer.send(Scroll.didScroll, 2) // breaking: the first responder, inside the inner chain
        #expect(log.events == ["a.didScroll(2)"])
        #expect(outer.send(Scroll.heightForHeader, 0, combining: .all) == [100, 200, 500])
        #expect(outer.send(Scroll.heightForHeader, 0) == 100)
    }

    /// A handler written with `on` is the inner dispatcher's own answer: it responds whatever
    /// the inner dispatcher holds (as before). Forwarding is what follows the live state.
    @Test func aHandlerWrittenWithOnStillAlwaysResponds() {
        let outer = DelegateChain(), inner = DelegateChain()
        outer.add(inner, retention: .strong) {
            $0.on(Scroll.didScroll) { me, offset in me.send(Scroll.didScroll, offset) }
        }
        #expect(outer.responds(to: Scroll.didScroll))
        #expect(!inner.responds(to: Scroll.didScroll))
    }
}
