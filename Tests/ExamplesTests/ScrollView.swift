import FastDelegates

// The host type the examples build each seed's scenario on: a @MainActor UI toolkit in
// miniature, as Swift 6 app code sees UIKit. A scroll view whose `delegate` is the primary of a
// delegate slot (so others can listen too), and a @MainActor delegate protocol whose responses
// are declared once, in a protocol extension (the `responder` form).

enum ScrollMessages {
    static let didScroll = Message<Double, Void>("adoption.scrollView.didScroll:")
    static let willBeginDragging = Message<Void, Void>("adoption.scrollView.willBeginDragging:")
    static let shouldScrollToTop = Message<Void, Bool>("adoption.scrollView.shouldScrollToTop:")
    static let viewForZooming = Message<Void, String?>("adoption.scrollView.viewForZooming:")
}

@MainActor protocol ScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
    func scrollViewWillBeginDragging()
    func scrollViewShouldScrollToTop() -> Bool
}

extension ScrollViewDelegate {
    func scrollViewDidScroll(_ offset: Double) {}
    func scrollViewWillBeginDragging() {}
    func scrollViewShouldScrollToTop() -> Bool { true }

    /// The protocol's responses, for every conformer. The handlers call main-actor methods
    /// directly: the extension, and so each closure, is isolated to the main actor.
    var responder: AnyResponder {
        AnyResponder(
            self,
            responses: Responses<Self>()
                .on(ScrollMessages.didScroll) { me, offset in me.scrollViewDidScroll(offset) }
                .on(ScrollMessages.willBeginDragging) { me in me.scrollViewWillBeginDragging() }
                .on(ScrollMessages.shouldScrollToTop) { me in me.scrollViewShouldScrollToTop() })
    }
}

@MainActor final class ScrollView {
    let delegates = DelegateSlot()
    private(set) var offset = 0.0

    weak var delegate: (any ScrollViewDelegate)? {
        get { delegates.primary as? any ScrollViewDelegate }
        set { delegates.setPrimary(newValue?.responder) }
    }

    func drag(to offsets: [Double]) {
        delegates.send(ScrollMessages.willBeginDragging)
        for offset in offsets {
            self.offset = offset
            delegates.send(ScrollMessages.didScroll, offset)
        }
    }

    func tapStatusBar() {
        if delegates.send(ScrollMessages.shouldScrollToTop, combining: .allTrue) {
            offset = 0
            delegates.send(ScrollMessages.didScroll, 0)
        }
    }
}
