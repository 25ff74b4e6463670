#if Macros
import FastDelegates
import ProxyFixture
import Synchronization
import Testing

/// The values a `Sendable` listener saw, from any thread.
final class Counter: Sendable {
    private let storage = HandoffMutex<[Int]>([])
    var values: [Int] { storage.withLock { $0 } }
    func add(_ value: Int) { storage.withLock { $0.append(value) } }
}

/// A table delegate that refines the fixture module's scroll delegate, named with its module, as
/// `UITableViewDelegate` refines `UIScrollViewDelegate`.
@DelegateProxy
@MainActor protocol FeedTableDelegate: ProxyFixture.FeedScrollDelegate {
    func tableDidSelectRow(_ row: Int)
    @DelegateDefault(44.0) func heightForRow(_ row: Int) -> Double
}

/// A listener of the table's own requirements and its parent's: one registration answers both.
@MainActor final class TableListener: ScrollListener, FeedTableDelegate {
    func tableDidSelectRow(_ row: Int) { log.events.append("\(name).didSelect(\(row))") }
    func heightForRow(_ row: Int) -> Double { Double(row) * 10 }
}

/// Nonisolated: a grandparent chain (`Cell` refines `Row` refines `Section`) and a protocol with
/// two annotated parents (`Grid` refines `Row` and `Column`).
@DelegateProxy
protocol SectionDelegate: AnyObject {
    func sectionDidLoad(_ section: Int)
}

@DelegateProxy
protocol RowDelegate: SectionDelegate {
    func rowDidLoad(_ row: Int)
}

@DelegateProxy
protocol CellDelegate: RowDelegate {
    @DelegateCombining(.reduce(0, +)) func cellCount() -> Int
}

@DelegateProxy
protocol ColumnDelegate: AnyObject {
    func columnDidLoad(_ column: Int)
}

@DelegateProxy
protocol GridDelegate: RowDelegate, ColumnDelegate {
    func gridDidLoad()
}

/// Records every requirement of the nonisolated family it conforms to.
class FamilyListener {
    var events: [String] = []
    func sectionDidLoad(_ section: Int) { events.append("section \(section)") }
    func rowDidLoad(_ row: Int) { events.append("row \(row)") }
    func columnDidLoad(_ column: Int) { events.append("column \(column)") }
    func gridDidLoad() { events.append("grid") }
    func cellCount() -> Int { 3 }
}

final class SectionListener: FamilyListener, SectionDelegate {}
final class RowListener: FamilyListener, RowDelegate {}
final class CellListener: FamilyListener, CellDelegate {}
final class ColumnListener: FamilyListener, ColumnDelegate {}
final class GridListener: FamilyListener, GridDelegate {}

/// A `Sendable` parent and child: over `ConcurrentDelegateChain`.
@DelegateProxy
protocol TransferBaseDelegate: AnyObject, Sendable {
    func transferDidStart(_ id: Int)
}

@DelegateProxy
protocol UploadDelegate: TransferBaseDelegate, Sendable {
    @DelegateDefault(false) func uploadShouldRetry(_ id: Int) -> Bool
}

final class TransferListener: TransferBaseDelegate {
    let started = Counter()
    func transferDidStart(_ id: Int) { started.add(id) }
}

final class UploadListener: UploadDelegate {
    let started = Counter()
    func transferDidStart(_ id: Int) { started.add(id) }
    func uploadShouldRetry(_ id: Int) -> Bool { true }
}

