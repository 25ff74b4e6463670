import FastDelegates
import Testing

// Handlers on the single-thread dispatchers capture non-Sendable values, and @MainActor code
// uses them with no `assumeIsolated`, for every dispatcher, combined answers and observation.

/// Non-Sendable state a handler captures.
final class Tally {
    var values: [Double] = []
}

@Suite("Non-Sendable captures on the single-thread dispatchers")
struct NonSendableCaptureTests {
    @Test func chain() {
        let chain = DelegateChain(), tally = Tally(), target = Plain()
        chain.add(target) { $0.on(Scroll.didScroll) { _, y in tally.values.append(y) } }
        chain.send(Scroll.didScroll, 1)
        #expect(tally.values == [1])
        withExtendedLifetime(target) {}
    }

    @Test func slot() {
        let slot = DelegateSlot(), tally = Tally(), primary = Plain(), secondary = Plain()
        slot.setPrimary(primary, responses: Responses<Plain>().on(Scroll.didScroll) { _, y in tally.values.append(y) })
        slot.attach(secondary) { $0.on(Scroll.didScroll) { _, y in tally.values.append(-y) } }
        slot.send(Scroll.didScroll, 2)
        #expect(tally.values == [2, -2])
        withExtendedLifetime((primary, secondary)) {}
    }

    @Test func interceptor() {
        let tally = Tally(), middleMan = Plain(), receiver = Plain()
        let interceptor = DelegateInterceptor(
            middleMan: middleMan,
            interceptions: Interceptions<Plain>()
                .on(Scroll.didScroll) { _, y, callThrough in
                    tally.values.append(y)
                    callThrough(y * 10)
                })
        interceptor.setReceiver(
            receiver,
            responses: Responses<Plain>().on(Scroll.didScroll) { _, y in
                tally.values.append(y)
            })
        interceptor.send(Scroll.didScroll, 3)
        #expect(tally.values == [3, 30])
        withExtendedLifetime((middleMan, receiver)) {}
    }

    @Test func router() {
        let tally = Tally(), selection = Tally()
        let router = DelegateRouter<Int>(key: { selection.values.count })
        router.route(
            0, to: Plain(), responses: Responses<Plain>().on(Scroll.didScroll) { _, y in tally.values.append(y) })
        router.route(
            1, to: Plain(), responses: Responses<Plain>().on(Scroll.didScroll) { _, y in tally.values.append(-y) })
        router.send(Scroll.didScroll, 4)
        selection.values.append(0) // the key closure reads non-Sendable state
        router.send(Scroll.didScroll, 4)
        #expect(tally.values == [4, -4])
    }

    @Test func combinedAnswers() {
        let chain = DelegateChain(), seen = Tally(), a = Plain(), b = Plain()
        let height = Message<Int, Double>("adoption.heightForRow:")
        chain.add(a) { $0.on(height) { _, row in Double(row) } }
        chain.add(b) { $0.on(height) { _, row in Double(row) * 2 } }
        let total = chain.send(
            height, 3,
            combining: .reduce(0) { sum, next in
                seen.values.append(next) // a non-Sendable capture in the combination
                return sum + next
            })
        #expect(total == 9)
        #expect(seen.values == [3, 6])
        withExtendedLifetime((a, b)) {}
    }
}

@Suite("@MainActor owners of every dispatcher") @MainActor
struct MainActorOwnerTests {
    @MainActor final class Screen {
        let chain = DelegateChain()
        let slot = DelegateSlot()
        let router = DelegateRouter<Bool>(key: false)
        private(set) var interceptor: DelegateInterceptor<Screen>!
        var offsets: [Double] = []
        var isCompact = false

        init() {
            chain.add(self) { $0.on(Scroll.didScroll) { me, y in me.offsets.append(y) } }
            slot.setPrimary(
                self, responses: Responses<Screen>().on(Scroll.didScroll) { me, y in me.offsets.append(y + 1) })
            router.route(
                false, to: self, retention: .weak,
                responses: Responses<Screen>()
                    .on(Scroll.didScroll) { me, y in me.offsets.append(me.isCompact ? 0 : y + 2) })
            interceptor = DelegateInterceptor(
                middleMan: self,
                interceptions: Interceptions()
                    .on(Scroll.didScroll) { me, y, _ in me.offsets.append(y + 3) })
        }

        func scroll(_ y: Double) {
            chain.send(Scroll.didScroll, y)
            slot.send(Scroll.didScroll, y)
            router.send(Scroll.didScroll, y)
            interceptor.send(Scroll.didScroll, y)
        }
    }

    @Test func handlersUseTheOwnersIsolatedState() {
        let screen = Screen()
        screen.scroll(10)
        screen.isCompact = true
        screen.scroll(20)
        #expect(screen.offsets == [10, 11, 12, 13, 20, 21, 0, 23])
    }

    @Test func observationStreamsOnTheMainActor() async {
        let screen = Screen()
        let stream = screen.chain.invocations(of: Scroll.didScroll)
        screen.scroll(1)
        screen.scroll(2)
        var seen: [Double] = []
        for await y in stream {
            seen.append(y)
            if seen.count == 2 { break }
        }
        #expect(seen == [1, 2])
    }
}
