import FastDelegates

// The listener and the two delegates of <doc:SecondaryDelegates>.

@MainActor final class Analytics: ScrollViewDelegate {
    func scrollViewDidScroll(_ offset: Double) {}
    func scrollViewShouldScrollToTop() -> Bool { true }
}

@MainActor let scrollView = ScrollView()
@MainActor let analytics = Analytics().responder
@MainActor let controller = ScrollController()
@MainActor let otherController = ScrollController()
