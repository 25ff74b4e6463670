#if Macros
import FastDelegates
import ProxyFixture
import Testing

@MainActor final class Listener: FeedScrollDelegate {
    var offsets: [Double] = []
    func scrollViewDidScroll(_ offset: Double) { offsets.append(offset) }
    func scrollViewShouldScrollToTop() -> Bool { false }
    func viewForZooming() -> String? { "zoom" }
    func scrollViewShouldBeginEditing() -> Bool { true }
}

@MainActor @Test func scratch() {
    let proxy = FeedScrollDelegateProxy()
    let view = FeedScrollView()
    view.delegate = proxy
    let a = Listener(), b = Listener()
    proxy.add(a); proxy.add(b)
    view.scroll(to: 3)
    #expect(a.offsets == [3] && b.offsets == [3])
    #expect(proxy.scrollViewShouldScrollToTop() == false)
}
#endif
