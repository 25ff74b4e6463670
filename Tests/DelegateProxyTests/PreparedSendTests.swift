#if Macros
import FastDelegates
import ProxyFixture
import Testing

/// A generated proxy over a `DelegateChain` sends each requirement through a `PreparedMessage`,
/// which remembers the message's bucket in the chain's table. These change the table under that
/// memory, through the proxy and through `proxy.chain` directly, and check every send.
@MainActor
@Suite("A proxy's prepared sends stay correct while its chain changes")
struct PreparedSendTests {
    /// Another listener type, joined through `proxy.chain` with messages of its own.
    final class Filler {}

    @Test("Listeners added and removed between sends, through the proxy and through proxy.chain")
    func mutationsBetweenSends() {
        let log = EventLog()
        let controller = FeedViewController()
        let view = controller.scrollView, proxy = controller.scrollDelegates
        view.scroll(to: 1) // no listener yet: nothing to remember
        #expect(log.events.isEmpty)
        let a = ScrollListener("a", log: log), b = ScrollListener("b", log: log)
        proxy.add(a)
        view.scroll(to: 2)
        proxy.chain.add(b.feedScrollDelegateResponder) // behind the proxy's back
        view.scroll(to: 3)
        proxy.chain.remove(a)
        view.scroll(to: 4)
        proxy.chain.removeAll() // the message's bucket goes away
        view.scroll(to: 5)
        proxy.chain.insert(a.feedScrollDelegateResponder, at: 0)
        view.scroll(to: 6)
        #expect(
            log.events == [
                "a.didScroll(2.0)", "a.didScroll(3.0)", "b.didScroll(3.0)", "b.didScroll(4.0)", "a.didScroll(6.0)",
            ])
    }

    @Test("The chain's table grows and shrinks (rehashes) between sends")
    func rehash() {
        let log = EventLog()
        let controller = FeedViewController()
        let view = controller.scrollView, proxy = controller.scrollDelegates
        let a = ScrollListener("a", log: log, zoomView: "zoom")
        proxy.add(a)
        view.scroll(to: 1)
        #expect(view.zoomedView() == "zoom")
        var fillers: [Filler] = []
        for round in 0..<4 {
            let filler = Filler()
            var responses = Responses<Filler>()
            for index in 0..<200 {
                responses = responses.on(Message<Int, Void>("proxy.filler.\(round).\(index)")) { _, _ in }
            }
            proxy.chain.add(filler, responses: responses)
            fillers.append(filler)
            view.scroll(to: Double(10 + round))
            #expect(view.zoomedView() == "zoom")
        }
        for filler in fillers {
            proxy.chain.remove(filler)
            view.scroll(to: 20)
        }
        #expect(view.zoomedView() == "zoom")
        #expect(log.events.filter { $0.contains("didScroll") }.count == 1 + 4 + 4)
        #expect(log.events.last == "a.viewForZooming")
    }

    @Test("Listeners added and removed during a send, and the same requirement sent again inside it")
    func mutationsDuringASend() {
        let log = EventLog()
        let controller = FeedViewController()
        let view = controller.scrollView, proxy = controller.scrollDelegates
        let a = ScrollListener("a", log: log), b = ScrollListener("b", log: log)
        let late = ScrollListener("late", log: log)
        proxy.add(a)
        proxy.add(b)
        a.onScroll = { offset in
            guard offset == 1 else { return }
            proxy.remove(b) // at once, even in this send
            proxy.add(late) // from the next send
            view.scroll(to: 10) // the same requirement, nested
        }
        view.scroll(to: 1)
        #expect(log.events == ["a.didScroll(1.0)", "a.didScroll(10.0)", "late.didScroll(10.0)"])
        log.events.removeAll()
        view.scroll(to: 2)
        #expect(log.events == ["a.didScroll(2.0)", "late.didScroll(2.0)"])
    }

    @Test("Two proxies of one protocol share the messages and keep their own chains")
    func twoProxies() {
        let log = EventLog()
        let first = FeedViewController(), second = FeedViewController()
        second.scrollDelegates.chain.add(
            Filler(), retention: .strong, responses: Responses().on(Message<Int, Void>("proxy.other")) { _, _ in })
        let a = ScrollListener("a", log: log), b = ScrollListener("b", log: log)
        first.scrollDelegates.add(a)
        second.scrollDelegates.add(b)
        for offset in [1.0, 2.0] {
            first.scrollView.scroll(to: offset)
            second.scrollView.scroll(to: offset)
        }
        #expect(log.events == ["a.didScroll(1.0)", "b.didScroll(1.0)", "a.didScroll(2.0)", "b.didScroll(2.0)"])
    }
}
#endif
