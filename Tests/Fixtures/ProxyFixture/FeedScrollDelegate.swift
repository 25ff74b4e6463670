#if Macros
import FastDelegates

/// A public main-actor delegate protocol of a library, proxied for its users: the example.
@DelegateProxy
@MainActor public protocol FeedScrollDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
    @DelegateDefault(true) func scrollViewShouldScrollToTop() -> Bool
    func viewForZooming() -> String?
    @DelegateCombining(.allTrue) func scrollViewShouldBeginEditing() -> Bool
}

/// A host as a UI toolkit declares one: its delegate is held weakly.
@MainActor public final class FeedScrollView {
    public weak var delegate: (any FeedScrollDelegate)?
    public init() {}
    public func scroll(to offset: Double) { delegate?.scrollViewDidScroll(offset) }
}
#endif
