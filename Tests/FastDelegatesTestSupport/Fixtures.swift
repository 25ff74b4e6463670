import FastDelegates
import Synchronization

/// Messages shared by the tests, declared once as users do.
package enum Scroll {
    package static let didScroll = Message<Int, Void>("test.scrollViewDidScroll:")
    package static let willBeginDragging = Message<Void, Void>("test.scrollViewWillBeginDragging:")
    package static let shouldScrollToTop = Message<Void, Bool>("test.scrollViewShouldScrollToTop:")
    package static let viewForZooming = Message<Void, String?>("test.viewForZoomingInScrollView:")
    package static let heightForHeader = Message<Int, Double>("test.tableView:heightForHeaderInSection:")
}

/// An ordered record of which target received what, shared by the targets of one test (and by
/// the threads that send to them: every access takes its lock).
package final class Log: Sendable {
    private let storage = HandoffMutex<[String]>([])
    /// The events recorded so far, in order.
    package var events: [String] {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    package init() {}
    package func record(_ event: String) { storage.withLock { $0.append(event) } }
}

/// A target that answers every test message by logging it; its responses are per type.
///
/// `Sendable`, so that the concurrent chain takes it, but its `onScroll` hook is a plain
/// variable for the tests' convenience (a hook may capture the test's locals).
package final class Probe: DelegateResponder, @unchecked Sendable {
    // Sound: `name` and `log` are immutable and `Sendable`; `onScroll` is written only by the
    // test's own thread while no send to the probe runs, and read by the handler on the sending
    // thread, which a test that sends from another thread starts after the write (thread start,
    // semaphore, task creation order the two).
    package let name: String
    package let log: Log
    package var onScroll: ((Probe, Int) -> Void)?

    package init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    package static let responses = SendableResponses<Probe>()
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
package final class Plain: @unchecked Sendable {
    // Sound: `name` and `log` are immutable and `Sendable`; `chain` is written by the test's own
    // thread before it sends, and read by handlers of the single-thread chain only.
    package let name: String
    package let log: Log
    /// The chain this target may change from inside its handlers.
    package weak var chain: DelegateChain?
    package init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }
}

extension Responses where Target == Plain {
    /// Responds to didScroll by logging it.
    package static var scrolls: Responses<Plain> {
        Responses().on(Scroll.didScroll) { me, offset in me.log.record("\(me.name).didScroll(\(offset))") }
    }
}

extension SendableResponses where Target == Plain {
    /// Responds to didScroll by logging it, with a `@Sendable` handler (for the concurrent chain).
    package static var scrolls: SendableResponses<Plain> {
        SendableResponses().on(Scroll.didScroll) { me, offset in me.log.record("\(me.name).didScroll(\(offset))") }
    }
}
