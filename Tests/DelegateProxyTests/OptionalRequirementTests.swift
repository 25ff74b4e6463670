#if Macros
import CDispatchTable
import FastDelegates
import ProxyFixture
import Testing

/// Implements only `scrollViewDidScroll`: inherits every other requirement's default.
@MainActor class ScrollOnly: PageScrollDelegate {
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func scrollViewDidScroll(_ offset: Double) { log.events.append("\(name).didScroll") }
}

/// ``ScrollOnly``s of tests that count what is learned about their class: every proxy shares
/// what one found (a class's handlers are the process's), and each subclass is a class of its own.
@MainActor final class RespondsScrollOnly: ScrollOnly {}
@MainActor final class AskedOnceScrollOnly: ScrollOnly {}

/// Implements only the queries.
@MainActor final class Zoomer: PageScrollDelegate {
    let name: String
    let log: EventLog
    var zoomView: PageView?
    var allowsScrollToTop = false
    var allowsDragging = true
    var selection: Int?
    init(_ name: String, log: EventLog, zoomView: PageView?) {
        self.name = name
        self.log = log
        self.zoomView = zoomView
    }
    func viewForZooming(in scrollView: PageView) -> PageView? {
        log.events.append("\(name).viewForZooming")
        return zoomView
    }
    func scrollViewShouldScrollToTop(_ scrollView: PageView) -> Bool {
        log.events.append("\(name).shouldScrollToTop")
        return allowsScrollToTop
    }
    func scrollViewShouldBeginDragging(_ scrollView: PageView) -> Bool {
        log.events.append("\(name).shouldBeginDragging")
        return allowsDragging
    }
    func tableView(_ tableView: PageView, willSelectRowAt indexPath: Int) -> Int? {
        log.events.append("\(name).willSelect")
        return selection
    }
}

/// Implements nothing at all.
@MainActor final class Bystander: PageScrollDelegate {}

/// Implements only the navigation decision.
@MainActor final class Decider: PageNavigationDelegate {
    let name: String
    let log: EventLog
    let policy: NavigationPolicy
    init(_ name: String, log: EventLog, policy: NavigationPolicy) {
        self.name = name
        self.log = log
        self.policy = policy
    }
    func decidePolicy(for url: String, decisionHandler: @escaping (NavigationPolicy) -> Void) {
        log.events.append("\(name).decide(\(url))")
        decisionHandler(policy)
    }
}

/// Implements only `didFinish`: declines the decision.
@MainActor final class Finisher: PageNavigationDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func didFinish(_ url: String) { log.events.append("finished(\(url))") }
}

@MainActor
@Suite("Optional requirements of a @DelegateProxy protocol")
struct OptionalRequirementTests {
    let page = PageView("page")

    @Test("A listener that implements only scrollViewDidScroll does not hide a later listener's viewForZooming")
    func queryPassesOverNonImplementers() {
        let log = EventLog()
        let proxy = PageScrollDelegateProxy()
        let scroller = ScrollOnly("scroller", log: log)
        let zoomer = Zoomer("zoomer", log: log, zoomView: PageView("zoomed"))
        proxy.add(scroller)
        proxy.add(zoomer)
        for _ in 0..<3 {
            #expect(proxy.viewForZooming(in: page) == PageView("zoomed"))
        }
        #expect(log.events == Array(repeating: "zoomer.viewForZooming", count: 3))
    }

    @Test("A void requirement reaches only its implementers; .breaking reaches the first implementer")
    func voidReachesImplementers() {
        for mode in [FastDelegates.DelegateChain.Mode.nonBreaking, .breaking] {
            let log = EventLog()
            let proxy = PageScrollDelegateProxy(mode: mode)
            let zoomer = Zoomer("zoomer", log: log, zoomView: nil)
            let first = ScrollOnly("first", log: log)
            let second = ScrollOnly("second", log: log)
            proxy.add(zoomer)
            proxy.add(first)
            proxy.add(second)
            proxy.scrollViewDidScroll(1)
            proxy.scrollViewDidScroll(2)
            let once = mode == .breaking ? ["first.didScroll"] : ["first.didScroll", "second.didScroll"]
            #expect(log.events == once + once, "\(mode)")
        }
    }

    @Test("An implementer's nil answer counts: later listeners are not asked")
    func nilAnswerCounts() {
        let log = EventLog()
        let proxy = PageScrollDelegateProxy()
        let first = Zoomer("first", log: log, zoomView: nil)
        let second = Zoomer("second", log: log, zoomView: PageView("second"))
        let bystander = Bystander()
        proxy.add(bystander)
        proxy.add(first)
        proxy.add(second)
        #expect(proxy.viewForZooming(in: page) == nil)
        #expect(log.events == ["first.viewForZooming"])
    }

