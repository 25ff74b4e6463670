#if Macros
import Dispatch
import FastDelegates
import Synchronization
import Testing

/// A library's `Sendable` delegate protocol: its proxy runs over a `ConcurrentDelegateChain`.
@DelegateProxy
protocol SyncDelegate: AnyObject, Sendable {
    func didSync(_ count: Int)
    func title(for feed: String) -> String?
    @DelegateDefault(-1) func pageSize(for feed: String) -> Int
    /// The bytes reserved, plus one per listener that answers.
    @DelegateCombining(.reduce(0) { total, bytes in total + bytes + 1 }) func reservedBytes() -> Int
    func prepare(_ feed: String) async
}

/// A nonisolated protocol whose proxy is concurrent on request.
@DelegateProxy(concurrent: true)
protocol PingDelegate: AnyObject {
    @DelegateDefault(-1) func ping(_ value: Int) -> Int
}

/// The events listeners record, from any thread.
final class SyncLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ event: String) { storage.withLock { $0.append(event) } }
    var events: [String] { storage.withLock { $0 } }
}

/// A `SyncDelegate` listener that implements what it is given answers for (and `didSync`,
/// `prepare`).
final class SyncListener: SyncDelegate {
    let name: String
    let log: SyncLog
    let size: Int?
    let heading: String?
    let bytes: Int?
    init(_ name: String, log: SyncLog, size: Int? = nil, title: String? = nil, bytes: Int? = nil) {
        self.name = name
        self.log = log
        self.size = size
        heading = title
        self.bytes = bytes
    }
    func didSync(_ count: Int) { log.append("\(name) sync \(count)") }
    func title(for feed: String) -> String? { heading }
    func pageSize(for feed: String) -> Int { size ?? -1 }
    func reservedBytes() -> Int { bytes ?? 0 }
    func prepare(_ feed: String) async {
        log.append("\(name) prepare start")
        await Task.yield()
        log.append("\(name) prepare end")
    }
}

/// Listens to `didSync` only: implements no requirement with an answer.
final class SyncWatcher: SyncDelegate {
    let log: SyncLog
    init(log: SyncLog) { self.log = log }
    func didSync(_ count: Int) { log.append("watcher sync \(count)") }
}

/// Prepares, and implements nothing else.
final class SyncPreparer: SyncDelegate {
    let name: String
    let log: SyncLog
    init(_ name: String, log: SyncLog) {
        self.name = name
        self.log = log
    }
    func prepare(_ feed: String) async {
        log.append("\(name) prepare start")
        await Task.yield()
        log.append("\(name) prepare end")
    }
}

/// Answers the page size alone.
final class PageSizer: SyncDelegate {
    let size: Int
    init(size: Int) { self.size = size }
    func pageSize(for feed: String) -> Int { size }
}

/// Prepares, waiting at a gate the test opens.
final class GatedPreparer: SyncDelegate {
    let log: SyncLog
    let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
    init(log: SyncLog) { self.log = log }
    func prepare(_ feed: String) async {
        log.append("gated prepare start")
        await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
        log.append("gated prepare end")
    }
    /// Whether the call waits at the gate.
    var isWaiting: Bool { gate.withLock { $0 != nil } }
    func open() { gate.withLock { $0.take() }?.resume() }
}

/// Removes a proxy from another when it syncs or prepares.
final class SyncRemover: SyncDelegate {
    let log: SyncLog
    let removal: @Sendable () -> Void
    init(log: SyncLog, removing inner: SyncDelegateProxy, from outer: SyncDelegateProxy) {
        self.log = log
        removal = { outer.remove(inner) }
    }
    init(log: SyncLog, removal: @escaping @Sendable () -> Void) {
        self.log = log
        self.removal = removal
    }
    func didSync(_ count: Int) {
        log.append("remover sync \(count)")
        removal()
    }
    func prepare(_ feed: String) async {
        log.append("remover prepare")
        removal()
    }
}

/// A flag closures share.
final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

final class Ponger: PingDelegate, Sendable {
    let offset: Int
    init(offset: Int) { self.offset = offset }
    func ping(_ value: Int) -> Int { value + offset }
}

/// A `Sendable` proxy added as a listener of another flattens as a `@MainActor` one does: its
/// listeners answer in its place, at the time of the call, from any thread.
@Suite("Nested concurrent proxies")
struct NestedConcurrentProxiesTests {
    @Test func anInnerProxyWithoutAnImplementerIsPassedBy() {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let watcher = SyncWatcher(log: log)
        let next = SyncListener("next", log: log, size: 7, title: "eight")
        inner.add(watcher)
        outer.add(inner)
        outer.add(next)
        // Without nesting, the inner proxy answered its default (-1) and nil, and stopped the walk.
        #expect(outer.pageSize(for: "feed") == 7)
        #expect(outer.title(for: "feed") == "eight")
        outer.didSync(3)
        #expect(log.events == ["watcher sync 3", "next sync 3"])
        #expect(outer.chain.responds(to: SyncDelegateMessages.pageSizeFor))
        withExtendedLifetime((inner, watcher, next)) {}
    }

