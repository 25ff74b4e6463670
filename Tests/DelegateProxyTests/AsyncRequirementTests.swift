#if Macros
import FastDelegates
import Synchronization
import Testing

enum PagePolicy { case allow, cancel }

struct PageError: Error, Equatable {
    let page: Int
}

/// A `@MainActor` protocol with `async` (and throwing) requirements.
@DelegateProxy
@MainActor protocol PageLoadDelegate: AnyObject {
    @DelegateDefault(PagePolicy.allow)
    func policy(for page: Int) async -> PagePolicy
    func title(for page: Int) async -> String?
    func pageDidLoad(_ page: Int) async
    func validate(_ page: Int) async throws
    @DelegateCombining(.reduce(0, +))
    func weight(of page: Int) async -> Int
    @DelegateDefault(0)
    func check(_ page: Int) throws -> Int
    func commit(_ page: Int) throws
}

/// What the listeners did, in order.
@MainActor final class PageLog {
    var entries: [String] = []
}

/// Holds a listener's call until the test opens it.
@MainActor final class Gate {
    private var continuation: CheckedContinuation<Void, Never>?
    private var isOpen = false
    private(set) var isWaiting = false

    func wait() async {
        if isOpen { return }
        isWaiting = true
        await withCheckedContinuation { continuation = $0 }
    }

    func open() {
        isOpen = true
        continuation?.resume()
        continuation = nil
    }
}

/// Implements the void requirements only (and declines the queries), with plain state.
class PageLoader: PageLoadDelegate {
    let name: String
    let log: PageLog
    var gate: Gate?
    var fails = false
    init(_ name: String, log: PageLog, gate: Gate? = nil) {
        self.name = name
        self.log = log
        self.gate = gate
    }
    func pageDidLoad(_ page: Int) async {
        log.entries.append("\(name) start \(page)")
        if let gate { await gate.wait() } else { await Task.yield() }
        log.entries.append("\(name) end \(page)")
    }
    func validate(_ page: Int) async throws {
        log.entries.append("\(name) validate \(page)")
        await Task.yield()
        if fails { throw PageError(page: page) }
    }
    func commit(_ page: Int) throws {
        log.entries.append("\(name) commit \(page)")
        if fails { throw PageError(page: page) }
    }
}

/// A ``PageLoader`` of the test that counts what is learned about its class (every proxy shares
/// what one found; a subclass is a class of its own).
final class AskedOncePageLoader: PageLoader {}

/// Implements the queries only.
final class PageTitler: PageLoadDelegate {
    let title: String?
    let log: PageLog
    init(_ title: String?, log: PageLog) {
        self.title = title
        self.log = log
    }
    func title(for page: Int) async -> String? {
        await Task.yield()
        log.entries.append("title \(title ?? "nil")")
        return title
    }
    func policy(for page: Int) async -> PagePolicy {
        await Task.yield()
        return .cancel
    }
    func weight(of page: Int) async -> Int { page }
    func check(_ page: Int) throws -> Int {
        if page < 0 { throw PageError(page: page) }
        return page * 2
    }
}

@Suite("async and throwing requirements of a @DelegateProxy protocol", .serialized)
@MainActor struct AsyncRequirementTests {
    @Test("With no implementing listener: the default, nil, the combination's initial value")
    func defaults() async throws {
        let proxy = PageLoadDelegateProxy()
        #expect(await proxy.policy(for: 1) == .allow)
        #expect(await proxy.title(for: 1) == nil)
        #expect(await proxy.weight(of: 1) == 0)
        await proxy.pageDidLoad(1)
        try await proxy.validate(1)
        #expect(try proxy.check(1) == 0)
        try proxy.commit(1)
        let log = PageLog()
        let loader = PageLoader("a", log: log)
        proxy.add(loader)
        #expect(await proxy.policy(for: 1) == .allow)
        #expect(await proxy.weight(of: 1) == 0)
        #expect(try proxy.check(1) == 0)
    }

    @Test("A query awaits the first implementing listener: its answer, nil included")
    func firstAnswer() async {
        let log = PageLog()
        let proxy = PageLoadDelegateProxy()
        let loader = PageLoader("a", log: log)
        let silent = PageTitler(nil, log: log)
        let named = PageTitler("named", log: log)
        proxy.add(loader)
        proxy.add(silent)
        proxy.add(named)
        #expect(await proxy.title(for: 1) == nil)
        #expect(log.entries == ["title nil"])
        #expect(await proxy.policy(for: 1) == .cancel)
        #expect(await proxy.weight(of: 3) == 6)
        proxy.remove(silent)
        #expect(await proxy.title(for: 1) == "named")
    }

