import FastDelegates
import Testing

/// Seed 001 in @MainActor app code: a stretchy-header scroll view (a @MainActor view) is the
/// middle man of its own delegate; its interception uses its isolated state, and every other
/// message falls through to the outer @MainActor delegate.
@Suite("MainActor example: stretchy-header interceptor") @MainActor
struct MainActorMiddleManExample {
    @MainActor final class StretchyHeaderScrollView {
        private(set) var headerHeight = 100.0
        private(set) var stretches = 0
        private var interceptor: DelegateInterceptor<StretchyHeaderScrollView>!

        init() {
            interceptor = DelegateInterceptor(
                middleMan: self,
                interceptions: Interceptions()
                    .on(ScrollMessages.didScroll) { me, offset, callThrough in
                        me.stretch(to: offset)
                        callThrough(offset)
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
        #expect(scrollView.tapStatusBar() == false)
    }
}