    @Test func anInnerProxyAnswersAsItsListenersDoAtTheTimeOfTheCall() {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let next = SyncListener("next", log: log, size: 7)
        outer.add(inner)
        outer.add(next)
        #expect(outer.pageSize(for: "feed") == 7)
        let sizer = PageSizer(size: 5)
        inner.add(sizer)
        #expect(outer.pageSize(for: "feed") == 5)
        inner.remove(sizer)
        #expect(outer.pageSize(for: "feed") == 7)
        // With no listener anywhere, the outer proxy's default, and the outer chain does not respond.
        let lonely = SyncDelegateProxy()
        lonely.add(inner)
        #expect(lonely.pageSize(for: "feed") == -1)
        #expect(lonely.title(for: "feed") == nil)
        #expect(!lonely.chain.responds(to: SyncDelegateMessages.pageSizeFor))
        inner.add(sizer)
        #expect(lonely.chain.responds(to: SyncDelegateMessages.pageSizeFor))
        withExtendedLifetime((inner, next, sizer)) {}
    }

    @Test func aBreakingOuterProxyStopsAtTheFirstImplementerInside() {
        let log = SyncLog()
        let outer = SyncDelegateProxy(mode: .breaking)
        let inner = SyncDelegateProxy()
        let first = SyncListener("first", log: log)
        let second = SyncListener("second", log: log)
        outer.add(inner)
        outer.add(second)
        outer.didSync(1)
        inner.add(first)
        outer.didSync(2)
        #expect(log.events == ["second sync 1", "first sync 2"])
        withExtendedLifetime((inner, first, second)) {}
    }

    @Test func combinedAnswersCountEachInnerListener() {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let a = SyncListener("a", log: log, bytes: 10)
        let b = SyncListener("b", log: log, bytes: 20)
        let c = SyncListener("c", log: log, bytes: 300)
        inner.add(a)
        inner.add(b)
        outer.add(inner)
        outer.add(c)
        // Each inner listener counts once (an inner proxy that answered for them would count once).
        #expect(outer.reservedBytes() == 333)
        withExtendedLifetime((inner, a, b, c)) {}
    }