    @Test("A listener that does not implement an async requirement declines once, and loses its handler")
    func declinerAskedOnce() async {
        let log = PageLog()
        let proxy = PageLoadDelegateProxy()
        let loader = AskedOncePageLoader("a", log: log)
        proxy.add(loader)
        let message = PageLoadDelegateMessages.titleFor
        #expect(proxy.chain.responds(to: message))
        let before = RequirementDefaults.debugAsyncClaimCalls
        #expect(await proxy.title(for: 1) == nil)
        #expect(RequirementDefaults.debugAsyncClaimCalls - before == 1)
        #expect(!proxy.chain.responds(to: message))
        // Another listener of the class never registers it; nothing asks the default again.
        let second = AskedOncePageLoader("b", log: log)
        proxy.add(second)
        let titler = PageTitler("t", log: log)
        proxy.add(titler)
        for _ in 0..<3 { #expect(await proxy.title(for: 1) == "t") }
        #expect(RequirementDefaults.debugAsyncClaimCalls - before == 1)
        // A direct call of the default answers as the protocol documents.
        #expect(await loader.policy(for: 1) == .allow)
    }

    @Test("A void requirement awaits every implementing listener in order; .breaking the first")
    func voidInOrder() async {
        let log = PageLog()
        let proxy = PageLoadDelegateProxy()
        proxy.add(PageTitler("t", log: log), retention: .strong)
        for name in ["a", "b", "c"] { proxy.add(PageLoader(name, log: log), retention: .strong) }
        await proxy.pageDidLoad(7)
        #expect(log.entries == ["a start 7", "a end 7", "b start 7", "b end 7", "c start 7", "c end 7"])

        let breakingLog = PageLog()
        let breaking = PageLoadDelegateProxy(mode: .breaking)
        breaking.add(PageTitler("t", log: breakingLog), retention: .strong)
        for name in ["a", "b"] { breaking.add(PageLoader(name, log: breakingLog), retention: .strong) }
        await breaking.pageDidLoad(1)
        #expect(breakingLog.entries == ["a start 1", "a end 1"])
    }

    @Test("A thrown error reaches the caller, and later listeners are not called")
    func throwStops() async throws {
        let log = PageLog()
        let proxy = PageLoadDelegateProxy()
        let first = PageLoader("a", log: log)
        let failing = PageLoader("b", log: log)
        failing.fails = true
        let last = PageLoader("c", log: log)
        for listener in [first, failing, last] { proxy.add(listener) }
        await #expect(throws: PageError(page: 4)) { try await proxy.validate(4) }
        #expect(log.entries == ["a validate 4", "b validate 4"])
        log.entries = []
        #expect(throws: PageError(page: 5)) { try proxy.commit(5) }
        #expect(log.entries == ["a commit 5", "b commit 5"])
        let titler = PageTitler("t", log: log)
        proxy.add(titler)
        #expect(throws: PageError(page: -1)) { try proxy.check(-1) }
        #expect(try proxy.check(2) == 4)
    }

    @Test("A listener removed or released while an earlier one is suspended is not called")
    func removedWhileSuspended() async {
        let log = PageLog()
        let gate = Gate()
        let proxy = PageLoadDelegateProxy()
        let first = PageLoader("a", log: log, gate: gate)
        let removed = PageLoader("b", log: log)
        var released: PageLoader? = PageLoader("c", log: log)
        let last = PageLoader("d", log: log)
        proxy.add(first)
        proxy.add(removed)
        proxy.add(released!)
        proxy.add(last)
        let send = Task { await proxy.pageDidLoad(1) }
        while !gate.isWaiting { await Task.yield() }
        proxy.remove(removed)
        weak let gone = released
        released = nil
        #expect(gone == nil)
        gate.open()
        await send.value
        #expect(log.entries == ["a start 1", "a end 1", "d start 1", "d end 1"])
    }
}

/// A `Sendable` protocol with `async` requirements: its proxy is callable from any task.
@DelegateProxy
protocol RedirectDelegate: AnyObject, Sendable {
    func redirect(_ request: String) async -> String?
    func finished(_ id: Int) async throws
}

/// Implements only `finished`.
final class RedirectFinisher: RedirectDelegate {
    let calls = Atomic<Int>(0)
    let fails: Bool
    init(fails: Bool = false) { self.fails = fails }
    func finished(_ id: Int) async throws {
        calls.wrappingAdd(1, ordering: .relaxed)
        await Task.yield()
        if fails { throw PageError(page: id) }
    }
}

/// Implements only `redirect`.
final class Redirector: RedirectDelegate {
    let target: String?
    init(_ target: String?) { self.target = target }
    func redirect(_ request: String) async -> String? {
        await Task.yield()
        return target.map { "\(request)->\($0)" }
    }
}

// Counts no claims (`debugAsyncClaimCalls` is process-wide, and this suite may run beside the one above).
@Suite("async requirements of a Sendable @DelegateProxy protocol", .serialized)
struct SendableAsyncRequirementTests {
    @Test("Answers from any task; a decliner is skipped and dropped; throws stop the send")
    func fromAnyTask() async {
        let proxy = RedirectDelegateProxy()
        #expect(await proxy.redirect("r") == nil)
        let alone = RedirectDelegateProxy()
        let decliner = RedirectFinisher()
        alone.add(decliner)
        #expect(alone.chain.responds(to: RedirectDelegateMessages.redirect))
        #expect(await alone.redirect("r") == nil)
        #expect(!alone.chain.responds(to: RedirectDelegateMessages.redirect))
        let finisher = RedirectFinisher()
        let redirector = Redirector("x")
        proxy.add(finisher)
        proxy.add(redirector)
        #expect(proxy.chain.responds(to: RedirectDelegateMessages.finished))
        let answers = await withTaskGroup(of: String?.self) { group in
            for index in 0..<8 { group.addTask { await proxy.redirect("r\(index)") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(answers) == Set((0..<8).map { "r\($0)->x" }))
        #expect(await proxy.redirect("again") == "again->x")
        // `redirector` declined `finished` in none of these; `finisher` declined `redirect`
        // and lost its handler: only `redirector` responds to it now.
        #expect(proxy.chain.responds(to: RedirectDelegateMessages.redirect))

        let failing = RedirectFinisher(fails: true)
        let later = RedirectFinisher()
        proxy.add(failing)
        proxy.add(later)
        await #expect(throws: PageError(page: 3)) { try await proxy.finished(3) }
        #expect(finisher.calls.load(ordering: .relaxed) == 1)
        #expect(failing.calls.load(ordering: .relaxed) == 1)
        #expect(later.calls.load(ordering: .relaxed) == 0)
    }
}
#endif
