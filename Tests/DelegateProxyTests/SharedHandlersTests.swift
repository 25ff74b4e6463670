#if Macros
import Dispatch
import FastDelegates
import Synchronization
import Testing

// Each test has protocols and listener classes of its own: the table is the process's, and the
// tests run in parallel.

@DelegateProxy
protocol ShareTickDelegate: AnyObject {
    func tick(_ value: Int)
    func label() -> String?
}

final class ShareTicker: ShareTickDelegate {
    var total = 0
    func tick(_ value: Int) { total += value }
    func label() -> String? { "ticker" }
}

@DelegateProxy
protocol ShareDeclineDelegate: AnyObject {
    func didChange(_ value: Int)
    func didFinish()
}

/// Implements `didChange` only: the generated default of `didFinish` declines.
final class ShareHalfListener: ShareDeclineDelegate {
    var changes: [Int] = []
    func didChange(_ value: Int) { changes.append(value) }
}

@DelegateProxy
protocol ShareAlternateDelegate: AnyObject {
    func didChange(_ value: Int)
    func didFinish()
}

/// Implements `didChange` only: `didFinish` declines.
final class ShareAlternateHalf: ShareAlternateDelegate {
    var changes: [Int] = []
    func didChange(_ value: Int) { changes.append(value) }
}

final class ShareAlternateFull: ShareAlternateDelegate {
    var finished = 0
    func didChange(_ value: Int) {}
    func didFinish() { finished += 1 }
}

@DelegateProxy
protocol ShareSplitDelegate: AnyObject {
    func name() -> String?
}

@DelegateProxy
protocol ShareOtherDelegate: AnyObject {
    func name() -> String?
}

class ShareNamer: ShareSplitDelegate, ShareOtherDelegate {
    func name() -> String? { "namer" }
}

final class ShareLoudNamer: ShareNamer {
    override func name() -> String? { "loud namer" }
}

final class ShareOtherNamer: ShareSplitDelegate {
    func name() -> String? { "other namer" }
}

@DelegateProxy
protocol ShareParentDelegate: AnyObject {
    func parentTick(_ value: Int)
}

@DelegateProxy
protocol ShareChildDelegate: ShareParentDelegate {
    func childTick(_ value: Int)
}

final class ShareParentListener: ShareParentDelegate {
    var ticks: [Int] = []
    func parentTick(_ value: Int) { ticks.append(value) }
}

@DelegateProxy(concurrent: true)
protocol ShareConcurrentDelegate: AnyObject {
    func tick(_ value: Int)
}

final class ShareConcurrentTicker: ShareConcurrentDelegate, Sendable {
    let total = Atomic<Int>(0)
    func tick(_ value: Int) { total.wrappingAdd(value, ordering: .relaxed) }
}

@Suite("Listeners' handlers, shared by every proxy of a protocol for the process")
struct SharedHandlersTests {
    @Test("Two proxies of one protocol share one set of handlers; a later add builds nothing")
    func twoProxiesShareOneSet() {
        let (a, b) = (ShareTickDelegateProxy(), ShareTickDelegateProxy())
        let listeners = (0..<4).map { _ in ShareTicker() }
        a.add(listeners[0])
        let first = SharedHandlers.single.entry(of: ShareTicker.self, answering: ShareTickDelegateMessages.self)
        #expect(first.builds == 1)
        #expect(first.handlers.count == 2)
        b.add(listeners[1])
        a.add(listeners[2])
        ShareTickDelegateProxy().add(listeners[3])
        let later = SharedHandlers.single.entry(of: ShareTicker.self, answering: ShareTickDelegateMessages.self)
        #expect(later.builds == 1)
        #expect(later.handlers == first.handlers)
        // The handler objects each chain registered are the shared ones.
        #expect(a.chain.handlerIdentitiesForTesting(of: listeners[0]) == first.handlers)
        #expect(b.chain.handlerIdentitiesForTesting(of: listeners[1]) == first.handlers)
        #expect(a.chain.handlerIdentitiesForTesting(of: listeners[2]) == first.handlers)
        // Each listener still gets its own calls.
        a.tick(2)
        b.tick(5)
        #expect(listeners.map(\.total) == [2, 5, 2, 0])
        #expect(b.label() == "ticker")
    }