    @Test("Combining counts only implementers; with none, the initial value")
    func combiningOnlyImplementers() {
        let log = EventLog()
        let proxy = PageScrollDelegateProxy()
        let bystander = Bystander()
        proxy.add(bystander)
        // `.allTrue` starts at true; a decliner's default (true) would not change it, so also
        // check that the implementer's `false` decides and that nobody else is counted.
        #expect(proxy.scrollViewShouldBeginDragging(page) == true)
        let zoomer = Zoomer("zoomer", log: log, zoomView: nil)
        zoomer.allowsDragging = false
        proxy.add(zoomer)
        let scroller = ScrollOnly("scroller", log: log)
        proxy.add(scroller)
        #expect(proxy.scrollViewShouldBeginDragging(page) == false)
        #expect(log.events == ["zoomer.shouldBeginDragging"])
    }

    @Test("No live implementer: @DelegateDefault, nil, the parameter's value")
    func defaultsWithoutImplementers() {
        let log = EventLog()
        let proxy = PageScrollDelegateProxy()
        let scroller = ScrollOnly("scroller", log: log)
        let bystander = Bystander()
        proxy.add(scroller)
        proxy.add(bystander)
        #expect(proxy.scrollViewShouldScrollToTop(page) == true)
        #expect(proxy.viewForZooming(in: page) == nil)
        #expect(proxy.tableView(page, willSelectRowAt: 7) == 7)
        // An implementer answers instead; its nil counts.
        let zoomer = Zoomer("zoomer", log: log, zoomView: nil)
        proxy.add(zoomer)
        #expect(proxy.scrollViewShouldScrollToTop(page) == false)
        #expect(proxy.tableView(page, willSelectRowAt: 7) == nil)
        zoomer.selection = 3
        #expect(proxy.tableView(page, willSelectRowAt: 7) == 3)
    }

    @Test("responds(to:) counts a listener until a send finds it does not implement the requirement")
    func respondsFollowsDeclines() {
        let log = EventLog()
        let proxy = PageScrollDelegateProxy()
        let scroller = RespondsScrollOnly("scroller", log: log)
        proxy.add(scroller)
        let zooming = PageScrollDelegateMessages.viewForZoomingIn
        // Before a send reaches the listener it counts as responding (documented).
        #expect(proxy.chain.responds(to: zooming))
        _ = proxy.viewForZooming(in: page)
        #expect(!proxy.chain.responds(to: zooming))
        #expect(proxy.chain.responds(to: PageScrollDelegateMessages.scrollViewDidScroll))
        proxy.scrollViewDidScroll(0)
        #expect(proxy.chain.responds(to: PageScrollDelegateMessages.scrollViewDidScroll))
    }

    @Test("A decliner's default runs once per requirement; a second listener of its class never")
    func declinerIsAskedOnce() {
        let log = EventLog()
        let proxy = PageScrollDelegateProxy()
        let first = AskedOnceScrollOnly("first", log: log)
        let other = AskedOnceScrollOnly("other", log: log)
        proxy.add(first)
        proxy.add(other)
        let zooming = PageScrollDelegateMessages.viewForZoomingIn
        // Every run of a generated default asks the declining record once (cdt_decline_claim).
        let before = cdt_decline_debug_claim_calls()
        for _ in 0..<5 { _ = proxy.viewForZooming(in: page) }
        // The first send asks `first` (whose handler then is marked declined) and drops `other`'s
        // registration of the shared handler without calling it; later sends call neither.
        #expect(cdt_decline_debug_claim_calls() - before == 1)
        #expect(!proxy.chain.responds(to: zooming))
        // A listener of the same class added later never registers the handler.
        let second = AskedOnceScrollOnly("second", log: log)
        proxy.add(second)
        #expect(!proxy.chain.responds(to: zooming))
        for _ in 0..<5 { _ = proxy.viewForZooming(in: page) }
        #expect(cdt_decline_debug_claim_calls() - before == 1)
        // A listener of another class that implements it is found, and asks no default.
        let zoomer = Zoomer("zoomer", log: log, zoomView: PageView("z"))
        proxy.add(zoomer)
        #expect(proxy.viewForZooming(in: page) == PageView("z"))
        #expect(proxy.viewForZooming(in: page) == PageView("z"))
        #expect(cdt_decline_debug_claim_calls() - before == 1)
        withExtendedLifetime((first, other, second)) {}
    }

