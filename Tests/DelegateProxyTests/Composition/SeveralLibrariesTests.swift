#if Macros
import CompositionViews
import FastDelegates
import RefreshKitA
import RefreshKitB
import Testing

/// Two libraries that declare one `@DelegateProxy` protocol name, with the same requirements over
/// one view class of a third module (`async` and class parameters among them), used in one app:
/// each works, and neither's listeners hear the other's messages (the rule before stopped the
/// program at the second library's first message).
@Suite("Several libraries in one app")
@MainActor struct SeveralLibrariesTests {
    final class Log {
        var events: [String] = []
    }

    final class ListenerOfA: RefreshKitA.RefreshDelegate {
        let log: Log
        init(log: Log) { self.log = log }
        func refresh() async { log.events.append("A.refresh") }
        func scrollViewDidScroll(_ scrollView: ScrollView) { log.events.append("A.scroll \(scrollView.offset)") }
        func rowCount(in scrollView: ScrollView) -> Int { 3 }
    }

    final class ListenerOfB: RefreshKitB.RefreshDelegate {
        let log: Log
        init(log: Log) { self.log = log }
        func refresh() async { log.events.append("B.refresh") }
        func scrollViewDidScroll(_ scrollView: ScrollView) { log.events.append("B.scroll \(scrollView.offset)") }
        func title(for scrollView: ScrollView) -> String? { "B's \(scrollView.name)" }
    }

    /// One object of the app that listens to both libraries with the same methods.
    final class ListenerOfBoth: RefreshKitA.RefreshDelegate, RefreshKitB.RefreshDelegate {
        let log: Log
        init(log: Log) { self.log = log }
        func refresh() async { log.events.append("both.refresh") }
        func scrollViewDidScroll(_ scrollView: ScrollView) { log.events.append("both.scroll \(scrollView.offset)") }
        func title(for scrollView: ScrollView) -> String? { "both" }
        func rowCount(in scrollView: ScrollView) -> Int { 9 }
    }

    @Test func eachLibraryReachesItsOwnListenersOnly() async {
        let log = Log()
        let view = ScrollView(name: "feed")
        let controlA = RefreshKitA.RefreshControl(view: view)
        let controlB = RefreshKitB.RefreshControl(view: view)
        let a = ListenerOfA(log: log)
        let b = ListenerOfB(log: log)
        controlA.listeners.add(a)
        controlB.listeners.add(b)
        controlA.scroll(to: 10)
        controlB.scroll(to: 20)
        await controlA.pull()
        await controlB.pull()
        #expect(log.events == ["A.scroll 10.0", "B.scroll 20.0", "A.refresh", "B.refresh"])
        #expect(controlA.rowCount() == 3)
        #expect(controlB.rowCount() == -1)
        #expect(controlA.title() == nil)
        #expect(controlB.title() == "B's feed")
    }

    @Test func oneListenerOfBothHearsEachLibraryOnce() async {
        let log = Log()
        let view = ScrollView(name: "feed")
        let controlA = RefreshKitA.RefreshControl(view: view)
        let controlB = RefreshKitB.RefreshControl(view: view)
        let both = ListenerOfBoth(log: log)
        controlA.listeners.add(both)
        controlB.listeners.add(both)
        controlA.scroll(to: 1)
        await controlB.pull()
        #expect(log.events == ["both.scroll 1.0", "both.refresh"])
        #expect(controlA.rowCount() == 9 && controlB.rowCount() == 9)
        controlB.listeners.remove(both)
        controlB.scroll(to: 2)
        controlA.scroll(to: 3)
        #expect(log.events == ["both.scroll 1.0", "both.refresh", "both.scroll 3.0"])
    }

    /// Both protocols' extensions give `ListenerOfBoth` a `refreshDelegateResponder`, so the bare
    /// name is ambiguous; through each protocol's existential it is that protocol's responder.
    @Test func aListenerOfBothNamesTheProtocolOfTheResponderItWants() {
        let log = Log()
        let view = ScrollView(name: "feed")
        let both = ListenerOfBoth(log: log)
        let chain = DelegateChain()
        chain.add((both as any RefreshKitA.RefreshDelegate).refreshDelegateResponder)
        chain.send(RefreshKitA.RefreshDelegateMessages.scrollViewDidScroll, view)
        chain.send(RefreshKitB.RefreshDelegateMessages.scrollViewDidScroll, view)
        #expect(log.events == ["both.scroll 0.0"])
        #expect(chain.responds(to: RefreshKitA.RefreshDelegateMessages.scrollViewDidScroll))
        #expect(!chain.responds(to: RefreshKitB.RefreshDelegateMessages.scrollViewDidScroll))
    }

    @Test func theMessagesShareTheirNamesAndNothingElse() async {
        typealias A = RefreshKitA.RefreshDelegateMessages
        typealias B = RefreshKitB.RefreshDelegateMessages
        #expect(A.refresh.name == B.refresh.name)
        #expect(A.refresh != B.refresh)
        #expect(A.scrollViewDidScroll.name == B.scrollViewDidScroll.name)
        #expect(A.scrollViewDidScroll != B.scrollViewDidScroll)
        #expect(A.scrollViewDidScroll.debugDescription.contains("RefreshKitA/RefreshKit.swift"))
        #expect(B.scrollViewDidScroll.debugDescription.contains("RefreshKitB/RefreshKit.swift"))
        // A stream of one library's message sees none of the other's sends.
        let view = ScrollView(name: "feed")
        let controlA = RefreshKitA.RefreshControl(view: view)
        let controlB = RefreshKitB.RefreshControl(view: view)
        let stream = controlA.listeners.chain.invocations(of: A.scrollViewDidScroll)
        controlB.scroll(to: 5)
        controlA.scroll(to: 6)
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.offset == 6)
    }
}
#endif