    @Test("A requirement found declined through one proxy is not registered by another")
    func declinedInOneProxySkippedInAnother() {
        let (a, b) = (ShareDeclineDelegateProxy(), ShareDeclineDelegateProxy())
        let (x, y) = (ShareHalfListener(), ShareHalfListener())
        a.add(x)
        let finish = ShareDeclineDelegateMessages.didFinish.id, change = ShareDeclineDelegateMessages.didChange.id
        #expect(a.chain.handlerIdentitiesForTesting(of: x).keys.sorted() == [change, finish].sorted())
        a.didFinish() // asks x, whose default declines
        a.didChange(1)
        #expect(x.changes == [1])
        #expect(a.chain.handlerIdentitiesForTesting(of: x)[finish] == nil)
        b.add(y)
        // `b` never sent `didFinish`: it knows through the shared handlers.
        #expect(b.chain.handlerIdentitiesForTesting(of: y).keys.sorted() == [change])
        let entry = SharedHandlers.single.entry(
            of: ShareHalfListener.self, answering: ShareDeclineDelegateMessages.self)
        #expect(entry.builds == 1)
        #expect(entry.handlers.keys.sorted() == [change])
        b.didChange(2)
        b.didFinish()
        #expect(y.changes == [2])
    }

    @Test("Listeners of two classes in turn: each class's set, less what was declined meanwhile")
    func alternatingClasses() {
        let (a, b) = (ShareAlternateDelegateProxy(), ShareAlternateDelegateProxy())
        let halves = (0..<3).map { _ in ShareAlternateHalf() }
        let fulls = (0..<2).map { _ in ShareAlternateFull() }
        let finish = ShareAlternateDelegateMessages.didFinish.id, change = ShareAlternateDelegateMessages.didChange.id
        a.add(halves[0])
        a.add(fulls[0])
        a.didFinish() // halves[0] declines; fulls[0] answers
        #expect(fulls[0].finished == 1)
        // The last set looked up is the full class's: the half class's is found by its key and
        // checked for the decline that came after it was kept.
        b.add(halves[1])
        #expect(b.chain.handlerIdentitiesForTesting(of: halves[1]).keys.sorted() == [change])
        b.add(fulls[1])
        b.add(halves[2])
        #expect(b.chain.handlerIdentitiesForTesting(of: halves[2]).keys.sorted() == [change])
        #expect(b.chain.handlerIdentitiesForTesting(of: fulls[1]).keys.sorted() == [change, finish].sorted())
        let messages = ShareAlternateDelegateMessages.self
        let half = SharedHandlers.single.entry(of: ShareAlternateHalf.self, answering: messages)
        let full = SharedHandlers.single.entry(of: ShareAlternateFull.self, answering: messages)
        #expect(half.builds == 1 && full.builds == 1)
        #expect(half.handlers.keys.sorted() == [change])
        #expect(b.chain.handlerIdentitiesForTesting(of: fulls[1]) == full.handlers)
        b.didFinish()
        b.didChange(4)
        #expect(fulls[1].finished == 1)
        #expect(halves[1].changes == [4] && halves[2].changes == [4])
    }

