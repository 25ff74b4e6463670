import Testing

@testable import FastDelegates

/// Seed 000 (secondary delegate), without its flaw: the primary stays replaceable.
@Suite("Delegate slot: primary and secondaries")
struct DelegateSlotTests {
    @Test func thePrimaryAnswersFirstThenSecondariesInAttachOrder() {
        let log = Log()
        let primary = Probe("primary", log: log), s1 = Probe("s1", log: log), s2 = Probe("s2", log: log)
        let slot = DelegateSlot()
        slot.attach(s1)
        slot.setPrimary(primary)
        slot.attach(s2)
        slot.send(Scroll.didScroll, 1)
        #expect(log.events == ["primary.didScroll(1)", "s1.didScroll(1)", "s2.didScroll(1)"])
        #expect(slot.primary === primary)
        #expect(slot.secondaries.map(ObjectIdentifier.init) == [s1, s2].map(ObjectIdentifier.init))
    }

    /// The membership vocabulary of a chain: `removeAll`, `contains`, `isEmpty`.
    @Test func removeAllRemovesThePrimaryAndEverySecondaryEvenDuringASend() {
        let log = Log()
        let primary = Probe("primary", log: log), s1 = Probe("s1", log: log), s2 = Probe("s2", log: log)
        let slot = DelegateSlot()
        #expect(slot.isEmpty)
        slot.setPrimary(primary)
        slot.attach(s1)
        slot.attach(s2, retention: .strong)
        #expect(slot.contains(primary) && slot.contains(s1) && slot.contains(s2))
        #expect(!slot.isEmpty)
        s1.onScroll = { _, _ in slot.removeAll() } // s2 hears nothing more, even from this send
        slot.send(Scroll.didScroll, 1)
        #expect(log.events == ["primary.didScroll(1)", "s1.didScroll(1)"])
        #expect(slot.isEmpty)
        #expect(slot.primary == nil)
        #expect(slot.secondaries.isEmpty)
        #expect(!slot.contains(primary) && !slot.contains(s1) && !slot.contains(s2))
        #expect(!slot.responds(to: Scroll.didScroll))
        // The slot works as before afterwards.
        slot.attach(s1)
        slot.send(Scroll.didScroll, 2)
        #expect(log.events.last == "s1.didScroll(2)")
    }

    @Test func settingReplacingAndClearingThePrimaryKeepsTheSecondaryReceiving() {
        let log = Log()
        let secondary = Probe("secondary", log: log)
        let first = Probe("first", log: log), second = Probe("second", log: log)
        let slot = DelegateSlot()
        let token = slot.attach(secondary) // the seed's order: secondary first...
        slot.setPrimary(first) // ...then `delegate =`
        slot.send(Scroll.didScroll, 1)
        slot.setPrimary(second) // replace
        slot.send(Scroll.didScroll, 2)
        slot.setPrimary(nil) // clear
        slot.send(Scroll.didScroll, 3)
        #expect(
            log.events == [
                "first.didScroll(1)", "secondary.didScroll(1)",
                "second.didScroll(2)", "secondary.didScroll(2)",
                "secondary.didScroll(3)",
            ])
        token.cancel()
        slot.setPrimary(first)
        slot.send(Scroll.didScroll, 4)
        #expect(log.events.last == "first.didScroll(4)")
        #expect(slot.secondaries.isEmpty)
        withExtendedLifetime((secondary, first, second)) {}
    }

    @Test func anAnswerIsThePrimarysElseTheFirstRespondingSecondarys() {
        let log = Log()
        let quiet = Plain("quiet", log: log), s1 = Probe("s1", log: log), s2 = Probe("s2", log: log)
        let slot = DelegateSlot()
        slot.setPrimary(quiet, responses: .scrolls)
        slot.attach(s1)
        slot.attach(s2)
        #expect(slot.send(Scroll.viewForZooming) == .some("view of s1"))
        let primary = Probe("primary", log: log)
        slot.setPrimary(primary)
        #expect(slot.send(Scroll.viewForZooming) == .some("view of primary"))
        #expect(slot.responds(to: Scroll.heightForHeader))
        slot.setPrimary(nil)
        slot.detach(s1)
        slot.detach(s2)
        #expect(!slot.responds(to: Scroll.heightForHeader))
        #expect(slot.send(Scroll.heightForHeader, 2) == nil)
        #expect(slot.send(Scroll.heightForHeader, 2, default: 44) == 44)
        withExtendedLifetime((quiet, s1, s2, primary)) {}
    }

    @Test func settingThePrimaryAgainReplacesWhatItAnswers() {
        let log = Log()
        let primary = Plain("p", log: log)
        let slot = DelegateSlot()
        slot.setPrimary(primary, responses: .scrolls)
        slot.setPrimary(
            primary,
            responses: Responses<Plain>().on(Scroll.willBeginDragging) { me in
                me.log.record("p.willBeginDragging")
            })
        #expect(!slot.responds(to: Scroll.didScroll))
        slot.send(Scroll.didScroll, 1)
        slot.send(Scroll.willBeginDragging)
        #expect(log.events == ["p.willBeginDragging"])
        withExtendedLifetime(primary) {}
    }

    @Test func thePrimaryIsWeakAndADeadPrimaryIsSkipped() {
        let log = Log()
        let secondary = Probe("secondary", log: log)
        let slot = DelegateSlot()
        do {
            let primary = Probe("primary", log: log)
            slot.setPrimary(primary)
            #expect(slot.primary != nil)
        }
        #expect(slot.primary == nil)
        slot.attach(secondary)
        slot.send(Scroll.didScroll, 1)
        #expect(log.events == ["secondary.didScroll(1)"])
        withExtendedLifetime(secondary) {}
    }

    @Test func aHandlerMayReplaceThePrimaryDuringASend() {
        final class Switcher {
            let log: Log
            weak var slot: DelegateSlot?
            var next: Probe?
            init(log: Log) { self.log = log }
        }
        let log = Log()
        let slot = DelegateSlot()
        let old = Switcher(log: log), new = Probe("new", log: log), secondary = Probe("secondary", log: log)
        old.slot = slot
        old.next = new
        slot.setPrimary(
            old,
            responses: Responses<Switcher>().on(Scroll.didScroll) { me, offset in
                me.log.record("old.didScroll(\(offset))")
                if let next = me.next { me.slot?.setPrimary(next) }
            })
        slot.attach(secondary)
        slot.send(Scroll.didScroll, 1)
        slot.send(Scroll.didScroll, 2)
        #expect(
            log.events == [
                "old.didScroll(1)", "secondary.didScroll(1)", "new.didScroll(2)", "secondary.didScroll(2)",
            ])
        withExtendedLifetime((old, new, secondary)) {}
    }
}
