#if Macros
import AppleDelegates
import FastDelegates
import Foundation
import Testing

// MARK: Listeners (each implements only a few requirements)

/// A sticky header: follows the offset, nothing else.
@MainActor final class StickyHeader: UIScrollViewDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        log.record("header.didScroll(\(scrollView.contentOffset.y))")
    }
}

/// Zooms its image view: implements only `viewForZooming(in:)`.
@MainActor final class ZoomingListener: UIScrollViewDelegate {
    let imageView = UIView()
    func viewForZooming(in scrollView: UIScrollView) -> UIView? { imageView }
}

/// Analytics: counts scrolls and selections, answers nothing.
@MainActor final class TableAnalytics: UITableViewDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func scrollViewDidScroll(_ scrollView: UIScrollView) { log.record("analytics.didScroll") }
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        log.record("analytics.didSelect(\(indexPath.row))")
    }
}

/// Redirects selection of section headers' first rows to the next row; refuses row 99.
@MainActor final class SelectionPolicy: UITableViewDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        log.record("policy.willSelect(\(indexPath.row))")
        if indexPath.row == 99 { return nil }
        return indexPath.row == 0 ? IndexPath(row: 1, section: indexPath.section) : indexPath
    }
}

/// A second policy that would select row 7 whatever is proposed: must not be asked when the first answers.
@MainActor final class OtherSelectionPolicy: UITableViewDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        log.record("other.willSelect(\(indexPath.row))")
        return IndexPath(row: 7, section: indexPath.section)
    }
}

/// Makes rows insertable instead of deletable.
@MainActor final class InsertingEditor: UITableViewDelegate {
    func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle
    {
        .insert
    }
}

// MARK: Host stand-ins: call the delegate as UIKit does

extension UIScrollView {
    func scroll(toY y: CGFloat) {
        contentOffset = CGPoint(x: 0, y: y)
        delegate?.scrollViewDidScroll(self)
    }

    /// A tap on the status bar: asks, then scrolls to the top.
    func tapStatusBar() {
        if delegate?.scrollViewShouldScrollToTop(self) ?? true {
            scroll(toY: 0)
            delegate?.scrollViewDidScrollToTop(self)
        }
    }

    func zoomedView() -> UIView? { delegate?.viewForZooming(in: self) }

    /// UIKit lets the delegate move the target offset of a fling.
    func endDragging(velocity: CGPoint, target: CGPoint) -> CGPoint {
        var target = target
        delegate?.scrollViewWillEndDragging(self, withVelocity: velocity, targetContentOffset: &target)
        return target
    }
}

extension UITableView {
    /// A tap on a row: asks `tableView(_:willSelectRowAt:)` and selects what it returns (nothing for `nil`).
    func selectRow(_ indexPath: IndexPath) {
        guard let delegate = tableDelegate else {
            setSelectedRow(indexPath)
            return
        }
        guard let target = delegate.tableView(self, willSelectRowAt: indexPath) else { return }
        setSelectedRow(target)
        delegate.tableView(self, didSelectRowAt: target)
    }

    func editingStyle(forRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
        tableDelegate?.tableView(self, editingStyleForRowAt: indexPath) ?? .delete
    }

    func moveTarget(from source: IndexPath, proposed: IndexPath) -> IndexPath {
        tableDelegate?.tableView(self, targetIndexPathForMoveFromRowAt: source, toProposedIndexPath: proposed)
            ?? proposed
    }
}

// MARK: Tests

@MainActor
@Suite("UIScrollViewDelegate and UITableViewDelegate proxies")
struct UIScrollViewAndTableViewTests {
    @Test("A scroll-only listener on a UITableViewDelegate proxy receives the parent's messages")
    func parentOnlyListenerOnChildProxy() {
        let log = EventLog()
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        let header = StickyHeader(log: log) // conforms to UIScrollViewDelegate only
        proxy.add(header)
        let analytics = TableAnalytics(log: log)
        proxy.add(analytics)
        tableView.scroll(toY: 40)
        #expect(log.events == ["header.didScroll(40.0)", "analytics.didScroll"])
    }

    @Test("Only the zooming listener answers viewForZooming(in:); with none the answer is nil")
    func zooming() {
        let scrollView = UIScrollView()
        let proxy = UIScrollViewDelegateProxy()
        scrollView.delegate = proxy
        let header = StickyHeader(log: EventLog())
        proxy.add(header)
        #expect(scrollView.zoomedView() == nil)
        #expect(!proxy.chain.responds(to: UIScrollViewDelegateMessages.viewForZoomingIn))
        let zooming = ZoomingListener()
        proxy.add(zooming)
        #expect(scrollView.zoomedView() === zooming.imageView)
        #expect(proxy.chain.responds(to: UIScrollViewDelegateMessages.viewForZoomingIn))
    }

