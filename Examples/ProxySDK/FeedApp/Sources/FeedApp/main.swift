import ScrollKit

/// Stretches with the scroll offset.
@MainActor final class StretchyHeader {
    private(set) var height = 200.0
}

extension StretchyHeader: FeedScrollDelegate {
    func feedDidScroll(to offset: Double) { height = 200 - min(offset, 0) }
}

/// Counts scrolls, and refuses a refresh while editing.
@MainActor final class Analytics {
    private(set) var scrolls = 0
    var isEditing = false
}

extension Analytics: FeedScrollDelegate {
    func feedDidScroll(to offset: Double) { scrolls += 1 }
    func feedShouldRefresh() -> Bool { !isEditing }
}

@MainActor func runFeed() -> Bool {
    let scrollView = FeedScrollView()
    let delegates = FeedScrollDelegateProxy() // owned here: the view holds it weakly
    let header = StretchyHeader(), analytics = Analytics()
    scrollView.delegate = delegates
    delegates.add(header)
    delegates.add(analytics)

    scrollView.scroll(to: -40)
    scrollView.tapStatusBar() // nobody answers: the default, true, scrolls to the top
    analytics.isEditing = true
    let refreshes = scrollView.pullToRefresh()
    let ok = header.height == 200 && analytics.scrolls == 2 && scrollView.offset == 0 && !refreshes
    print(ok ? "FeedApp: ok" : "FeedApp: wrong (height \(header.height), scrolls \(analytics.scrolls))")
    return ok
}

if !runFeed() { fatalError("FeedApp's proxy did not forward as documented") }
