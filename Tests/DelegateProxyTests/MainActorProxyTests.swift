#if Macros
import FastDelegates
import ProxyFixture
import Testing

/// A main-actor listener with plain, non-`Sendable` state, as app code writes one: no
/// `assumeIsolated`, no `@unchecked`.
@MainActor class ScrollListener: FeedScrollDelegate {
    let name: String
    let log: EventLog
    var allowsScrollToTop: Bool
    var zoomView: String?
    var allowsEditing = true
    var onScroll: ((Double) -> Void)?

    init(_ name: String, log: EventLog, allowsScrollToTop: Bool = true, zoomView: String? = nil) {
        self.name = name
        self.log = log
        self.allowsScrollToTop = allowsScrollToTop
        self.zoomView = zoomView
    }

    func scrollViewDidScroll(_ offset: Double) {
        log.events.append("\(name).didScroll(\(offset))")
        onScroll?(offset)
    }
    func scrollViewShouldScrollToTop() -> Bool {
        log.events.append("\(name).shouldScrollToTop")
        return allowsScrollToTop
    }
    func viewForZooming() -> String? {
        log.events.append("\(name).viewForZooming")
        return zoomView
    }
    func scrollViewShouldBeginEditing() -> Bool {
        log.events.append("\(name).shouldBeginEditing")
        return allowsEditing
    }
}

/// Not `Sendable`, shared by the listeners of a test.
final class EventLog {
    var events: [String] = []
}

/// A view controller as RxCocoa ties a proxy to its host: the owner of the host keeps the proxy.
@MainActor final class FeedViewController {
    let scrollView = FeedScrollView()
    let scrollDelegates = FeedScrollDelegateProxy()

    init() { scrollView.delegate = scrollDelegates }
}

@MainActor
@Suite("A @MainActor proxy through a host's weak delegate")
struct MainActorProxyTests {
    @Test("Non-breaking: a void requirement reaches every listener, in order")
    func nonBreaking() {
        let log = EventLog()
        let controller = FeedViewController()
        let first = ScrollListener("first", log: log), second = ScrollListener("second", log: log)
        controller.scrollDelegates.add(first)
        controller.scrollDelegates.add(second)
        controller.scrollView.scroll(to: 12)
        #expect(log.events == ["first.didScroll(12.0)", "second.didScroll(12.0)"])
    }

    @Test("Breaking: a void requirement reaches only the first listener")
    func breaking() {
        let log = EventLog()
        let view = FeedScrollView()
        let proxy = FeedScrollDelegateProxy(mode: .breaking)
        view.delegate = proxy
        let first = ScrollListener("first", log: log), second = ScrollListener("second", log: log)
        proxy.add(first)
        proxy.add(second)
        view.scroll(to: 3)
        #expect(log.events == ["first.didScroll(3.0)"])
        proxy.remove(first)
        view.scroll(to: 4)
        #expect(log.events == ["first.didScroll(3.0)", "second.didScroll(4.0)"])
    }

    @Test("An answer is the first listener's; later listeners are not asked")
    func firstResponderAnswer() {
        let log = EventLog()
        let controller = FeedViewController()
        let first = ScrollListener("first", log: log, allowsScrollToTop: false, zoomView: "map")
        let second = ScrollListener("second", log: log, allowsScrollToTop: true, zoomView: "photo")
        controller.scrollDelegates.add(first)
        controller.scrollDelegates.add(second)
        controller.scrollView.scroll(to: 50)
        controller.scrollView.tapStatusBar()
        #expect(controller.scrollView.offset == 50)
        #expect(controller.scrollView.zoomedView() == "map")
        #expect(log.events.filter { !$0.contains("didScroll") } == ["first.shouldScrollToTop", "first.viewForZooming"])
    }

    @Test("First listener's nil is the answer, not a reason to ask the next")
    func firstAnswerNil() {
        let log = EventLog()
        let proxy = FeedScrollDelegateProxy()
        let first = ScrollListener("first", log: log, zoomView: nil)
        let second = ScrollListener("second", log: log, zoomView: "photo")
        proxy.add(first)
        proxy.add(second)
        #expect(proxy.viewForZooming() == nil)
        #expect(log.events == ["first.viewForZooming"])
    }

