#if Macros
import FastDelegates
import ProxyFixture
import Testing

/// A nonisolated conformer of the nested protocol declared in a module with its own `Message`.
final class TextListener: Editor.TextDelegate {
    var changes: [String] = []
    var limit: Int
    init(limit: Int = 10) { self.limit = limit }
    func textDidChange(_ text: String, at position: Int) { changes.append("\(text)@\(position)") }
    func textDidChange(_ text: String) { changes.append(text) }
    func maximumLength() -> Int { limit }
}

/// A second main-actor protocol, declared in this module.
@DelegateProxy
@MainActor protocol ZoomDelegate: AnyObject {
    @DelegateDefault(1.0) func zoomScale() -> Double
}

/// One class conforming to two proxied protocols: each responder is named after its protocol.
@MainActor final class Both: FeedScrollDelegate, ZoomDelegate {
    var log: [String] = []
    func scrollViewDidScroll(_ offset: Double) { log.append("scroll \(offset)") }
    func scrollViewShouldScrollToTop() -> Bool { true }
    func viewForZooming() -> String? { nil }
    func scrollViewShouldBeginEditing() -> Bool { true }
    func zoomScale() -> Double { 3 }
}

@Suite("Generated responders on every dispatcher")
struct ResponderTests {
    @Test("A nested, nonisolated protocol: overloads by label are distinct messages")
    func nestedNonisolated() {
        let proxy = Editor.TextDelegateProxy()
        let listener = TextListener(limit: 4)
        proxy.add(listener)
        proxy.textDidChange("a", at: 1)
        proxy.textDidChange("b")
        #expect(listener.changes == ["a@1", "b"])
        #expect(proxy.maximumLength() == 4)
        proxy.remove(listener)
        #expect(proxy.maximumLength() == Int.max)
        #expect(Editor.TextDelegateMessages.textDidChangeAt.id != Editor.TextDelegateMessages.textDidChange.id)
    }

    @MainActor @Test("One class, two proxied protocols, two proxies")
    func twoProtocols() {
        let both = Both()
        let scroll = FeedScrollDelegateProxy(), zoom = ZoomDelegateProxy()
        #expect(zoom.zoomScale() == 1)
        scroll.add(both)
        zoom.add(both)
        scroll.scrollViewDidScroll(1)
        #expect(both.log == ["scroll 1.0"])
        #expect(zoom.zoomScale() == 3)
        let target: AnyObject = both.feedScrollDelegateResponder.target
        #expect(ObjectIdentifier(target) == ObjectIdentifier(both))
        #expect(both.zoomDelegateResponder.answers(ZoomDelegateMessages.zoomScale))
        #expect(!both.zoomDelegateResponder.answers(FeedScrollDelegateMessages.viewForZooming))
    }

    @MainActor @Test("Any conformer joins DelegateSlot, DelegateRouter and DelegateInterceptor with no code of its own")
    func otherDispatchers() {
        let log = EventLog()
        let primary = ScrollListener("primary", log: log, zoomView: "primary")
        let secondary = ScrollListener("secondary", log: log, zoomView: "secondary")
        let slot = DelegateSlot()
        slot.setPrimary(primary.feedScrollDelegateResponder)
        slot.attach(secondary.feedScrollDelegateResponder)
        slot.send(FeedScrollDelegateMessages.scrollViewDidScroll, 1)
        #expect(slot.send(FeedScrollDelegateMessages.viewForZooming) == "primary")

        let router = DelegateRouter<Int>(key: 1)
        router.route(1, to: secondary.feedScrollDelegateResponder, retention: .weak)
        router.setDefault(primary.feedScrollDelegateResponder, retention: .weak)
        #expect(router.send(FeedScrollDelegateMessages.viewForZooming) == "secondary")
        router.key = 2
        #expect(router.send(FeedScrollDelegateMessages.viewForZooming) == "primary")

        final class MiddleMan { var seen: [Double] = [] }
        let middleMan = MiddleMan()
        let interceptor = DelegateInterceptor(
            middleMan: middleMan,
            interceptions: Interceptions<MiddleMan>().on(FeedScrollDelegateMessages.scrollViewDidScroll) {
                me, offset, callThrough in
                me.seen.append(offset)
                _ = callThrough(offset)
            })
        interceptor.setReceiver(primary.feedScrollDelegateResponder)
        interceptor.send(FeedScrollDelegateMessages.scrollViewDidScroll, 2)
        #expect(middleMan.seen == [2])
        #expect(interceptor.send(FeedScrollDelegateMessages.viewForZooming) == "primary") // falls through
        #expect(
            log.events.filter { $0.contains("didScroll") } == [
                "primary.didScroll(1.0)", "secondary.didScroll(1.0)", "primary.didScroll(2.0)",
            ])
    }
}
#endif
