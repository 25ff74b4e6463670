import Testing

@testable import FastDelegates

@Suite("Observation as a stream")
struct ObservationTests {
    @Test func aStreamSeesEverySendInOrderWithoutBecomingAResponder() async {
        let log = Log()
        let chain = DelegateChain(mode: .breaking)
        let stream = chain.invocations(of: Scroll.didScroll)
        let zoom = chain.invocations(of: Scroll.heightForHeader)
        #expect(!chain.responds(to: Scroll.didScroll)) // observing is not responding
        #expect(chain.send(Scroll.heightForHeader, 4) == nil) // and gives no answer
        let a = Probe("a", log: log), b = Probe("b", log: log)
        chain.add(a)
        chain.add(b)
        for offset in 1...3 { chain.send(Scroll.didScroll, offset) }
        #expect(log.events == ["a.didScroll(1)", "a.didScroll(2)", "a.didScroll(3)"]) // still breaks at a
        #expect(chain.send(Scroll.heightForHeader, 5) == 105)
        var seen: [Int] = []
        for await offset in stream {
            seen.append(offset)
            if seen.count == 3 { break }
        }
        #expect(seen == [1, 2, 3])
        var heights: [Int] = []
        for await section in zoom {
            heights.append(section)
            if heights.count == 2 { break }
        }
        #expect(heights == [4, 5])
        withExtendedLifetime((a, b)) {}
    }

    @Test func droppingTheStreamRemovesTheObserverAndNothingLeaks() {
        let chain = DelegateChain()
        weak var observer: AnyObject?
        do {
            let stream = chain.invocations(of: Scroll.didScroll)
            observer = chain.observers?.all.first
            #expect(observer != nil)
            #expect(chain.observerCount(of: Scroll.didScroll) == 1)
            _ = stream
        }
        chain.send(Scroll.didScroll, 1) // the next send drops it
        #expect(chain.observerCount(of: Scroll.didScroll) == 0)
        #expect(observer == nil)
    }

    @Test func endingTheConsumingTaskRemovesTheObserver() async {
        let chain = DelegateChain()
        let stream = chain.invocations(of: Scroll.didScroll)
        weak let observer = chain.observers?.all.first
        let consumer = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        chain.send(Scroll.didScroll, 1)
        consumer.cancel()
        _ = await consumer.value
        chain.send(Scroll.didScroll, 2)
        #expect(chain.observerCount(of: Scroll.didScroll) == 0)
        #expect(observer == nil)
    }

    @Test func theStreamFinishesWhenTheChainIsGone() async {
        var chain: DelegateChain? = DelegateChain()
        let stream = chain!.invocations(of: Scroll.didScroll)
        chain!.send(Scroll.didScroll, 9)
        chain = nil
        var seen: [Int] = []
        for await offset in stream { seen.append(offset) } // ends: no hang
        #expect(seen == [9])
    }

    @Test func slotsInterceptorsAndRoutersCanBeObservedToo() async {
        let log = Log()
        let slot = DelegateSlot()
        let router = DelegateRouter<Int>(key: 0)
        let interceptor = DelegateInterceptor(
            middleMan: Plain("m", log: log), retention: .strong, interceptions: Interceptions<Plain>())
        let streams = [
            slot.invocations(of: Scroll.didScroll), router.invocations(of: Scroll.didScroll),
            interceptor.invocations(of: Scroll.didScroll),
        ]
        slot.send(Scroll.didScroll, 1)
        router.send(Scroll.didScroll, 2)
        interceptor.send(Scroll.didScroll, 3)
        var firsts: [Int] = []
        for stream in streams {
            for await offset in stream {
                firsts.append(offset)
                break
            }
        }
        #expect(firsts == [1, 2, 3])
        #expect(!slot.responds(to: Scroll.didScroll))
    }
}
