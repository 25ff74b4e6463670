import FastDelegates

// The delegate protocol of <doc:ProtocolDelegates>, with its responses declared once.

@MainActor protocol ScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
    func scrollViewShouldScrollToTop() -> Bool
}

extension ScrollViewDelegate {
    var responder: AnyResponder {
        AnyResponder(
            self,
            responses: Responses<Self>()
                .on(Scroll.didScroll) { me, offset in me.scrollViewDidScroll(offset) }
                .on(Scroll.shouldScrollToTop) { me in me.scrollViewShouldScrollToTop() })
    }
}

@MainActor final class ScrollController: ScrollViewDelegate {
    func scrollViewDidScroll(_ offset: Double) {}
    func scrollViewShouldScrollToTop() -> Bool { true }
}
