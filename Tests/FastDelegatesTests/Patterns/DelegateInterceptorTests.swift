import Testing

@testable import FastDelegates

/// Seed 001 (a middle man), with no forwarding code per method.
@Suite("Interceptor: a middle man in front of a replaceable receiver")
struct DelegateInterceptorTests {
    final class MiddleMan {
        let log: Log
        var passOn = true
        init(log: Log) { self.log = log }
    }

    static func interceptions() -> Interceptions<MiddleMan> {
        Interceptions<MiddleMan>()
            .on(Scroll.didScroll) { me, offset, callThrough in
                me.log.record("middle.didScroll(\(offset))")
                if me.passOn { callThrough(offset * 10) }
            }
            .on(Scroll.heightForHeader) { me, section, callThrough in
                (callThrough(section) ?? 0) + 1 // alters the receiver's answer
            }
    }

    /// An interceptor of `interceptions()` with a receiver, the probe "receiver".
    static func interceptorWithReceiver(log: Log) -> (MiddleMan, Probe, DelegateInterceptor<MiddleMan>) {
        let middle = MiddleMan(log: log)
        let receiver = Probe("receiver", log: log)
        let interceptor = DelegateInterceptor(middleMan: middle, interceptions: interceptions())
        interceptor.setReceiver(receiver)
        return (middle, receiver, interceptor)
    }

    @Test func interceptedMessagesReachTheMiddleManAndOthersFallThrough() {
        let log = Log()
        let (middle, receiver, interceptor) = Self.interceptorWithReceiver(log: log)
        interceptor.send(Scroll.didScroll, 1) // intercepted, called through
        interceptor.send(Scroll.willBeginDragging) // not intercepted: falls through
        #expect(interceptor.send(Scroll.viewForZooming) == .some("view of receiver"))
        #expect(
            log.events == [
                "middle.didScroll(1)", "receiver.didScroll(10)", "receiver.willBeginDragging",
                "receiver.viewForZooming",
            ])
        middle.passOn = false
        interceptor.send(Scroll.didScroll, 2)
        #expect(log.events.last == "middle.didScroll(2)")
        withExtendedLifetime((middle, receiver)) {}
    }

    @Test func callThroughReturnsTheReceiversAnswerForTheMiddleManToAlter() {
        let log = Log()
        let middle = MiddleMan(log: log)
        let interceptor = DelegateInterceptor(middleMan: middle, interceptions: Self.interceptions())
        #expect(interceptor.send(Scroll.heightForHeader, 5) == 1) // no receiver: callThrough is nil
        let receiver = Probe("receiver", log: log) // answers 800 + section
        interceptor.setReceiver(receiver)
        #expect(interceptor.send(Scroll.heightForHeader, 5) == 806)
        withExtendedLifetime((middle, receiver)) {}
    }

    @Test func theReceiverIsReplaceableAndRespondsIsMiddleManOrReceiver() {
        let log = Log()
        let middle = MiddleMan(log: log)
        let interceptor = DelegateInterceptor(middleMan: middle, interceptions: Self.interceptions())
        #expect(interceptor.responds(to: Scroll.didScroll))
        #expect(!interceptor.responds(to: Scroll.viewForZooming))
        let first = Probe("first", log: log), second = Plain("second", log: log)
        interceptor.setReceiver(first)
        #expect(interceptor.responds(to: Scroll.viewForZooming))
        interceptor.setReceiver(
            second,
            responses: Responses<Plain>().on(Scroll.willBeginDragging) { me in
                me.log.record("second.willBeginDragging")
            })
        #expect(interceptor.receiver === second)
        #expect(!interceptor.responds(to: Scroll.viewForZooming))
        interceptor.send(Scroll.willBeginDragging)
        interceptor.send(Scroll.didScroll, 3)
        #expect(log.events == ["second.willBeginDragging", "middle.didScroll(3)"])
        interceptor.setReceiver(nil)
        #expect(interceptor.receiver == nil)
        #expect(!interceptor.responds(to: Scroll.willBeginDragging))
        withExtendedLifetime((middle, first, second)) {}
    }

    @Test func theMiddleManIsHeldWeaklySoAHostMayOwnItsInterceptor() {
        final class Host {
            let log = Log()
            var interceptor: DelegateInterceptor<Host>!
            init() {
                interceptor = DelegateInterceptor(
                    middleMan: self,
                    interceptions: Interceptions<Host>()
                        .on(Scroll.willBeginDragging) { me, _, _ in me.log.record("host.willBeginDragging") })
            }
        }
        weak var weakHost: Host?
        do {
            let host = Host()
            weakHost = host
            host.interceptor.send(Scroll.willBeginDragging)
            #expect(host.log.events == ["host.willBeginDragging"])
            #expect(host.interceptor.middleMan === host)
        }
        #expect(weakHost == nil)
    }

    @Test func membershipVocabularyRemoveAllClearsTheReceiverOnly() {
        let log = Log()
        let (middle, receiver, interceptor) = Self.interceptorWithReceiver(log: log)
        #expect(interceptor.contains(middle) && interceptor.contains(receiver))
        #expect(!interceptor.contains(Probe("stranger", log: log)))
        interceptor.removeAll()
        #expect(interceptor.receiver == nil && !interceptor.contains(receiver))
        #expect(interceptor.middleMan === middle && !interceptor.isEmpty)
        interceptor.send(Scroll.didScroll, 3)
        #expect(log.events == ["middle.didScroll(3)"]) // intercepted; nobody to call through to
        #expect(interceptor.send(Scroll.viewForZooming) == nil)
    }
}