    @Test func nestingFlattensThreeDeep() async {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let middle = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let deepest = SyncListener("deepest", log: log, size: 11, title: "deep")
        let middleListener = SyncPreparer("middle", log: log)
        let last = SyncListener("last", log: log, size: 2)
        inner.add(deepest)
        middle.add(inner)
        middle.add(middleListener)
        outer.add(middle)
        outer.add(last)
        #expect(outer.pageSize(for: "feed") == 11)
        #expect(outer.title(for: "feed") == "deep")
        await outer.prepare("feed")
        #expect(
            log.events == [
                "deepest prepare start", "deepest prepare end", "middle prepare start", "middle prepare end",
                "last prepare start", "last prepare end",
            ])
        inner.remove(deepest)
        #expect(outer.pageSize(for: "feed") == 2)
        #expect(outer.title(for: "feed") == nil)
        withExtendedLifetime((middle, inner, deepest, middleListener, last)) {}
    }

    /// An `async` call reached through the outer proxy is committed in the inner proxy's chain:
    /// removing the listener there and awaiting its calls waits for it.
    @Test func removeAwaitingCallsInTheInnerChainWaitsForACallReachedThroughTheOuter() async throws {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let gated = GatedPreparer(log: log)
        inner.add(gated)
        outer.add(inner)
        let send = Task { await outer.prepare("feed") }
        while !gated.isWaiting { await Task.yield() }
        let removal = Task {
            let removed = try await inner.chain.removeAwaitingCalls(gated)
            log.append("removed \(removed)")
        }
        // Without the commitment in the inner chain the removal returns at once.
        try await Task.sleep(for: .milliseconds(200))
        #expect(log.events == ["gated prepare start"])
        gated.open()
        await send.value
        try await removal.value
        #expect(log.events == ["gated prepare start", "gated prepare end", "removed true"])
        withExtendedLifetime(inner) {}
    }

    /// The outer chain's removal of the nested proxy awaits a call reached through it (issue 51,
    /// point 12): the call counts in the outer chain as a call of the proxy too.
    @Test func removeAwaitingCallsOfTheNestedProxyInTheOuterChainWaitsForACallReachedThroughIt() async throws {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let gated = GatedPreparer(log: log)
        inner.add(gated)
        outer.add(inner)
        let send = Task { await outer.prepare("feed") }
        while !gated.isWaiting { await Task.yield() }
        let removal = Task {
            let removed = try await outer.chain.removeAwaitingCalls(inner)
            log.append("removed \(removed)")
        }
        // Before, the removal returned at once: the call counted in the inner chain alone.
        try await Task.sleep(for: .milliseconds(200))
        #expect(log.events == ["gated prepare start"])
        gated.open()
        await send.value
        try await removal.value
        #expect(log.events == ["gated prepare start", "gated prepare end", "removed true"])
        // Gone from the outer chain: the next send does not reach the listener through it.
        await outer.prepare("feed")
        #expect(log.events.count == 3)
        withExtendedLifetime(inner) {}
    }

    /// A removal of the nested proxy from the outer chain that lands after the send read the
    /// outer chain and before it committed the call in the inner one (issue 51, point 11): once
    /// the removal returned, the call is not made. Before, it was committed in the inner chain
    /// and ran although `remove` had returned.
    @Test func aCallThroughANestedProxyRemovedBeforeItsCommitmentIsNotMade() async {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let preparer = SyncPreparer("inner", log: log)
        inner.add(preparer)
        outer.add(inner)
        let removedOnce = Flag()
        ConcurrentNesting.hook.withLock {
            $0 = { [outerChain = outer.chain] step, chain in
                guard step == .committing, chain === outerChain,
                    !removedOnce.value.exchange(true, ordering: .relaxed)
                else { return }
                let removed = outerChain.remove(inner)
                log.append("removed \(removed)")
            }
        }
        await outer.prepare("feed")
        ConcurrentNesting.hook.withLock { $0 = nil }
        #expect(log.events == ["removed true"])
        // The listener is still in the inner proxy, which answers directly.
        await inner.prepare("feed")
        #expect(log.events == ["removed true", "inner prepare start", "inner prepare end"])
        withExtendedLifetime((inner, preparer)) {}
    }

    /// Sends from several threads while another changes the inner proxy's listeners: every
    /// answer is one a listener gives, never the default of an inner proxy standing in.
    @Test func sendsFromManyThreadsSeeTheInnerListenersOfTheMoment() {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let sizer = PageSizer(size: 5)
        let next = SyncListener("next", log: log, size: 7)
        outer.add(inner)
        outer.add(next)
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<2_000 {
                if worker == 0 {
                    if round.isMultiple(of: 2) { inner.add(sizer) } else { inner.remove(sizer) }
                } else {
                    let size = outer.pageSize(for: "feed")
                    if size != 5 && size != 7 { wrong.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        inner.add(sizer)
        #expect(outer.pageSize(for: "feed") == 5)
        withExtendedLifetime((inner, sizer, next)) {}
    }

    /// O ← [A ← [L1, L2], L3], and L1 removes A from O during a send: L2 receives nothing more,
    /// as a listener removed during a send does, whether the send is a requirement's, a plain
    /// send of the chain, or an `async` requirement's; L3 still does.
    @Test(arguments: ["requirement", "plain send", "async"])
    func removingAnInnerProxyDuringASendStopsItsListeners(_ send: String) async {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let remover = SyncRemover(log: log, removing: inner, from: outer)
        let second = SyncListener("second", log: log)
        let last = SyncListener("last", log: log)
        inner.add(remover)
        inner.add(second)
        outer.add(inner)
        outer.add(last)
        switch send {
        case "requirement": outer.didSync(1)
        case "plain send": outer.chain.send(SyncDelegateMessages.didSync, 1)
        default: await outer.prepare("feed")
        }
        let expected =
            send == "async"
            ? ["remover prepare", "last prepare start", "last prepare end"] : ["remover sync 1", "last sync 1"]
        // Before: the synchronous sends kept walking the removed proxy's listeners ("second sync 1").
        #expect(log.events == expected)
        #expect(!outer.chain.contains(inner))
        // The inner proxy itself still reaches both of its listeners.
        inner.didSync(2)
        #expect(log.events == expected + ["remover sync 2", "second sync 2"])
        withExtendedLifetime((remover, second, last)) {}
    }

    /// The other ways out of the outer chain during a send: the nesting `add`'s token, and
    /// `removeAll()`.
    @Test(arguments: ["cancel", "removeAll"])
    func cancellingOrRemovingEveryListenerDuringASendStopsTheInnerListeners(_ removal: String) {
        let log = SyncLog()
        let outer = SyncDelegateProxy()
        let inner = SyncDelegateProxy()
        let second = SyncListener("second", log: log)
        let last = SyncListener("last", log: log)
        let token = Mutex<ConcurrentDelegateToken?>(nil)
        let remover = SyncRemover(log: log) {
            if removal == "cancel" { token.withLock { $0 }?.cancel() } else { outer.chain.removeAll() }
        }
        inner.add(remover)
        inner.add(second)
        let added = outer.add(inner)
        token.withLock { $0 = added }
        outer.add(last)
        outer.didSync(1)
        #expect(log.events == (removal == "cancel" ? ["remover sync 1", "last sync 1"] : ["remover sync 1"]))
        withExtendedLifetime((remover, second, last)) {}
    }

    @Test func aConcurrentProxyOfANonisolatedProtocolNestsToo() {
        let outer = PingDelegateProxy()
        let inner = PingDelegateProxy()
        let behind = Ponger(offset: 100)
        outer.add(inner)
        outer.add(behind)
        #expect(outer.ping(1) == 101)
        let ponger = Ponger(offset: 10)
        inner.add(ponger)
        #expect(outer.ping(1) == 11)
        withExtendedLifetime((inner, behind, ponger)) {}
    }

    @Test func aProxyCannotListenToItselfThroughOthers() async {
        await #expect(processExitsWith: .failure) {
            let outer = SyncDelegateProxy()
            let inner = SyncDelegateProxy()
            outer.add(inner)
            inner.add(outer)
        }
    }
}
#endif
