import FastDelegates
import FeedKit
import Synchronization

// An app as a new user writes it: the proxies go into the hosts' delegate slots, and every
// listener joins in one line. Exits non-zero if any behaviour is not what the docs say.

// Listeners implement only the requirements they need.
@MainActor final class StretchyHeader: FeedScrollDelegate {
    private(set) var height = 200.0
    func scrollViewDidScroll(_ offset: Double) { height = 200 - min(offset, 0) }
    func scrollViewDidEndDragging(willDecelerate decelerate: Bool) { if !decelerate { height = 200 } }
}

@MainActor final class FeedViewController: FeedScrollDelegate {
    let scrollView = FeedScrollView()
    let scrollDelegates = FeedScrollDelegateProxy()
    let header = StretchyHeader()
    var scrolls: [Double] = [] // plain state: no Sendable needed
    var drags: [Bool] = []
    var isEditing = false

    func viewDidLoad() {
        scrollView.delegate = scrollDelegates
        scrollDelegates.add(self)
        scrollDelegates.add(header)
    }

    func scrollViewDidScroll(_ offset: Double) { scrolls.append(offset) }
    func scrollViewDidEndDragging(willDecelerate decelerate: Bool) { drags.append(decelerate) }
    func scrollViewShouldScrollToTop() -> Bool { !isEditing }
    func viewForZooming() -> String? { "feed" }
    func scrollViewShouldBeginEditing() -> Bool { !isEditing }
}

final class ProgressBar: DownloadDelegate {
    let received = Atomic<Int>(0)
    func download(_ id: Int, didReceive bytes: Int) { received.add(bytes, ordering: .relaxed) }
}

final class Retrier: DownloadDelegate {
    func shouldRetry(_ id: Int) -> Bool { true }
}

/// Counts selections; implements nothing else.
@MainActor final class TableAnalytics: FeedTableDelegate {
    private(set) var selected: [Int] = []
    func tableView(didSelectRow row: Int) { selected.append(row) }
}

/// Decides paging: stops after row 100.
@MainActor final class Pager: FeedTableDelegate {
    private(set) var asked = 0
    func tableViewShouldLoadMore(afterRow row: Int, completion: @escaping @MainActor (Bool) -> Void) {
        asked += 1
        completion(row < 100)
    }
}

var failures = 0
@MainActor func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok   \(what)" : "FAIL \(what)")
    if !condition { failures += 1 }
}

let controller = FeedViewController()
controller.viewDidLoad()
controller.scrollView.scroll(to: -40)
check(controller.scrolls == [-40] && controller.header.height == 240, "a scroll reaches every listener")
controller.scrollView.endDragging(decelerating: false)
check(controller.drags == [false] && controller.header.height == 200, "a labelled requirement reaches every listener")
controller.isEditing = true
controller.scrollView.tapStatusBar()
check(controller.scrollView.offset == -40, "the first listener's answer: no scroll to top while editing")
check(controller.scrollView.zoomedView == "feed", "the first listener's view for zooming")
check(!controller.scrollView.tapToEdit(), "every listener has a say in should-begin-editing")
controller.scrollDelegates.remove(controller)
controller.scrollView.tapStatusBar()
check(controller.scrollView.offset == 0, "after removal, the remaining listener answers")

let downloader = Downloader()
let downloads = DownloadDelegateProxy()
downloader.delegate = downloads
let bar = ProgressBar(), otherBar = ProgressBar()
downloads.add(bar)
downloads.add(otherBar)
await downloader.download(1, chunks: 1000, threads: 4)
check(
    bar.received.load(ordering: .relaxed) == 4000 && otherBar.received.load(ordering: .relaxed) == 4000,
    "4 threads' progress reaches both listeners")
await withTaskGroup(of: Void.self) { group in // listeners join and leave while others send
    group.addTask { await downloader.download(2, chunks: 1000, threads: 2) }
    group.addTask {
        for _ in 0..<100 {
            let transient = ProgressBar()
            downloads.add(transient)
            downloads.remove(transient)
        }
    }
}
check(bar.received.load(ordering: .relaxed) == 6000, "sends while listeners join and leave reach the steady one")
check(downloads.shouldRetry(1) == false, "no progress bar implements shouldRetry: the default")
downloads.add(Retrier()) // held weakly: gone at once, so still the default
check(downloads.shouldRetry(1) == false, "a released listener does not answer")
let retrier = Retrier()
downloads.add(retrier)
check(downloads.shouldRetry(1), "the first listener that implements shouldRetry answers")
check(DownloadDelegateProxy().shouldRetry(1) == false, "the default when nobody listens")

// A table: its protocol refines the scroll view's, and paging ends in a completion handler.
let table = FeedTableView()
let tableDelegates = FeedTableDelegateProxy()
table.delegate = tableDelegates
table.connectScrollView()
table.reachEnd(afterRow: 10)
check(table.pagingAnswers == 1 && table.pagesLoaded == 1, "no listener: the proxy completes once, with the default")
let tableHeader = StretchyHeader(), analytics = TableAnalytics(), pager = Pager(), otherPager = Pager()
tableDelegates.add(tableHeader) // a listener of the parent protocol only
tableDelegates.add(analytics)
tableDelegates.add(pager)
tableDelegates.add(otherPager)
table.scrollView.scroll(to: -10)
check(tableHeader.height == 210, "a parent-only listener on the child's proxy hears the parent's messages")
table.select(row: 3)
check(analytics.selected == [3], "a child listener hears the child's messages")
table.reachEnd(afterRow: 200)
check(
    table.pagingAnswers == 2 && table.pagesLoaded == 1 && pager.asked == 1 && otherPager.asked == 0,
    "two pagers: the completion handler goes to the first only, and is called once")
check(
    tableDelegates.chain.responds(to: FeedTableDelegateMessages.tableViewShouldLoadMoreAfterRowCompletion),
    "the pager responds to paging")

print(failures == 0 ? "FeedApp: all checks passed" : "FeedApp: \(failures) checks failed")
if failures != 0 { fatalError("FeedApp: \(failures) checks failed") }