@MainActor
@Suite("@DelegateProxy on protocols that refine @DelegateProxy protocols")
struct InheritanceTests {
    @Test("The child's proxy conforms to both protocols and forwards every inherited requirement")
    func childProxyForwardsInherited() {
        let log = EventLog()
        let proxy = FeedTableDelegateProxy()
        let table = TableListener("table", log: log, allowsScrollToTop: false, zoomView: "zoom")
        proxy.add(table)
        let asParent: any FeedScrollDelegate = proxy
        asParent.scrollViewDidScroll(3)
        #expect(!asParent.scrollViewShouldScrollToTop())
        #expect(asParent.viewForZooming() == "zoom")
        proxy.tableDidSelectRow(2)
        #expect(proxy.heightForRow(4) == 40)
        #expect(
            log.events == [
                "table.didScroll(3.0)", "table.shouldScrollToTop", "table.viewForZooming", "table.didSelect(2)",
            ])
        // A real host of the parent protocol, holding the child's proxy as its delegate.
        let scrollView = FeedScrollView()
        scrollView.delegate = proxy
        scrollView.scroll(to: 7)
        #expect(log.events.last == "table.didScroll(7.0)")
        #expect(proxy.chain.count == 1)
    }

    @Test("A listener of the parent joins the child's proxy and receives the parent's messages")
    func parentListenerJoins() {
        let log = EventLog()
        let proxy = FeedTableDelegateProxy()
        let scroller = ScrollListener("scroller", log: log)
        let table = TableListener("table", log: log)
        proxy.add(scroller)
        proxy.add(table)
        proxy.scrollViewDidScroll(1)
        proxy.tableDidSelectRow(5)
        #expect(proxy.heightForRow(1) == 10)
        #expect(log.events == ["scroller.didScroll(1.0)", "table.didScroll(1.0)", "table.didSelect(5)"])
        #expect(proxy.remove(scroller))
        proxy.scrollViewDidScroll(2)
        #expect(log.events.last == "table.didScroll(2.0)")
        #expect(proxy.chain.count == 1)
    }

    @Test("Without listeners, the child's proxy answers its defaults, inherited ones included")
    func defaults() {
        let proxy = FeedTableDelegateProxy()
        #expect(proxy.heightForRow(3) == 44)
        #expect(proxy.scrollViewShouldScrollToTop())
        #expect(proxy.viewForZooming() == nil)
        #expect(proxy.scrollViewShouldBeginEditing())
    }

    @Test("A child listener's responder carries every handler: on any dispatcher")
    func childResponderHasEveryHandler() {
        let log = EventLog()
        let table = TableListener("table", log: log)
        let chain = DelegateChain()
        chain.add(table.feedTableDelegateResponder)
        chain.send(FeedScrollDelegateMessages.scrollViewDidScroll, 9)
        chain.send(FeedTableDelegateMessages.tableDidSelectRow, 1)
        #expect(log.events == ["table.didScroll(9.0)", "table.didSelect(1)"])
        #expect(TableListener.feedTableDelegateResponses.count == 6)
        #expect(TableListener.feedScrollDelegateResponses.count == 4)
    }

    @Test("A grandparent chain: every ancestor's requirements, and listeners of each ancestor")
    func grandparents() {
        let proxy = CellDelegateProxy()
        let section = SectionListener()
        let row = RowListener()
        let cell = CellListener()
        proxy.add(section)
        proxy.add(row)
        proxy.add(cell)
        proxy.sectionDidLoad(1)
        proxy.rowDidLoad(2)
        #expect(proxy.cellCount() == 3)
        #expect(section.events == ["section 1"])
        #expect(row.events == ["section 1", "row 2"])
        #expect(cell.events == ["section 1", "row 2"])
        let asSection: any SectionDelegate = proxy
        asSection.sectionDidLoad(4)
        #expect(section.events.last == "section 4")
    }

    @Test("Two annotated parents: both forwarded, listeners of either join")
    func twoParents() {
        let proxy = GridDelegateProxy()
        let row = RowListener()
        let column = ColumnListener()
        let grid = GridListener()
        proxy.add(row)
        proxy.add(column)
        proxy.add(grid)
        proxy.sectionDidLoad(0)
        proxy.rowDidLoad(1)
        proxy.columnDidLoad(2)
        proxy.gridDidLoad()
        #expect(row.events == ["section 0", "row 1"])
        #expect(column.events == ["column 2"])
        #expect(grid.events == ["section 0", "row 1", "column 2", "grid"])
    }

    @Test("A child listener added as its parent answers only the parent's requirements")
    func childListenerAsParent() {
        let proxy = CellDelegateProxy()
        let cell = CellListener()
        let asRow: any RowDelegate = cell
        proxy.add(asRow)
        proxy.rowDidLoad(1)
        #expect(proxy.cellCount() == 0)
        #expect(cell.events == ["row 1"])
        // Its own class, added as the child, still gets every handler: kept apart in the cache.
        let other = CellListener()
        proxy.add(other)
        #expect(proxy.cellCount() == 3)
    }

    @Test("A Sendable parent and child: a listener of each, over ConcurrentDelegateChain")
    func sendableFamily() {
        let proxy = UploadDelegateProxy()
        let transfer = TransferListener()
        let upload = UploadListener()
        proxy.add(transfer)
        proxy.add(upload)
        proxy.transferDidStart(8)
        #expect(proxy.uploadShouldRetry(8))
        #expect(transfer.started.values == [8])
        #expect(upload.started.values == [8])
        let forwarding: any FastDelegates.ConcurrentDelegateForwarding = proxy
        #expect(forwarding.forwardingChain.count == 2)
    }
}
#endif
