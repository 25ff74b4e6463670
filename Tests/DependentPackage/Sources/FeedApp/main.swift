import FastDelegates
import FeedKit
import Synchronization

// An app as a new user writes it: the proxies go into the hosts' delegate slots, and every
// listener joins in one line. Exits non-zero if any behaviour is not what the docs say.

@MainActor final class StretchyHeader: FeedScrollDelegate {
    private(set) var height = 200.0
    func scrollViewDidScroll(_ offset: Double) { height = 200 - min(offset, 0) }
    func scrollViewDidEndDragging(willDecelerate decelerate: Bool) { if !decelerate { height = 200 } }
    func scrollViewShouldScrollToTop() -> Bool { true }
    func viewForZooming() -> String? { nil }
    func scrollViewShouldBeginEditing() -> Bool { true }
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
    func shouldRetry(_ id: Int) -> Bool { true }
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
check(downloads.shouldRetry(1), "the Sendable proxy answers")
check(DownloadDelegateProxy().shouldRetry(1) == false, "the default when nobody listens")

print(failures == 0 ? "FeedApp: all checks passed" : "FeedApp: \(failures) checks failed")
if failures != 0 { fatalError("FeedApp: \(failures) checks failed") }
