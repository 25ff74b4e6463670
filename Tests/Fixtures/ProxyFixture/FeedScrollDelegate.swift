#if Macros
import FastDelegates

/// A library's public main-actor delegate protocol, proxied for its users (the example).
@DelegateProxy
@MainActor public protocol FeedScrollDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
    @DelegateDefault(true) func scrollViewShouldScrollToTop() -> Bool
    func viewForZooming() -> String?
    @DelegateCombining(.allTrue) func scrollViewShouldBeginEditing() -> Bool
}

/// A host as a UI toolkit declares one: it holds its delegate weakly and calls it.
@MainActor public final class FeedScrollView {
    public weak var delegate: (any FeedScrollDelegate)?
    public private(set) var offset = 0.0

    public init() {}

    public func scroll(to offset: Double) {
        self.offset = offset
        delegate?.scrollViewDidScroll(offset)
    }

    /// What a tap on the status bar does: asks the delegate, then scrolls.
    public func tapStatusBar() {
        if delegate?.scrollViewShouldScrollToTop() ?? true { scroll(to: 0) }
    }

    public func zoomedView() -> String? { delegate?.viewForZooming() }

    public func beginEditing() -> Bool { delegate?.scrollViewShouldBeginEditing() ?? true }
}
#endif
