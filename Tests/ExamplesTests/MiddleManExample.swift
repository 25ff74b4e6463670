import FastDelegates
import Testing

/// Seed 001: a scroll view subclass that is its own delegate's middle man. It handles
/// `didScroll` (to stretch its header) and passes it on; everything else reaches the outer
/// delegate with no forwarding code.
@Suite("Example: middle man")
struct MiddleManExample {
    final class StretchyHeaderScrollView {
        private(set) var headerHeight = 100.0
        private(set) var interceptor: DelegateInterceptor<StretchyHeaderScrollView>!

        init() {
            interceptor = DelegateInterceptor(
                middleMan: self,
                interceptions: Interceptions()
                    .on(ScrollMessages.didScroll) { me, offset, callThrough in
                        me.headerHeight = max(100, 100 - offset) // pulled down: the header grows
                        callThrough(offset) // like calling super
                    })
        }

        weak var delegate: (any ScrollViewDelegate)? {
            get { interceptor.receiver as? any ScrollViewDelegate }
            set { interceptor.setReceiver(newValue?.responder) }
        }

        func drag(to offsets: [Double]) {
            interceptor.send(ScrollMessages.willBeginDragging)
            for offset in offsets { interceptor.send(ScrollMessages.didScroll, offset) }
        }

        func tapStatusBar() -> Bool {
            interceptor.send(ScrollMessages.shouldScrollToTop, default: true)
        }
    }

    final class Controller: ScrollViewDelegate {
        var log: [String] = []
        func scrollViewWillBeginDragging() { log.append("drag") }
        func scrollViewDidScroll(_ offset: Double) { log.append("scroll \(offset)") }
        func scrollViewShouldScrollToTop() -> Bool { false }
    }

    @Test func theMiddleManHandlesDidScrollAndTheRestFallsThrough() {
        let scrollView = StretchyHeaderScrollView()
        let controller = Controller()
        scrollView.delegate = controller
        scrollView.drag(to: [-40, 20])
        #expect(scrollView.headerHeight == 100)
        scrollView.drag(to: [-60])
        #expect(scrollView.headerHeight == 160)
        #expect(controller.log == ["drag", "scroll -40.0", "scroll 20.0", "drag", "scroll -60.0"])
        #expect(scrollView.tapStatusBar() == false) // not intercepted: the controller's answer

        let other = Controller()
        scrollView.delegate = other // the receiver is replaceable
        scrollView.drag(to: [5])
        #expect(other.log == ["drag", "scroll 5.0"])
        #expect(controller.log.count == 5)
        withExtendedLifetime(other) {}
    }
}
