@testable import FastDelegates

/// Messages shared by the tests, declared once as users do.
enum Scroll {
    static let didScroll = Message<Int, Void>("test.scrollViewDidScroll:")
    static let willBeginDragging = Message<Void, Void>("test.scrollViewWillBeginDragging:")
    static let shouldScrollToTop = Message<Void, Bool>("test.scrollViewShouldScrollToTop:")
    static let viewForZooming = Message<Void, String?>("test.viewForZoomingInScrollView:")
    static let heightForHeader = Message<Int, Double>("test.tableView:heightForHeaderInSection:")
}

/// An ordered record of which target received what, shared by the targets of one test.
final class Log {
    var events: [String] = []
    func record(_ event: String) { events.append(event) }
}

/// A target that answers every test message by logging it; its responses are per type.
final class Probe: DelegateResponder {
    let name: String
    let log: Log
    var onScroll: ((Probe, Int) -> Void)?

    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    static let responses = SendableResponses<Probe>()
        .on(Scroll.didScroll) { me, offset in
            me.log.record("\(me.name).didScroll(\(offset))")
            me.onScroll?(me, offset)
        }
        .on(Scroll.willBeginDragging) { me in me.log.record("\(me.name).willBeginDragging") }
        .on(Scroll.viewForZooming) { me in
            me.log.record("\(me.name).viewForZooming")
            return "view of \(me.name)"
        }
        .on(Scroll.heightForHeader) { me, section in Double(me.name.count * 100 + section) }
}

/// A target that answers only what each test registers for it.
final class Plain {
    let name: String
    let log: Log
    /// The chain this target may change from inside its handlers.
    weak var chain: DelegateChain?
    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }
}

extension Responses where Target == Plain {
    /// Responds to didScroll by logging it.
    static var scrolls: Responses<Plain> {
        Responses().on(Scroll.didScroll) { me, offset in me.log.record("\(me.name).didScroll(\(offset))") }
    }
}

extension SendableResponses where Target == Plain {
    /// Responds to didScroll by logging it, with a `@Sendable` handler (for the concurrent chain).
    static var scrolls: SendableResponses<Plain> {
        SendableResponses().on(Scroll.didScroll) { me, offset in me.log.record("\(me.name).didScroll(\(offset))") }
    }
}
