import Testing

@testable import FastDelegates

/// `invocations(of:timing:)` on every dispatcher that has `invocations`: before the responders
/// (RxCocoa's `sentMessage`, what `invocations(of:)` does) and after them, with the answer
/// (RxCocoa's `methodInvoked`).
///
/// A responder of `didScroll(1)` sends `didScroll(2)` from inside its handler: a stream that sees
/// sends before their responders sees 1 then 2, one that sees them after sees 2 (finished first)
/// then 1.
@Suite("Observation timing: before and after the responders")
struct InvocationTimingTests {
    /// What each dispatcher's streams saw.
    struct Seen: Equatable {
        var before: [Int] = []
        var beforeByDefault: [Int] = []
        var after: [Int] = []
        var afterAnswered: [Bool] = []
        var zooms: [String??] = []
    }

    /// The streams of one dispatcher; `invocations` is not a protocol requirement, so each test
    /// makes them with its own dispatcher.
    struct Streams {
        let before: AsyncStream<Int>
        let beforeByDefault: AsyncStream<Int>
        let after: AsyncStream<Invocation<Int, Void>>
        let zooms: AsyncStream<Invocation<Void, String?>>
    }

    /// Sends through `dispatcher`, whose only target is `target`, then removes it (`remove`) and
    /// asks for a zoom view nobody gives; returns what the streams saw.
    static func run(
        _ dispatcher: some MessageDispatching, target: Probe, streams: Streams, remove: () -> Void
    ) async -> Seen {
        var nested = false
        target.onScroll = { _, offset in
            guard offset == 1, !nested else { return }
            nested = true
            dispatcher.send(Scroll.didScroll, 2)
        }
        dispatcher.send(Scroll.didScroll, 1)
        #expect(dispatcher.send(Scroll.viewForZooming) == "view of a")
        remove()
        #expect(dispatcher.send(Scroll.viewForZooming) == nil)
        dispatcher.send(Scroll.didScroll, 3) // nobody answers: seen at both timings, with no answer
        var seen = Seen()
        var before = streams.before.makeAsyncIterator(), byDefault = streams.beforeByDefault.makeAsyncIterator()
        var after = streams.after.makeAsyncIterator(), zooms = streams.zooms.makeAsyncIterator()
        for _ in 0..<3 {
            if let input = await before.next() { seen.before.append(input) }
            if let input = await byDefault.next() { seen.beforeByDefault.append(input) }
            if let invocation = await after.next() {
                seen.after.append(invocation.input)
                seen.afterAnswered.append(invocation.answer != nil)
            }
        }
        for _ in 0..<2 { if let zoom = await zooms.next() { seen.zooms.append(zoom.answer) } }
        return seen
    }

    static let expected = Seen(
        before: [1, 2, 3], beforeByDefault: [1, 2, 3], after: [2, 1, 3], afterAnswered: [true, true, false],
        zooms: [.some("view of a"), nil])

    @Test func delegateChain() async {
        let chain = DelegateChain()
        let target = Probe("a", log: Log())
        chain.add(target)
        let streams = Streams(
            before: chain.invocations(of: Scroll.didScroll, timing: .beforeResponders),
            beforeByDefault: chain.invocations(of: Scroll.didScroll),
            after: chain.invocations(of: Scroll.didScroll, timing: .afterResponders),
            zooms: chain.invocations(of: Scroll.viewForZooming, timing: .afterResponders))
        #expect(await Self.run(chain, target: target, streams: streams) { chain.remove(target) } == Self.expected)
    }

    @Test func concurrentDelegateChain() async {
        let chain = ConcurrentDelegateChain()
        let target = Probe("a", log: Log())
        chain.add(target)
        let streams = Streams(
            before: chain.invocations(of: Scroll.didScroll, timing: .beforeResponders),
            beforeByDefault: chain.invocations(of: Scroll.didScroll),
            after: chain.invocations(of: Scroll.didScroll, timing: .afterResponders),
            zooms: chain.invocations(of: Scroll.viewForZooming, timing: .afterResponders))
        #expect(await Self.run(chain, target: target, streams: streams) { chain.remove(target) } == Self.expected)
    }

    @Test func delegateSlot() async {
        let slot = DelegateSlot()
        let target = Probe("a", log: Log())
        slot.attach(target)
        let streams = Streams(
            before: slot.invocations(of: Scroll.didScroll, timing: .beforeResponders),
            beforeByDefault: slot.invocations(of: Scroll.didScroll),
            after: slot.invocations(of: Scroll.didScroll, timing: .afterResponders),
            zooms: slot.invocations(of: Scroll.viewForZooming, timing: .afterResponders))
        #expect(await Self.run(slot, target: target, streams: streams) { slot.detach(target) } == Self.expected)
    }

    @Test func delegateInterceptor() async {
        let middleMan = Plain("middle", log: Log())
        let interceptor = DelegateInterceptor(middleMan: middleMan, interceptions: Interceptions<Plain>())
        let target = Probe("a", log: Log())
        interceptor.setReceiver(target)
        let streams = Streams(
            before: interceptor.invocations(of: Scroll.didScroll, timing: .beforeResponders),
            beforeByDefault: interceptor.invocations(of: Scroll.didScroll),
            after: interceptor.invocations(of: Scroll.didScroll, timing: .afterResponders),
            zooms: interceptor.invocations(of: Scroll.viewForZooming, timing: .afterResponders))
        let seen = await Self.run(interceptor, target: target, streams: streams) { interceptor.setReceiver(nil) }
        #expect(seen == Self.expected)
        withExtendedLifetime(middleMan) {}
    }

    @Test func delegateRouter() async {
        let router = DelegateRouter(key: 0)
        let target = Probe("a", log: Log())
        router.route(0, to: target)
        let streams = Streams(
            before: router.invocations(of: Scroll.didScroll, timing: .beforeResponders),
            beforeByDefault: router.invocations(of: Scroll.didScroll),
            after: router.invocations(of: Scroll.didScroll, timing: .afterResponders),
            zooms: router.invocations(of: Scroll.viewForZooming, timing: .afterResponders))
        #expect(
            await Self.run(router, target: target, streams: streams) { router.removeRoute(for: 0) } == Self.expected)
    }

    /// The answer after the responders is the first one, also in a combined send; observing at
    /// either timing changes no answer and no breaking-mode stop.
    @Test func theAnswerAfterTheRespondersIsTheFirstAndObservingChangesNothing() async {
        let log = Log()
        let chain = DelegateChain(mode: .breaking)
        let a = Probe("a", log: log), bb = Probe("bb", log: log)
        chain.add(a)
        chain.add(bb)
        let heights = chain.invocations(of: Scroll.heightForHeader, timing: .afterResponders)
        let scrolls = chain.invocations(of: Scroll.didScroll, timing: .afterResponders)
        #expect(chain.send(Scroll.heightForHeader, 1, combining: .all) == [101, 201])
        chain.send(Scroll.didScroll, 7)
        #expect(log.events == ["a.didScroll(7)"]) // still breaks at the first responder
        var iterator = heights.makeAsyncIterator()
        let height = await iterator.next()
        #expect(height?.input == 1)
        #expect(height?.answer == 101)
        var scrollIterator = scrolls.makeAsyncIterator()
        #expect(await scrollIterator.next()?.input == 7)
        withExtendedLifetime((a, bb)) {}
    }
}
