#if Macros
import FastDelegates
import ProxyFixture
import Testing

/// A requirement forwarded from a proxy's chain to an inner chain keeps every guarantee of a
/// requirement: the inner walk asks its listeners that may decline, and a listener removed from
/// the inner chain while an `async` send awaits an earlier one is not called.
@Suite("Requirements forwarded to an inner chain", .serialized)
@MainActor struct ForwardedRequirementTests {
    @Test("A decliner inside the inner chain does not answer for the listener behind it")
    func innerDeclinerIsSkipped() {
        let log = EventLog()
        let view = PageView("page")
        let zoomed = PageView("zoomed")
        let proxy = PageScrollDelegateProxy()
        let inner = DelegateChain()
        let bystander = Bystander()
        let zoomer = Zoomer("z", log: log, zoomView: zoomed)
        inner.add(bystander.pageScrollDelegateResponder)
        inner.add(zoomer.pageScrollDelegateResponder)
        proxy.chain.add(inner, retention: .strong) { $0.forwarding(PageScrollDelegateMessages.viewForZoomingIn) }
        #expect(proxy.viewForZooming(in: view) == zoomed)
        #expect(proxy.viewForZooming(in: view) == zoomed)
        #expect(log.events == ["z.viewForZooming", "z.viewForZooming"])
        // The inner chain learnt that the bystander declines: it counts the zoomer alone.
        inner.remove(zoomer)
        #expect(!inner.responds(to: PageScrollDelegateMessages.viewForZoomingIn))
        #expect(proxy.viewForZooming(in: view) == nil)
    }

    @Test("A listener removed from the chain or an inner chain while an async send is suspended is not called")
    func removedDuringAwaitWithForwarders() async {
        let log = PageLog()
        let gate = Gate()
        let proxy = PageLoadDelegateProxy()
        let inner = DelegateChain()
        let first = PageLoader("a", log: log, gate: gate)
        let removedHere = PageLoader("b", log: log)
        let removedInside = PageLoader("c", log: log)
        let kept = PageLoader("d", log: log)
        let last = PageLoader("e", log: log)
        proxy.add(first)
        proxy.add(removedHere)
        inner.add(removedInside.pageLoadDelegateResponder)
        inner.add(kept.pageLoadDelegateResponder)
        proxy.chain.add(inner, retention: .strong) { $0.forwarding(PageLoadDelegateMessages.pageDidLoad) }
        proxy.add(last)
        let send = Task { await proxy.pageDidLoad(1) }
        while !gate.isWaiting { await Task.yield() }
        proxy.remove(removedHere)
        inner.remove(removedInside)
        gate.open()
        await send.value
        #expect(log.entries == ["a start 1", "a end 1", "d start 1", "d end 1", "e start 1", "e end 1"])
    }
}
#endif
