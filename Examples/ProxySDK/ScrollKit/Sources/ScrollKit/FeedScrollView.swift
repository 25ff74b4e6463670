/// A host with one delegate slot, as a UI toolkit writes it.
@MainActor public final class FeedScrollView {
    public weak var delegate: (any FeedScrollDelegate)?
    public private(set) var offset = 0.0

    public init() {}

    /// Scrolls, telling the delegate.
    public func scroll(to offset: Double) {
        self.offset = offset
        delegate?.feedDidScroll(to: offset)
    }

    /// A tap on the status bar: scrolls to the top unless the delegate says no.
    public func tapStatusBar() {
        if delegate?.feedShouldScrollToTop() ?? true { scroll(to: 0) }
    }

    /// Whether a pull refreshes the feed.
    public func pullToRefresh() -> Bool { delegate?.feedShouldRefresh() ?? true }
}
