import FastDelegates

/// What a feed's scroll view tells its delegate.
@DelegateProxy
@MainActor public protocol FeedScrollDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
    func scrollViewDidEndDragging(willDecelerate decelerate: Bool)
    @DelegateDefault(true) func scrollViewShouldScrollToTop() -> Bool
    func viewForZooming() -> String?
    @DelegateCombining(.allTrue) func scrollViewShouldBeginEditing() -> Bool
}

/// A scroll view with one delegate, held weakly, as UI toolkits have.
@MainActor public final class FeedScrollView {
    public weak var delegate: (any FeedScrollDelegate)?
    public private(set) var offset = 0.0

    public init() {}

    public func scroll(to offset: Double) {
        self.offset = offset
        delegate?.scrollViewDidScroll(offset)
    }

    public func endDragging(decelerating: Bool) {
        delegate?.scrollViewDidEndDragging(willDecelerate: decelerating)
    }

    public func tapStatusBar() {
        if delegate?.scrollViewShouldScrollToTop() ?? true { scroll(to: 0) }
    }

    public var zoomedView: String? { delegate?.viewForZooming() }

    public func tapToEdit() -> Bool { delegate?.scrollViewShouldBeginEditing() ?? true }
}
