import FastDelegates

/// What a feed's table tells its delegate: everything a scroll view tells (it is one), plus rows
/// and paging. A listener of `FeedScrollDelegate` alone joins a table's proxy too.
@DelegateProxy
@MainActor public protocol FeedTableDelegate: FeedScrollDelegate {
    func tableView(didSelectRow row: Int)
    /// Whether to load the next page; the table waits for `completion`, which must be called once.
    @DelegateDefault(true)
    func tableViewShouldLoadMore(afterRow row: Int, completion: @escaping @MainActor (Bool) -> Void)
}

/// A table with one delegate, held weakly, as UI toolkits have.
@MainActor public final class FeedTableView {
    public weak var delegate: (any FeedTableDelegate)?
    public let scrollView = FeedScrollView()
    public private(set) var pagesLoaded = 0
    /// How many times the delegate completed a paging question (must be once per question).
    public private(set) var pagingAnswers = 0

    public init() {}

    /// The table's scroll view reports to the table's delegate: assign after `delegate`.
    public func connectScrollView() { scrollView.delegate = delegate }

    public func select(row: Int) { delegate?.tableView(didSelectRow: row) }

    public func reachEnd(afterRow row: Int) {
        guard let delegate else { return }
        delegate.tableViewShouldLoadMore(afterRow: row) { load in
            self.pagingAnswers += 1
            if load { self.pagesLoaded += 1 }
        }
    }
}
