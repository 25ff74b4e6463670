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

    /// The streams of one dispatcher.
    struct Streams {
        let before: AsyncStream<Int>
        let beforeByDefault: AsyncStream<Int>
        let after: AsyncStream<Invocation<Int, Void>>
        let zooms: AsyncStream<Invocation<Void, String?>>

        init(_ dispatcher: some ObservableDispatcher) {
            before = dispatcher.invocations(
                of: Scroll.didScroll, timing: .beforeResponders, bufferingPolicy: .unbounded)
            beforeByDefault = dispatcher.invocations(of: Scroll.didScroll, bufferingPolicy: .unbounded)
            after = dispatcher.invocations(of: Scroll.didScroll, timing: .afterResponders, bufferingPolicy: .unbounded)
            zooms = dispatcher.invocations(
                of: Scroll.viewForZooming, timing: .afterResponders, bufferingPolicy: .unbounded)
        }
    }

    /// Observes `dispatcher`, whose only target is `target`, sends through it, then removes the
    /// target (`remove`) and asks for a zoom view nobody gives; returns what the streams saw.
    static func run(_ dispatcher: some ObservableDispatcher, target: Probe, remove: () -> Void) async -> Seen {
        let streams = Streams(dispatcher)
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
        #expect(await Self.run(chain, target: target) { chain.remove(target) } == Self.expected)
    }

    @Test func concurrentDelegateChain() async {
        let chain = ConcurrentDelegateChain()
        let target = Probe("a", log: Log())
        chain.add(target)
        #expect(await Self.run(chain, target: target) { chain.remove(target) } == Self.expected)
    }

    @Test func delegateSlot() async {
        let slot = DelegateSlot()
        let target = Probe("a", log: Log())
        slot.attach(target)
        #expect(await Self.run(slot, target: target) { slot.detach(target) } == Self.expected)
    }

    @Test func delegateInterceptor() async {
        let middleMan = Plain("middle", log: Log())
        let interceptor = DelegateInterceptor(middleMan: middleMan, interceptions: Interceptions<Plain>())
        let target = Probe("a", log: Log())
        interceptor.setReceiver(target)
        #expect(await Self.run(interceptor, target: target) { interceptor.setReceiver(nil) } == Self.expected)
        withExtendedLifetime(middleMan) {}
    }

    @Test func delegateRouter() async {
        let router = DelegateRouter(key: 0)
        let target = Probe("a", log: Log())
        router.route(0, to: target)
        #expect(await Self.run(router, target: target) { router.removeRoute(for: 0) } == Self.expected)
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

/// A dispatcher with `invocations`, which `MessageDispatching` does not require: every one has
/// it, with these signatures.
protocol ObservableDispatcher: MessageDispatching {
    func invocations<Input: Sendable, Output>(
        of message: Message<Input, Output>, bufferingPolicy: AsyncStream<Input>.Continuation.BufferingPolicy
    ) -> AsyncStream<Input>

    func invocations<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
    ) -> AsyncStream<Element>
}

extension DelegateChain: ObservableDispatcher {}
extension ConcurrentDelegateChain: ObservableDispatcher {}
extension DelegateSlot: ObservableDispatcher {}
extension DelegateInterceptor: ObservableDispatcher {}
extension DelegateRouter: ObservableDispatcher {}
