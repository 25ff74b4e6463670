import FastDelegates
import Testing

/// Seed 000: a scroll view with a primary delegate and an analytics secondary — and the
/// primary replaced after the secondary attached, which the Objective-C original got wrong.
@Suite("Example: secondary delegate")
struct SecondaryDelegateExample {
    final class Controller: ScrollViewDelegate {
        var shownOffsets: [Double] = []
        func scrollViewDidScroll(_ offset: Double) { shownOffsets.append(offset) }
    }

    final class ScrollAnalytics: ScrollViewDelegate {
        var drags = 0
        var distance = 0.0
        private var last = 0.0
        func scrollViewWillBeginDragging() { drags += 1 }
        func scrollViewDidScroll(_ offset: Double) {
            distance += abs(offset - last)
            last = offset
        }
    }

    @Test func analyticsHearsEveryScrollWhileControllersComeAndGo() {
        let scrollView = ScrollView()
        let analytics = ScrollAnalytics()
        let token = scrollView.delegates.attach(analytics.responder)

        let first = Controller()
        scrollView.delegate = first
        scrollView.drag(to: [10, 30])

        let second = Controller()
        scrollView.delegate = second // replaces the primary, keeps analytics
        scrollView.drag(to: [20])
        scrollView.delegate = nil
        scrollView.drag(to: [50])

        #expect(first.shownOffsets == [10, 30])
        #expect(second.shownOffsets == [20])
        #expect(analytics.drags == 3)
        #expect(analytics.distance == 10 + 20 + 10 + 30)

        token.cancel()
        scrollView.drag(to: [0])
        #expect(analytics.drags == 3)
        withExtendedLifetime((first, second)) {}
    }
}