    @Test("A query leaves behind its answer no listener of a class known to decline")
    func declinersBehindAQueryLeave() {
        let log = EventLog()
        let proxy = PageScrollDelegateProxy()
        let before = ScrollOnly("before", log: log)
        let zoomer = Zoomer("zoomer", log: log, zoomView: PageView("z"))
        let behind = ScrollOnly("behind", log: log)
        proxy.add(before)
        proxy.add(zoomer)
        proxy.add(behind)
        // `before` declines; the query stops at `zoomer`, and never reaches `behind`, whose class
        // is now known to decline.
        #expect(proxy.viewForZooming(in: page) == PageView("z"))
        // The next send of the requirement takes it out before it walks.
        #expect(proxy.viewForZooming(in: page) == PageView("z"))
        proxy.remove(zoomer)
        #expect(!proxy.chain.responds(to: PageScrollDelegateMessages.viewForZoomingIn))
        #expect(proxy.viewForZooming(in: page) == nil)
        withExtendedLifetime((before, behind)) {}
    }

    @Test("A direct call of an unimplemented method (no proxy) answers the documented default")
    func directCallAnswersDefault() {
        let log = EventLog()
        let scroller: any PageScrollDelegate = ScrollOnly("scroller", log: log)
        #expect(scroller.viewForZooming(in: page) == nil)
        #expect(scroller.scrollViewShouldScrollToTop(page) == true)
        #expect(scroller.scrollViewShouldBeginDragging(page) == true)
        #expect(scroller.tableView(page, willSelectRowAt: 4) == 4)
        let finisher: any PageNavigationDelegate = Finisher(log: log)
        var policies: [NavigationPolicy] = []
        finisher.decidePolicy(for: "a") { policies.append($0) }
        #expect(policies == [.allow])
        var answers: [(ChallengeDisposition, String?)] = []
        finisher.didReceive(challenge: "h") { answers.append(($0, $1)) }
        #expect(answers.count == 1 && answers[0].0 == .performDefaultHandling && answers[0].1 == nil)
    }
}

@MainActor
@Suite("Completion handlers of a @DelegateProxy protocol")
struct CompletionHandlerTests {
    @Test(
        "No listener: the proxy completes once with the default",
        arguments: [FastDelegates.DelegateChain.Mode.nonBreaking, .breaking])
    func noListener(mode: FastDelegates.DelegateChain.Mode) {
        let proxy = PageNavigationDelegateProxy(mode: mode)
        var policies: [NavigationPolicy] = []
        proxy.decidePolicy(for: "a") { policies.append($0) }
        #expect(policies == [.allow])
        var answers: [(ChallengeDisposition, String?)] = []
        proxy.didReceive(challenge: "h") { answers.append(($0, $1)) }
        #expect(answers.count == 1 && answers[0].0 == .performDefaultHandling && answers[0].1 == nil)
        var redirects: [String?] = []
        proxy.willRedirect(to: "r") { redirects.append($0) }
        #expect(redirects == ["r"])
        var prepared: [String?] = []
        proxy.prepare("p") { prepared.append($0) }
        #expect(prepared == [nil])
        var finished = 0
        proxy.finishLoading { finished += 1 }
        #expect(finished == 1)
    }

    @Test(
        "Two implementers: completed once, by the first",
        arguments: [FastDelegates.DelegateChain.Mode.nonBreaking, .breaking])
    func twoImplementers(mode: FastDelegates.DelegateChain.Mode) {
        let log = EventLog()
        let proxy = PageNavigationDelegateProxy(mode: mode)
        let first = Decider("first", log: log, policy: .cancel)
        let second = Decider("second", log: log, policy: .download)
        proxy.add(first)
        proxy.add(second)
        for _ in 0..<2 {
            var policies: [NavigationPolicy] = []
            proxy.decidePolicy(for: "a") { policies.append($0) }
            #expect(policies == [.cancel])
        }
        #expect(log.events == ["first.decide(a)", "first.decide(a)"])
    }

    @Test(
        "A decliner first and an implementer second: the implementer, once",
        arguments: [FastDelegates.DelegateChain.Mode.nonBreaking, .breaking])
    func declinerThenImplementer(mode: FastDelegates.DelegateChain.Mode) {
        let log = EventLog()
        let proxy = PageNavigationDelegateProxy(mode: mode)
        let finisher = Finisher(log: log)
        let decider = Decider("decider", log: log, policy: .download)
        proxy.add(finisher)
        proxy.add(decider)
        for _ in 0..<3 {
            var policies: [NavigationPolicy] = []
            proxy.decidePolicy(for: "b") { policies.append($0) }
            #expect(policies == [.download])
        }
        #expect(log.events == Array(repeating: "decider.decide(b)", count: 3))
        // Only decliners left: the proxy completes with the default, once.
        proxy.remove(decider)
        var policies: [NavigationPolicy] = []
        proxy.decidePolicy(for: "c") { policies.append($0) }
        #expect(policies == [.allow])
        proxy.didFinish("c")
        #expect(log.events.last == "finished(c)")
    }
}
#endif
