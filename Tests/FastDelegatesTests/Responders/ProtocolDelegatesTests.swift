import Testing

@testable import FastDelegates

/// A delegate protocol as users already write one, adopted by final and non-final classes.
protocol TableViewDelegate: AnyObject, SendableMetatype {
    func tableViewDidScroll(_ offset: Int)
    func heightForHeader(inSection section: Int) -> Double
}

extension TableViewDelegate {
    /// The protocol's responses, declared once for every conformer.
    var responder: AnyResponder {
        AnyResponder(
            self,
            responses: Responses<Self>()
                .on(Scroll.didScroll) { me, offset in me.tableViewDidScroll(offset) }
                .on(Scroll.heightForHeader) { me, section in me.heightForHeader(inSection: section) })
    }
}

@Suite("Protocol-based delegates")
struct ProtocolDelegatesTests {
    class BaseController: TableViewDelegate {
        let log: Log
        init(log: Log) { self.log = log }
        func tableViewDidScroll(_ offset: Int) { log.record("base.didScroll(\(offset))") }
        func heightForHeader(inSection section: Int) -> Double { 10 }
    }

    final class DetailController: BaseController { // a subclass overrides
        override func tableViewDidScroll(_ offset: Int) { log.record("detail.didScroll(\(offset))") }
    }

    final class Analytics: TableViewDelegate {
        let log: Log
        init(log: Log) { self.log = log }
        func tableViewDidScroll(_ offset: Int) { log.record("analytics.didScroll(\(offset))") }
        func heightForHeader(inSection section: Int) -> Double { 99 }
    }

    @Test func conformersJoinAChainThroughTheProtocolsResponses() {
        let log = Log()
        let delegates: [any TableViewDelegate] = [
            BaseController(log: log), DetailController(log: log), Analytics(log: log),
        ]
        let chain = DelegateChain()
        for delegate in delegates { chain.add(delegate.responder) }
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["base.didScroll(1)", "detail.didScroll(1)", "analytics.didScroll(1)"])
        #expect(chain.send(Scroll.heightForHeader, 0, combining: .all) == [10, 10, 99])
        #expect(chain.count == 3)
        withExtendedLifetime(delegates) {} // held weakly: alive only while the test holds them
    }

    @Test func aTypedDelegatePropertyOnAHostKeepsSecondaries() {
        final class TableView {
            let delegates = DelegateSlot()
            var delegate: (any TableViewDelegate)? {
                get { delegates.primary as? any TableViewDelegate }
                set { delegates.setPrimary(newValue?.responder) }
            }
        }
        let log = Log()
        let table = TableView()
        let analytics = Analytics(log: log)
        table.delegates.attach(analytics.responder)
        let controller: BaseController = DetailController(log: log)
        table.delegate = controller
        #expect(table.delegate === controller)
        table.delegates.send(Scroll.didScroll, 2)
        table.delegate = nil
        table.delegates.send(Scroll.didScroll, 3)
        #expect(log.events == ["detail.didScroll(2)", "analytics.didScroll(2)", "analytics.didScroll(3)"])
        withExtendedLifetime((analytics, controller)) {}
    }
}
