import FastDelegates

// A small host type, as a UI toolkit would have it: a scroll view with one `delegate` property
// and a typed delegate protocol. The examples build each seed's scenario on it.

/// The messages a scroll view sends, declared once.
enum ScrollMessages {
    static let didScroll = Message<Double, Void>("example.scrollViewDidScroll:")
    static let willBeginDragging = Message<Void, Void>("example.scrollViewWillBeginDragging:")
    static let shouldScrollToTop = Message<Void, Bool>("example.scrollViewShouldScrollToTop:")
    static let viewForZooming = Message<Void, String?>("example.viewForZoomingInScrollView:")
}

/// The delegate protocol users implement.
protocol ScrollViewDelegate: AnyObject, SendableMetatype {
    func scrollViewDidScroll(_ offset: Double)
    func scrollViewWillBeginDragging()
    func scrollViewShouldScrollToTop() -> Bool
}

extension ScrollViewDelegate {
    /// Every method has a default, like an Objective-C protocol's optional methods.
    func scrollViewDidScroll(_ offset: Double) {}
    func scrollViewWillBeginDragging() {}
    func scrollViewShouldScrollToTop() -> Bool { true }

    /// The protocol's responses, declared once for every conformer.
    var responder: AnyResponder {
        AnyResponder(
            self,
            responses: Responses<Self>()
                .on(ScrollMessages.didScroll) { me, offset in me.scrollViewDidScroll(offset) }
                .on(ScrollMessages.willBeginDragging) { me in me.scrollViewWillBeginDragging() }
                .on(ScrollMessages.shouldScrollToTop) { me in me.scrollViewShouldScrollToTop() })
    }
}

/// A scroll view whose `delegate` is the primary of a delegate slot, so others can listen too.
final class ScrollView {
    let delegates = DelegateSlot()
    private(set) var offset = 0.0

    weak var delegate: (any ScrollViewDelegate)? {
        get { delegates.primary as? any ScrollViewDelegate }
        set { delegates.setPrimary(newValue?.responder) }
    }

    /// What a user's drag does: the delegates hear of it, then of each offset.
    func drag(to offsets: [Double]) {
        delegates.send(ScrollMessages.willBeginDragging)
        for offset in offsets {
            self.offset = offset
            delegates.send(ScrollMessages.didScroll, offset)
        }
    }

    /// A tap on the status bar scrolls to the top only if every delegate agrees.
    func tapStatusBar() {
        if delegates.send(ScrollMessages.shouldScrollToTop, combining: .allTrue) {
            offset = 0
            delegates.send(ScrollMessages.didScroll, 0)
        }
    }
}
