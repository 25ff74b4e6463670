#if Macros
import AppleDelegates
import FastDelegates
import Foundation
import Testing

// A subclass's method that its superclass's conformance did not implement is no witness: Swift
// binds a class's conformance once, in the class that declares it, so the superclass's
// generated default answers for the subclass too. A direct call reaches the subclass's method.

/// Conforms, as a base view controller often does, and implements nothing.
@MainActor class BaseScrollController: UIScrollViewDelegate {
    var events: [String] = []
}

/// Implements a requirement its superclass did not: not a witness, so a proxy never calls it.
@MainActor final class LateImplementer: BaseScrollController {
    func scrollViewDidScroll(_ scrollView: UIScrollView) { events.append("didScroll") }
    func viewForZooming(in scrollView: UIScrollView) -> UIView? { zoomView }
    let zoomView = UIView()
}

/// The fix: the superclass implements the requirement (here doing nothing), and the subclass
/// overrides it, so the witness dispatches to the override.
@MainActor class ImplementingBaseController: UIScrollViewDelegate {
    var events: [String] = []
    func scrollViewDidScroll(_ scrollView: UIScrollView) {}
    func viewForZooming(in scrollView: UIScrollView) -> UIView? { nil }
}

@MainActor final class OverridingController: ImplementingBaseController {
    override func scrollViewDidScroll(_ scrollView: UIScrollView) { events.append("didScroll") }
    override func viewForZooming(in scrollView: UIScrollView) -> UIView? { zoomView }
    let zoomView = UIView()
}

@MainActor
@Suite("A subclass's method is a witness only if its superclass's conformance implements it")
struct SubclassWitnessTests {
    @Test("Implemented only in the subclass: a proxy does not reach it, a direct call does")
    func subclassOnlyIsNotReached() {
        let proxy = UIScrollViewDelegateProxy()
        let controller = LateImplementer()
        proxy.add(controller)
        let scrollView = UIScrollView()
        proxy.scrollViewDidScroll(scrollView)
        #expect(proxy.viewForZooming(in: scrollView) == nil)
        #expect(controller.events.isEmpty)
        // The generated default declined: the listener does not count as responding.
        #expect(!proxy.chain.responds(to: UIScrollViewDelegateMessages.scrollViewDidScroll))
        // Through the protocol, as any host calls it: the superclass's default, again.
        let asDelegate: any UIScrollViewDelegate = controller
        asDelegate.scrollViewDidScroll(scrollView)
        #expect(asDelegate.viewForZooming(in: scrollView) == nil)
        #expect(controller.events.isEmpty)
        // A direct call on the subclass reaches its method.
        controller.scrollViewDidScroll(scrollView)
        #expect(controller.viewForZooming(in: scrollView) === controller.zoomView)
        #expect(controller.events == ["didScroll"])
    }

    @Test("Implemented in the superclass and overridden: the proxy reaches the override")
    func overrideIsReached() {
        let proxy = UIScrollViewDelegateProxy()
        let controller = OverridingController()
        let base = ImplementingBaseController()
        proxy.add(base)
        proxy.add(controller)
        let scrollView = UIScrollView()
        proxy.scrollViewDidScroll(scrollView)
        #expect(controller.events == ["didScroll"])
        // The superclass's implementation answers too (`nil` is an answer): the first
        // implementing listener's answer wins, so the override's answer needs it first.
        #expect(proxy.viewForZooming(in: scrollView) == nil)
        proxy.remove(base)
        #expect(proxy.viewForZooming(in: scrollView) === controller.zoomView)
    }
}
#endif