    @Test("Two classes, two protocols, a subclass: each its own set")
    func separateSets() {
        let split = ShareSplitDelegateProxy(), other = ShareOtherDelegateProxy()
        let namer = ShareNamer(), loud = ShareLoudNamer(), otherNamer = ShareOtherNamer()
        split.add(namer)
        split.add(loud)
        split.add(otherNamer)
        other.add(namer)
        let id = ShareSplitDelegateMessages.name.id
        let base = SharedHandlers.single.entry(of: ShareNamer.self, answering: ShareSplitDelegateMessages.self)
        let subclass = SharedHandlers.single.entry(of: ShareLoudNamer.self, answering: ShareSplitDelegateMessages.self)
        let otherClass = SharedHandlers.single.entry(
            of: ShareOtherNamer.self, answering: ShareSplitDelegateMessages.self)
        let otherProtocol = SharedHandlers.single.entry(of: ShareNamer.self, answering: ShareOtherDelegateMessages.self)
        #expect([base.builds, subclass.builds, otherClass.builds, otherProtocol.builds] == [1, 1, 1, 1])
        let sets = [base, subclass, otherClass].compactMap { $0.handlers[id] }
        #expect(Set(sets).count == 3)
        #expect(otherProtocol.handlers[ShareOtherDelegateMessages.name.id] != base.handlers[id])
        // The subclass's own set calls its override.
        split.remove(namer)
        #expect(split.name() == "loud namer")
        #expect(other.name() == "namer")
    }

    @Test("A refined protocol's add of a parent's listener shares the parent's set")
    func inheritedAdd() {
        let parent = ShareParentDelegateProxy(), child = ShareChildDelegateProxy()
        let (p, q) = (ShareParentListener(), ShareParentListener())
        parent.add(p)
        child.add(q) // the parent's `add`, through the child's proxy
        let entry = SharedHandlers.single.entry(
            of: ShareParentListener.self, answering: ShareParentDelegateMessages.self)
        #expect(entry.builds == 1)
        #expect(child.chain.handlerIdentitiesForTesting(of: q) == entry.handlers)
        child.parentTick(3)
        parent.parentTick(4)
        #expect(q.ticks == [3] && p.ticks == [4])
    }

    @Test("A proxy added to another proxy: its listeners answer through it, as before")
    func nesting() {
        let outer = ShareTickDelegateProxy(), inner = ShareTickDelegateProxy()
        let (x, y) = (ShareTicker(), ShareTicker())
        inner.add(x)
        outer.add(inner)
        outer.add(y)
        outer.tick(3)
        #expect(x.total == 3 && y.total == 3)
        #expect(outer.label() == "ticker")
        // The nested proxy's registration walks its chain: its handlers are its own.
        let shared = SharedHandlers.single.entry(
            of: ShareTickDelegateProxy.self, answering: ShareTickDelegateMessages.self)
        #expect(outer.chain.handlerIdentitiesForTesting(of: inner) != shared.handlers)
    }

    @Test("Concurrent proxies on many threads share the first set")
    func concurrentProxies() {
        let first = ShareConcurrentTicker()
        let proxies = (0..<8).map { _ in ShareConcurrentDelegateProxy() }
        proxies[0].add(first)
        let entry = SharedHandlers.sendable.entry(
            of: ShareConcurrentTicker.self, answering: ShareConcurrentDelegateMessages.self)
        #expect(entry.builds == 1)
        let tickers = (0..<8).map { _ in ShareConcurrentTicker() }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            proxies[index].add(tickers[index])
            proxies[index].tick(index + 1)
        }
        #expect(
            SharedHandlers.sendable.entry(
                of: ShareConcurrentTicker.self, answering: ShareConcurrentDelegateMessages.self
            ).builds == 1)
        for index in 0..<8 {
            #expect(proxies[index].chain.handlerIdentitiesForTesting(of: tickers[index]) == entry.handlers)
            #expect(tickers[index].total.load(ordering: .relaxed) == index + 1)
        }
        #expect(first.total.load(ordering: .relaxed) == 1)
        // The single-thread table never saw the class.
        #expect(
            SharedHandlers.single.entry(
                of: ShareConcurrentTicker.self, answering: ShareConcurrentDelegateMessages.self
            ).builds == 0)
    }
}
#endif
