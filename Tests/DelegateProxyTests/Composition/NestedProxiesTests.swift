#if Macros
import CompositionViews
import FastDelegates
import ProxyFixture
import RefreshKitA
import Testing

/// A proxy added as a listener of another proxy (a library's proxy handed to the app, which adds
/// it to its own) answers as its own live listeners would at the time of the call, in its place
/// in the outer list: nesting flattens, to any depth.
@Suite("Nested proxies")
@MainActor struct NestedProxiesTests {
    final class Log {
        var events: [String] = []
    }

    /// A listener of `RefreshDelegate` that implements the requirements it is given answers for.
    final class Listener: RefreshDelegate {
        let name: String
        let log: Log
        let rows: Int?
        let heading: String?
        init(_ name: String, log: Log, rows: Int? = nil, title: String? = nil) {
            self.name = name
            self.log = log
            self.rows = rows
            heading = title
        }
        func refresh() async {
            log.events.append("\(name) refresh start")
            await Task.yield()
            log.events.append("\(name) refresh end")
        }
        func scrollViewDidScroll(_ scrollView: ScrollView) { log.events.append("\(name) scroll") }
        func title(for scrollView: ScrollView) -> String? { heading }
        func rowCount(in scrollView: ScrollView) -> Int { rows ?? -1 }
    }

    /// Listens to scrolling only: implements no requirement with an answer.
    final class ScrollOnly: RefreshDelegate {
        let log: Log
        init(log: Log) { self.log = log }
        func scrollViewDidScroll(_ scrollView: ScrollView) { log.events.append("scroll-only scroll") }
    }

    /// Refreshes, and implements nothing else.
    final class Refresher: RefreshDelegate {
        let name: String
        let log: Log
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        func refresh() async {
            log.events.append("\(name) refresh start")
            await Task.yield()
            log.events.append("\(name) refresh end")
        }
    }

    /// Answers the row count alone.
    final class Counter: RefreshDelegate {
        let rows: Int
        init(rows: Int) { self.rows = rows }
        func rowCount(in scrollView: ScrollView) -> Int { rows }
    }

    let view = ScrollView(name: "feed")

    @Test func anInnerProxyWithoutAnImplementerIsPassedBy() {
        let log = Log()
        let outer = RefreshDelegateProxy()
        let inner = RefreshDelegateProxy()
        let scrollOnly = ScrollOnly(log: log)
        let next = Listener("next", log: log, rows: 7, title: "eight")
        inner.add(scrollOnly)
        outer.add(inner)
        outer.add(next)
        // Before: the inner proxy answered its default (-1) and nil, and stopped the walk.
        #expect(outer.rowCount(in: view) == 7)
        #expect(outer.title(for: view) == "eight")
        outer.scrollViewDidScroll(view)
        #expect(log.events == ["scroll-only scroll", "next scroll"])
    }

    @Test func anInnerProxyAnswersAsItsListenersDoAtTheTimeOfTheCall() {
        let log = Log()
        let outer = RefreshDelegateProxy()
        let inner = RefreshDelegateProxy()
        let next = Listener("next", log: log, rows: 7)
        outer.add(inner)
        outer.add(next)
        #expect(outer.rowCount(in: view) == 7)
        let counter = Counter(rows: 5)
        inner.add(counter)
        #expect(outer.rowCount(in: view) == 5)
        inner.remove(counter)
        #expect(outer.rowCount(in: view) == 7)
        // With no listener anywhere, the outer proxy's default.
        let lonely = RefreshDelegateProxy()
        lonely.add(inner)
        #expect(lonely.rowCount(in: view) == -1)
        #expect(lonely.title(for: view) == nil)
    }

    @Test func aBreakingOuterProxyStopsAtTheFirstImplementerInside() {
        let log = Log()
        let outer = RefreshDelegateProxy(mode: .breaking)
        let inner = RefreshDelegateProxy()
        let first = Listener("first", log: log)
        let second = Listener("second", log: log)
        outer.add(inner)
        outer.add(second)
        outer.scrollViewDidScroll(view)
        inner.add(first)
        outer.scrollViewDidScroll(view)
        #expect(log.events == ["second scroll", "first scroll"])
    }

