import FastDelegates
import Testing

/// Seed 000: a scroll view with a primary delegate (a view controller) and a @MainActor
/// analytics secondary, and the primary replaced after the secondary attached, which the
/// Objective-C original got wrong: replacing the delegate keeps the secondary.
@Suite("Example: secondary delegate") @MainActor
struct SecondaryDelegateExample {
    @MainActor final class Controller: ScrollViewDelegate {
        var shownOffsets: [Double] = []
        var allowsScrollToTop = true
        func scrollViewDidScroll(_ offset: Double) { shownOffsets.append(offset) }
        func scrollViewShouldScrollToTop() -> Bool { allowsScrollToTop }
    }

    /// A secondary that declares its responses once, through an isolated conformance.
    @MainActor final class ScrollAnalytics {
        var drags = 0
        var distance = 0.0
        private var last = 0.0
        func dragged() { drags += 1 }
        func scrolled(to offset: Double) {
            distance += abs(offset - last)
            last = offset
        }
    }

    @Test func analyticsHearsEveryScrollWhileControllersComeAndGo() {
        let scrollView = ScrollView()
        let analytics = ScrollAnalytics()
        let token = scrollView.delegates.attach(analytics)

        let first = Controller()
        scrollView.delegate = first
        scrollView.drag(to: [10, 30])
        let second = Controller()
        scrollView.delegate = second // replaces the primary, keeps analytics
        scrollView.drag(to: [20])
        second.allowsScrollToTop = false
        scrollView.tapStatusBar() // the primary says no: nothing moves
        #expect(scrollView.offset == 20)
        scrollView.delegate = nil
        scrollView.tapStatusBar() // nobody objects: back to the top
        #expect(scrollView.offset == 0)
        scrollView.drag(to: [50]) // no primary: the secondary still hears it

        #expect(first.shownOffsets == [10, 30])
        #expect(second.shownOffsets == [20])
        #expect(analytics.drags == 3)
        #expect(analytics.distance == 10 + 20 + 10 + 20 + 50)
        token.cancel()
        scrollView.drag(to: [5])
        #expect(analytics.drags == 3)
        withExtendedLifetime((first, second)) {}
    }
}

extension SecondaryDelegateExample.ScrollAnalytics: @MainActor DelegateResponder {
    static let responses = Responses<SecondaryDelegateExample.ScrollAnalytics>()
        .on(ScrollMessages.willBeginDragging) { me in me.dragged() }
        .on(ScrollMessages.didScroll) { me, offset in me.scrolled(to: offset) }
}
