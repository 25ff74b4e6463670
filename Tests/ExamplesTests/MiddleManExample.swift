import FastDelegates
import Testing

/// Seed 001: a scroll view subclass that is its own delegate's middle man. The stretchy-header
/// scroll view (a @MainActor view) handles `didScroll` with its isolated state (to stretch its
/// header) and passes it on; every other message reaches the outer @MainActor delegate with no
/// forwarding code.
@Suite("Example: middle man (stretchy-header interceptor)") @MainActor
struct MiddleManExample {
    @MainActor final class StretchyHeaderScrollView {
        private(set) var headerHeight = 100.0
        private(set) var stretches = 0
        private var interceptor: DelegateInterceptor<StretchyHeaderScrollView>!

        init() {
            interceptor = DelegateInterceptor(
                middleMan: self,
                interceptions: Interceptions()
                    .on(ScrollMessages.didScroll) { me, offset, callThrough in
                        me.stretch(to: offset) // pulled down: the header grows
                        callThrough(offset) // like calling super
                    })
        }

        private func stretch(to offset: Double) {
            headerHeight = max(100, 100 - offset)
            stretches += 1
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

    @MainActor final class Controller: ScrollViewDelegate {
        var log: [String] = []
        func scrollViewWillBeginDragging() { log.append("drag") }
        func scrollViewDidScroll(_ offset: Double) { log.append("scroll \(offset)") }
        func scrollViewShouldScrollToTop() -> Bool { false }
    }

    @Test func theViewStretchesItsHeaderAndTheRestFallsThrough() {
        let scrollView = StretchyHeaderScrollView()
        let controller = Controller()
        scrollView.delegate = controller
        scrollView.drag(to: [-40, 20])
        #expect(scrollView.headerHeight == 100)
        scrollView.drag(to: [-60])
        #expect(scrollView.headerHeight == 160)
        #expect(scrollView.stretches == 3)
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
