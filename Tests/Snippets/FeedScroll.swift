import FastDelegates

// The host and listeners of <doc:DelegateProxies>' first example.

@MainActor final class FeedScrollView {
    weak var delegate: (any FeedScrollDelegate)?
}

@MainActor final class StretchyHeader: FeedScrollDelegate {
    func scrollViewDidScroll(_ offset: Double) {}
}

@MainActor final class ScrollAnalytics: FeedScrollDelegate {
    func scrollViewDidScroll(_ offset: Double) {}
}
