import FastDelegates

// The messages the articles send, as an app declares them.

@MainActor final class View {}

enum Scroll {
    static let didScroll = Message<Double, Void>("scrollViewDidScroll:")
    static let shouldScrollToTop = Message<Void, Bool>("scrollViewShouldScrollToTop:")
    static let viewForZooming = Message<Void, View?>("viewForZoomingInScrollView:")
}

enum Editor {
    static let canPerform = Message<String, Bool>("canPerformAction:")
}

enum Table {
    static let heightForRow = Message<Int, Double>("tableView:heightForRowAt:")
    static let numberOfRows = Message<Int, Int>("tableView:numberOfRowsInSection:")
}

enum Tab {
    static let badgeCount = Message<Void, Int>("badgeCount")
}

@MainActor func show(_ view: View) {}