    @Test("With no listener: the @DelegateDefault value, nil, and the combination's initial value")
    func noListener() {
        let view = FeedScrollView()
        let proxy = FeedScrollDelegateProxy()
        view.delegate = proxy
        view.scroll(to: 80)
        view.tapStatusBar()
        #expect(view.offset == 0) // the default, true, let it scroll to the top
        #expect(proxy.scrollViewShouldScrollToTop() == true)
        #expect(proxy.viewForZooming() == nil)
        #expect(proxy.scrollViewShouldBeginEditing() == true)
    }

    @Test("@DelegateCombining(.allTrue) asks every listener and combines their answers")
    func combining() {
        let log = EventLog()
        let view = FeedScrollView()
        let proxy = FeedScrollDelegateProxy(mode: .breaking) // combining ignores the breaking mode
        view.delegate = proxy
        let first = ScrollListener("first", log: log), second = ScrollListener("second", log: log)
        proxy.add(first)
        proxy.add(second)
        #expect(view.beginEditing() == true)
        second.allowsEditing = false
        #expect(view.beginEditing() == false)
        #expect(
            log.events
                == Array(repeating: ["first.shouldBeginEditing", "second.shouldBeginEditing"], count: 2).flatMap { $0 })
    }

    @Test("Weak listeners that die are skipped, and the proxy answers the default again")
    func dyingListeners() {
        let log = EventLog()
        let controller = FeedViewController()
        let survivor = ScrollListener("survivor", log: log)
        var doomed: ScrollListener? = ScrollListener("doomed", log: log, allowsScrollToTop: false)
        weak var watched: ScrollListener?
        watched = doomed
        controller.scrollDelegates.add(doomed!)
        controller.scrollDelegates.add(survivor)
        #expect(controller.scrollDelegates.scrollViewShouldScrollToTop() == false)
        doomed = nil
        #expect(watched == nil) // the proxy did not keep it alive
        controller.scrollView.scroll(to: 7)
        #expect(controller.scrollDelegates.scrollViewShouldScrollToTop() == true)
        #expect(controller.scrollDelegates.chain.count == 1)
        #expect(log.events.suffix(2) == ["survivor.didScroll(7.0)", "survivor.shouldScrollToTop"])
    }

    @Test("A strong listener stays alive while added")
    func strongListener() {
        let log = EventLog()
        let proxy = FeedScrollDelegateProxy()
        weak var watched: ScrollListener?
        do {
            let listener = ScrollListener("kept", log: log)
            watched = listener
            proxy.add(listener, retention: .strong)
        }
        #expect(watched != nil)
        proxy.scrollViewDidScroll(1)
        #expect(log.events == ["kept.didScroll(1.0)"])
        #expect(proxy.remove(watched!))
        #expect(watched == nil)
    }

    @Test("Removal: by remove, by token, twice, and of a listener never added")
    func removal() {
        let log = EventLog()
        let proxy = FeedScrollDelegateProxy()
        let first = ScrollListener("first", log: log), second = ScrollListener("second", log: log)
        let stranger = ScrollListener("stranger", log: log)
        proxy.add(first)
        let token = proxy.add(second)
        #expect(proxy.remove(first))
        #expect(!proxy.remove(first))
        #expect(!proxy.remove(stranger))
        proxy.scrollViewDidScroll(1)
        token.cancel()
        token.cancel()
        proxy.scrollViewDidScroll(2)
        #expect(log.events == ["second.didScroll(1.0)"])
        #expect(proxy.chain.isEmpty)
    }

    @Test("A listener that removes itself, or a later one, inside its callback")
    func removalInsideCallback() {
        let log = EventLog()
        let proxy = FeedScrollDelegateProxy()
        let first = ScrollListener("first", log: log)
        let second = ScrollListener("second", log: log)
        let third = ScrollListener("third", log: log)
        first.onScroll = { [unowned first, unowned third] _ in
            proxy.remove(first)
            proxy.remove(third)
        }
        proxy.add(first)
        proxy.add(second)
        proxy.add(third)
        proxy.scrollViewDidScroll(1) // third is gone before its turn
        proxy.scrollViewDidScroll(2)
        #expect(log.events == ["first.didScroll(1.0)", "second.didScroll(1.0)", "second.didScroll(2.0)"])
    }

    @Test("A listener added twice is one listener; the proxy is never its own listener")
    func duplicatesAndSelf() {
        let log = EventLog()
        let proxy = FeedScrollDelegateProxy()
        let listener = ScrollListener("one", log: log)
        proxy.add(listener)
        proxy.add(listener)
        let refused = proxy.add(proxy)
        refused.cancel()
        proxy.scrollViewDidScroll(5) // would recurse forever if the proxy were its own listener
        #expect(log.events == ["one.didScroll(5.0)"])
        #expect(proxy.chain.count == 1)
        #expect(!proxy.remove(proxy))
    }

    @Test("A proxy listens to another proxy: a chain of proxies")
    func proxyOfProxies() {
        let log = EventLog()
        let outer = FeedScrollDelegateProxy(), inner = FeedScrollDelegateProxy()
        let listener = ScrollListener("deep", log: log, allowsScrollToTop: false)
        inner.add(listener)
        outer.add(inner)
        outer.scrollViewDidScroll(9)
        #expect(log.events == ["deep.didScroll(9.0)"])
        #expect(outer.scrollViewShouldScrollToTop() == false)
    }

    @Test("The host's weak delegate does not keep the proxy alive; its owner does")
    func lifetime() {
        let view = FeedScrollView()
        do {
            let proxy = FeedScrollDelegateProxy()
            view.delegate = proxy
            #expect(view.delegate != nil)
        }
        #expect(view.delegate == nil) // nobody owned the proxy

        weak var proxy: FeedScrollDelegateProxy?
        var controller: FeedViewController? = FeedViewController()
        proxy = controller!.scrollDelegates
        #expect(controller!.scrollView.delegate === proxy)
        controller = nil
        #expect(proxy == nil) // owned by the controller: gone with it, no cycle
    }

    @Test("A listener that captures non-Sendable state and calls main-actor code")
    func nonSendableState() {
        final class Counter { var scrolls = 0 }
        let counter = Counter()
        let log = EventLog()
        let listener = ScrollListener("counting", log: log)
        listener.onScroll = { _ in counter.scrolls += 1 }
        let controller = FeedViewController()
        controller.scrollDelegates.add(listener)
        for offset in stride(from: 0.0, to: 5, by: 1) { controller.scrollView.scroll(to: offset) }
        #expect(counter.scrolls == 5)
    }

    @Test("The chain does the rest: insert, invocations, count")
    func chainAccess() async {
        let log = EventLog()
        let proxy = FeedScrollDelegateProxy()
        let late = ScrollListener("late", log: log), early = ScrollListener("early", log: log)
        proxy.add(late)
        proxy.chain.insert(early.feedScrollDelegateResponder, at: 0)
        let stream = proxy.chain.invocations(of: FeedScrollDelegateMessages.scrollViewDidScroll)
        proxy.scrollViewDidScroll(4)
        #expect(log.events == ["early.didScroll(4.0)", "late.didScroll(4.0)"])
        #expect(proxy.chain.count == 2)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 4)
    }

    @Test("Subclasses and non-final conformers: the override answers")
    func subclassOverride() {
        final class Loud: ScrollListener {
            override func scrollViewDidScroll(_ offset: Double) { log.events.append("LOUD \(offset)") }
        }
        let log = EventLog()
        let proxy = FeedScrollDelegateProxy()
        let listener: ScrollListener = Loud("loud", log: log)
        proxy.add(listener)
        proxy.scrollViewDidScroll(2)
        #expect(log.events == ["LOUD 2.0"])
    }
}
#endif