    @Test("scrollViewShouldScrollToTop: @DelegateDefault(true) with no listener")
    func shouldScrollToTopDefault() {
        let scrollView = UIScrollView()
        let proxy = UIScrollViewDelegateProxy()
        scrollView.delegate = proxy
        scrollView.contentOffset = CGPoint(x: 0, y: 500)
        scrollView.tapStatusBar()
        #expect(scrollView.contentOffset.y == 0)
        #expect(!proxy.chain.responds(to: UIScrollViewDelegateMessages.scrollViewShouldScrollToTop))
    }

    @Test("The UnsafeMutablePointer target offset passes through; no listener leaves it unchanged")
    func targetContentOffset() {
        let scrollView = UIScrollView()
        let proxy = UIScrollViewDelegateProxy()
        scrollView.delegate = proxy
        #expect(scrollView.endDragging(velocity: CGPoint(x: 0, y: 2), target: CGPoint(x: 0, y: 300)).y == 300)
    }

    @Test("@DelegateDefault(parameter: \"indexPath\"): with no listener the proposed row is selected")
    func willSelectDefaultIsTheParameter() {
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        tableView.selectRow(IndexPath(row: 3, section: 0))
        #expect(tableView.indexPathForSelectedRow == IndexPath(row: 3, section: 0))
        #expect(!proxy.chain.responds(to: UITableViewDelegateMessages.tableViewWillSelectRowAt))
    }

    @Test("A listener that does not implement willSelectRowAt leaves the parameter default in place")
    func willSelectDefaultWithNonImplementingListener() {
        let log = EventLog()
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        let analytics = TableAnalytics(log: log)
        proxy.add(analytics)
        tableView.selectRow(IndexPath(row: 2, section: 1))
        #expect(tableView.indexPathForSelectedRow == IndexPath(row: 2, section: 1))
        #expect(log.events == ["analytics.didSelect(2)"])
    }

    @Test("willSelectRowAt: the first implementing listener answers; later ones are not asked")
    func willSelectFirstImplementerAnswers() {
        let log = EventLog()
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        let analytics = TableAnalytics(log: log), policy = SelectionPolicy(log: log)
        let other = OtherSelectionPolicy(log: log)
        proxy.add(analytics) // does not implement the query: skipped
        proxy.add(policy)
        proxy.add(other)
        tableView.selectRow(IndexPath(row: 0, section: 0))
        #expect(tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        #expect(log.events == ["policy.willSelect(0)", "analytics.didSelect(1)"])
        #expect(proxy.chain.responds(to: UITableViewDelegateMessages.tableViewWillSelectRowAt))
    }

    @Test("willSelectRowAt answered nil by a listener: nothing is selected (nil is an answer, not 'nobody')")
    func willSelectNilIsAnAnswer() {
        let log = EventLog()
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        let policy = SelectionPolicy(log: log)
        proxy.add(policy)
        tableView.selectRow(IndexPath(row: 99, section: 0))
        #expect(tableView.indexPathForSelectedRow == nil)
    }

    @Test("editingStyleForRowAt: .delete with no listener, the listener's answer otherwise")
    func editingStyle() {
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        #expect(tableView.editingStyle(forRowAt: IndexPath(row: 0, section: 0)) == .delete)
        let editor = InsertingEditor()
        proxy.add(editor)
        #expect(tableView.editingStyle(forRowAt: IndexPath(row: 0, section: 0)) == .insert)
    }

    @Test("targetIndexPathForMove: @DelegateDefault(parameter: \"proposedDestinationIndexPath\")")
    func moveTargetDefault() {
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        let proposed = IndexPath(row: 5, section: 2)
        #expect(tableView.moveTarget(from: IndexPath(row: 0, section: 0), proposed: proposed) == proposed)
    }

    @Test("Listeners are held weakly")
    func weakListeners() {
        let log = EventLog()
        let tableView = UITableView()
        let proxy = UITableViewDelegateProxy()
        tableView.delegate = proxy
        do {
            let header = StickyHeader(log: log)
            proxy.add(header)
        }
        tableView.scroll(toY: 1)
        #expect(log.events.isEmpty)
    }
}
#endif
