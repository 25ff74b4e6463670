#if Macros
import FastDelegates
import Foundation

/// UIKit's `UIScrollViewDelegate` as the iOS 18 SDK imports it into Swift
/// (`@MainActor protocol UIScrollViewDelegate : NSObjectProtocol`, every requirement `optional`).
/// Transcribed as a Swift `AnyObject` protocol: `NSObjectProtocol` becomes `AnyObject` and the
/// `optional` keyword is dropped (it exists only in `@objc` protocols). 14 requirements.
@DelegateProxy
@MainActor public protocol UIScrollViewDelegate: AnyObject {
    // Responding to scrolling and dragging
    func scrollViewDidScroll(_ scrollView: UIScrollView)
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
    func scrollViewWillEndDragging(
        _ scrollView: UIScrollView,
        withVelocity velocity: CGPoint,
        targetContentOffset: UnsafeMutablePointer<CGPoint>
    )
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
    @DelegateDefault(true) func scrollViewShouldScrollToTop(_ scrollView: UIScrollView) -> Bool
    func scrollViewDidScrollToTop(_ scrollView: UIScrollView)
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView)
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView)

    // Managing zooming
    func viewForZooming(in scrollView: UIScrollView) -> UIView?
    func scrollViewWillBeginZooming(_ scrollView: UIScrollView, with view: UIView?)
    func scrollViewDidEndZooming(_ scrollView: UIScrollView, with view: UIView?, atScale scale: CGFloat)
    func scrollViewDidZoom(_ scrollView: UIScrollView)

    // Responding to scrolling animations
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView)

    // Responding to inset changes (iOS 11)
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: UIScrollView)
}
#endif