    @Test func nestingFlattensThreeDeep() async {
        let log = Log()
        let outer = RefreshDelegateProxy()
        let middle = RefreshDelegateProxy()
        let inner = RefreshDelegateProxy()
        let deepest = Listener("deepest", log: log, rows: 11, title: "deep")
        inner.add(deepest)
        let middleListener = Refresher("middle", log: log)
        let last = Listener("last", log: log, rows: 2)
        middle.add(inner)
        middle.add(middleListener)
        outer.add(middle)
        outer.add(last)
        #expect(outer.rowCount(in: view) == 11)
        #expect(outer.title(for: view) == "deep")
        await outer.refresh()
        #expect(
            log.events == [
                "deepest refresh start", "deepest refresh end", "middle refresh start", "middle refresh end",
                "last refresh start", "last refresh end",
            ])
        inner.remove(deepest)
        // Nobody inside answers the row count now: the last listener does.
        #expect(outer.rowCount(in: view) == 2)
        #expect(outer.title(for: view) == nil)
        #expect(outer.chain.responds(to: RefreshDelegateMessages.rowCountIn))
    }

    @Test func aLibrarysProxyAddedToTheAppsProxyKeepsItsHost() {
        let log = Log()
        let control = RefreshControl(view: view)
        let library = Listener("library", log: log, rows: 4)
        control.listeners.add(library)
        let app = RefreshDelegateProxy()
        let own = Listener("app", log: log, rows: 1)
        app.add(control.listeners)
        app.add(own)
        #expect(app.rowCount(in: view) == 4)
        control.scroll(to: 3)
        app.scrollViewDidScroll(view)
        #expect(log.events == ["library scroll", "library scroll", "app scroll"])
        control.listeners.remove(library)
        // The library's proxy has no listener left: the app's own listener answers.
        #expect(app.rowCount(in: view) == 1)
        #expect(app.remove(control.listeners))
        #expect(app.rowCount(in: view) == 1)
    }

    @Test func combinedAnswersCountEachInnerListener() {
        final class Editor: FeedScrollDelegate {
            let allows: Bool
            init(allows: Bool) { self.allows = allows }
            func scrollViewShouldBeginEditing() -> Bool { allows }
        }
        let outer = FeedScrollDelegateProxy()
        let inner = FeedScrollDelegateProxy()
        let yes = Editor(allows: true)
        let no = Editor(allows: false)
        outer.add(inner)
        outer.add(yes)
        #expect(outer.scrollViewShouldBeginEditing())
        inner.add(no)
        #expect(!outer.scrollViewShouldBeginEditing())
        // An empty inner proxy passes a query on to the listener behind it.
        final class Zoomer: FeedScrollDelegate {
            func viewForZooming() -> String? { "zoomed" }
            func scrollViewShouldScrollToTop() -> Bool { false }
        }
        let empty = FeedScrollDelegateProxy()
        let emptyInside = FeedScrollDelegateProxy()
        let zoomer = Zoomer()
        empty.add(emptyInside)
        empty.add(zoomer)
        #expect(empty.viewForZooming() == "zoomed")
        #expect(!empty.scrollViewShouldScrollToTop())
    }

    /// Removes a proxy from another in each of its handlers: scrolling, refreshing.
    final class Remover: RefreshDelegate {
        let log: Log
        let removal: () -> Void
        init(log: Log, removing inner: RefreshDelegateProxy, from outer: RefreshDelegateProxy) {
            self.log = log
            removal = { outer.remove(inner) }
        }
        init(log: Log, removal: @escaping () -> Void) {
            self.log = log
            self.removal = removal
        }
        func refresh() async {
            log.events.append("remover refresh")
            removal()
        }
        func scrollViewDidScroll(_ scrollView: ScrollView) {
            log.events.append("remover scroll")
            removal()
        }
    }

    /// O ← [A ← [L1, L2], L3], and L1 removes A from O during a send: L2 receives nothing more,
    /// as a listener removed during a send does, whether the send is a requirement's, a plain
    /// send of the chain, or an `async` requirement's; L3 still does.
    @Test(arguments: ["requirement", "plain send", "async"])
    func removingAnInnerProxyDuringASendStopsItsListeners(_ send: String) async {
        let log = Log()
        let outer = RefreshDelegateProxy()
        let inner = RefreshDelegateProxy()
        let remover = Remover(log: log, removing: inner, from: outer)
        let second = Listener("second", log: log)
        let last = Listener("last", log: log)
        inner.add(remover)
        inner.add(second)
        outer.add(inner)
        outer.add(last)
        switch send {
        case "requirement": outer.scrollViewDidScroll(view)
        case "plain send": outer.chain.send(RefreshDelegateMessages.scrollViewDidScroll, view)
        default: await outer.refresh()
        }
        let (removerEvent, lastEvents) =
            send == "async"
            ? ("remover refresh", ["last refresh start", "last refresh end"]) : ("remover scroll", ["last scroll"])
        // Before: the synchronous sends kept walking the removed proxy's listeners ("second scroll").
        #expect(log.events == [removerEvent] + lastEvents)
        #expect(!outer.chain.contains(inner))
        // The inner proxy itself still reaches both of its listeners.
        log.events = []
        inner.scrollViewDidScroll(view)
        #expect(log.events == ["remover scroll", "second scroll"])
    }

    /// The other ways out of the outer chain during a send: the nesting `add`'s token, and
    /// `removeAll()`.
    @Test(arguments: ["cancel", "removeAll"])
    func cancellingOrRemovingEveryListenerDuringASendStopsTheInnerListeners(_ removal: String) {
        let log = Log()
        let outer = RefreshDelegateProxy()
        let inner = RefreshDelegateProxy()
        let second = Listener("second", log: log)
        let last = Listener("last", log: log)
        var token: DelegateToken?
        let remover = Remover(log: log) {
            if removal == "cancel" { token?.cancel() } else { outer.chain.removeAll() }
        }
        inner.add(remover)
        inner.add(second)
        token = outer.add(inner)
        outer.add(last)
        outer.scrollViewDidScroll(view)
        #expect(log.events == (removal == "cancel" ? ["remover scroll", "last scroll"] : ["remover scroll"]))
    }

    /// Three deep, O ← [M ← [A ← [L1, L2], L4], L3]: L1 removing M from O ends the walks of both
    /// M and A; L1 removing A from M ends A's alone.
    @Test(arguments: [true, false])
    func removingAnInnerProxyStopsTheWalksItNests(_ removingMiddle: Bool) {
        let log = Log()
        let outer = RefreshDelegateProxy()
        let middle = RefreshDelegateProxy()
        let inner = RefreshDelegateProxy()
        let remover =
            removingMiddle
            ? Remover(log: log, removing: middle, from: outer) : Remover(log: log, removing: inner, from: middle)
        let second = Listener("second", log: log)
        let fourth = Listener("fourth", log: log)
        let last = Listener("last", log: log)
        inner.add(remover)
        inner.add(second)
        middle.add(inner)
        middle.add(fourth)
        outer.add(middle)
        outer.add(last)
        outer.scrollViewDidScroll(view)
        #expect(
            log.events
                == (removingMiddle
                    ? ["remover scroll", "last scroll"] : ["remover scroll", "fourth scroll", "last scroll"]))
    }

    @Test func aProxyCannotListenToItselfThroughOthers() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let outer = RefreshDelegateProxy()
                let inner = RefreshDelegateProxy()
                outer.add(inner)
                inner.add(outer)
            }
        }
    }
}
#endif
