#if Macros
import CDispatchTable
import FastDelegates
import ProxyFixture
import Synchronization
import Testing

/// Implements only the progress requirement of `TransferDelegate`.
final class ProgressCounter: TransferDelegate {
    let sent = Atomic<Int>(0)
    func transfer(_ id: Int, didSend bytes: Int) { sent.wrappingAdd(bytes, ordering: .relaxed) }
}

/// Implements only the queries and the start decision.
final class TransferPlanner: TransferDelegate {
    let starts = Atomic<Int>(0)
    let disposition: TransferDisposition
    init(disposition: TransferDisposition) { self.disposition = disposition }
    func destination(for id: Int) -> String? { "dest-\(id)" }
    func retryLimit(for id: Int) -> Int { 9 }
    func reservedBytes() -> Int { 5 }
    func transfer(_ id: Int, willStart completionHandler: @escaping @Sendable (TransferDisposition) -> Void) {
        starts.wrappingAdd(1, ordering: .relaxed)
        completionHandler(disposition)
    }
}

/// Collects what a completion handler was called with, from any thread.
final class Completions: Sendable {
    private let count = Atomic<Int>(0)
    private let waits = Atomic<Int>(0)
    var calls: Int { count.load(ordering: .relaxed) }
    var waitCalls: Int { waits.load(ordering: .relaxed) }
    func record(_ disposition: TransferDisposition) {
        count.wrappingAdd(1, ordering: .relaxed)
        if disposition == .wait { waits.wrappingAdd(1, ordering: .relaxed) }
    }
}

@Suite("Optional requirements of a Sendable @DelegateProxy protocol")
struct SendableOptionalRequirementTests {
    @Test("Only implementers count; defaults without them; a decliner is asked once")
    func implementersOnly() {
        let proxy = TransferDelegateProxy()
        let counter = ProgressCounter()
        proxy.add(counter)
        #expect(proxy.destination(for: 1) == nil)
        #expect(proxy.retryLimit(for: 1) == 3)
        #expect(proxy.reservedBytes() == 0)
        let planner = TransferPlanner(disposition: .wait)
        proxy.add(planner)
        let before = cdt_decline_debug_claim_calls()
        for id in 0..<5 {
            #expect(proxy.destination(for: id) == "dest-\(id)")
            #expect(proxy.retryLimit(for: id) == 9)
            #expect(proxy.reservedBytes() == 5)
            proxy.transfer(id, didSend: 2)
        }
        // `counter` declined each query once already; `planner` declined the progress once.
        #expect(cdt_decline_debug_claim_calls() - before == 1)
        #expect(counter.sent.load(ordering: .relaxed) == 10)
        // The decliners' handlers left their registrations: only `planner` responds.
        #expect(proxy.chain.responds(to: TransferDelegateMessages.destinationFor))
        proxy.remove(planner)
        #expect(!proxy.chain.responds(to: TransferDelegateMessages.destinationFor))
    }

    @Test(
        "A completion handler: completed once with the default, or once by the first implementer",
        arguments: [ConcurrentDelegateChain.Mode.nonBreaking, .breaking])
    func completionOnce(mode: ConcurrentDelegateChain.Mode) {
        let proxy = TransferDelegateProxy(mode: mode)
        let counter = ProgressCounter()
        proxy.add(counter)
        let none = Completions()
        proxy.transfer(1, willStart: none.record)
        #expect(none.calls == 1 && none.waitCalls == 0)
        let first = TransferPlanner(disposition: .wait), second = TransferPlanner(disposition: .proceed)
        proxy.add(first)
        proxy.add(second)
        let taken = Completions()
        for id in 0..<3 { proxy.transfer(id, willStart: taken.record) }
        #expect(taken.calls == 3 && taken.waitCalls == 3)
        #expect(first.starts.load(ordering: .relaxed) == 3 && second.starts.load(ordering: .relaxed) == 0)
    }

    @Test("Sends from several tasks: each completion handler is called exactly once")
    func severalTasks() async {
        let proxy = TransferDelegateProxy()
        let counter = ProgressCounter(), planner = TransferPlanner(disposition: .proceed)
        proxy.add(counter)
        proxy.add(planner)
        let completions = Completions()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for send in 0..<500 {
                        proxy.transfer(task * 500 + send, willStart: completions.record)
                        proxy.transfer(task, didSend: 1)
                    }
                }
            }
        }
        #expect(completions.calls == 2_000)
        #expect(planner.starts.load(ordering: .relaxed) == 2_000)
        #expect(counter.sent.load(ordering: .relaxed) == 2_000)
    }
}
#endif
