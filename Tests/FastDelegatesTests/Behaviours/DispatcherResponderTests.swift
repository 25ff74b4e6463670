import Testing

@testable import FastDelegates

/// What every dispatcher promises of the responder in one of its places (the end of a chain, a
/// slot's primary or a secondary, an interceptor's receiver, a router's route or default):
/// answers, retention, death, membership and mutation from inside its own handlers.
@Suite("Every dispatcher: one responder's life")
struct DispatcherResponderTests {
    @Test(arguments: DispatcherKind.allCases)
    func nothingAnswersBeforeAResponderIsSet(kind: DispatcherKind) {
        let place = kind.make()
        place.dispatcher.send(Scroll.didScroll, 1)
        expectNothingAnswers(place)
        #expect(place.dispatcher.send(Scroll.heightForHeader, 1, combining: .all) == [])
    }

    @Test(arguments: DispatcherKind.allCases)
    func aLiveWeakResponderIsCalledAndAnswers(kind: DispatcherKind) {
        let (place, log, probe) = kind.make(probe: "p")
        let dispatcher = place.dispatcher
        dispatcher.send(Scroll.didScroll, 1)
        dispatcher.send(Scroll.willBeginDragging)
        #expect(dispatcher.send(Scroll.viewForZooming) == "view of p")
        #expect(dispatcher.send(Scroll.heightForHeader, 3, default: -1) == 103)
        #expect(dispatcher.send(Scroll.heightForHeader, 3, combining: .all) == [103])
        #expect(log.events == ["p.didScroll(1)", "p.willBeginDragging", "p.viewForZooming"])
        #expect(dispatcher.responds(to: Scroll.didScroll))
        #expect(place.contains(probe))
        #expect(!place.isEmpty)
    }

    @Test(arguments: DispatcherKind.allCases)
    func aMessageTheResponderDoesNotAnswerFallsToTheDefault(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        let dispatcher = place.dispatcher
        let plain = Plain("p", log: log)
        place.set(plain, responses: .scrolls)
        #expect(!dispatcher.responds(to: Scroll.viewForZooming))
        #expect(dispatcher.send(Scroll.viewForZooming) == nil)
        #expect(dispatcher.send(Scroll.heightForHeader, 1, default: -1) == -1)
        dispatcher.send(Scroll.didScroll, 5)
        #expect(log.events == ["p.didScroll(5)"])
    }

    /// An answer of nil is an answer: `combining: .first` keeps it apart from no answer at all.
    @Test(arguments: DispatcherKind.allCases)
    func aNilAnswerIsNotTheAbsenceOfAnAnswer(kind: DispatcherKind) {
        let place = kind.make()
        let dispatcher = place.dispatcher
        #expect(dispatcher.send(Scroll.viewForZooming, (), combining: .first) == nil)
        let plain = Plain("p", log: Log())
        place.set(plain, responses: SendableResponses<Plain>().on(Scroll.viewForZooming) { _ in nil })
        #expect(dispatcher.responds(to: Scroll.viewForZooming))
        #expect(dispatcher.send(Scroll.viewForZooming, (), combining: .first) == .some(nil))
        #expect(dispatcher.send(Scroll.viewForZooming) == nil)
    }

    @Test(arguments: DispatcherKind.allCases)
    func aWeakResponderThatDiedIsNeverCalledAgain(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        let dispatcher = place.dispatcher
        let probe = handOver(Probe("p", log: log)) {
            place.set($0)
            dispatcher.send(Scroll.didScroll, 1)
        }
        #expect(probe.object == nil) // held weakly by default
        dispatcher.send(Scroll.didScroll, 2)
        #expect(log.events == ["p.didScroll(1)"])
        expectNothingAnswers(place)
    }

    @Test(arguments: DispatcherKind.allCases)
    func aStrongResponderLivesUntilRemoveAll(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        let dispatcher = place.dispatcher
        let probe = handOver(Probe("s", log: log)) { place.set($0, retention: .strong) }
        #expect(probe.object != nil)
        dispatcher.send(Scroll.didScroll, 1)
        #expect(place.contains(probe.object!))
        place.removeAll()
        #expect(probe.object == nil)
        dispatcher.send(Scroll.didScroll, 2)
        #expect(log.events == ["s.didScroll(1)"])
        expectNothingAnswers(place)
    }

    @Test(arguments: DispatcherKind.allCases)
    func aStrongResponderSetAgainWeaklyIsLetGo(kind: DispatcherKind) {
        let place = kind.make()
        weak var weakProbe: Probe?
        do {
            let probe = Probe("s", log: Log())
            weakProbe = probe
            place.set(probe, retention: .strong)
        }
        #expect(weakProbe != nil)
        place.set(weakProbe!, retention: .weak)
        #expect(weakProbe == nil)
        #expect(!place.dispatcher.responds(to: Scroll.didScroll))
    }

    /// Setting the same responder again keeps one responder, answering the newer handlers.
    @Test(arguments: DispatcherKind.allCases)
    func theSameResponderSetAgainAnswersTheNewerHandlersOnce(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        let plain = Plain("p", log: log)
        place.set(plain, responses: SendableResponses<Plain>().on(Scroll.didScroll) { me, _ in me.log.record("old") })
        place.set(plain, responses: SendableResponses<Plain>().on(Scroll.didScroll) { me, _ in me.log.record("new") })
        place.dispatcher.send(Scroll.didScroll, 1)
        #expect(log.events == ["new"])
        #expect(place.contains(plain))
    }

    @Test(arguments: DispatcherKind.allCases)
    func removeAllLeavesNothingToCall(kind: DispatcherKind) {
        let (place, log, probe) = kind.make(probe: "p")
        let dispatcher = place.dispatcher
        place.removeAll()
        place.removeAll() // idempotent
        dispatcher.send(Scroll.didScroll, 1)
        #expect(log.events.isEmpty)
        #expect(!place.contains(probe))
        expectNothingAnswers(place)
        place.set(probe) // and the place takes a responder again
        dispatcher.send(Scroll.didScroll, 2)
        #expect(log.events == ["p.didScroll(2)"])
    }

    @Test(arguments: DispatcherKind.allCases)
    func aResponderMayRemoveAllFromItsOwnHandlerAndFinishesTheCallAlive(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        weak var weakProbe: Probe?
        do {
            let probe = Probe("p", log: log)
            weakProbe = probe
            probe.onScroll = { me, _ in
                place.removeAll() // the only strong reference goes
                me.log.record("\(me.name) still alive")
            }
            place.set(probe, retention: .strong)
        }
        place.dispatcher.send(Scroll.didScroll, 1)
        place.dispatcher.send(Scroll.didScroll, 2)
        #expect(log.events == ["p.didScroll(1)", "p still alive"])
        #expect(weakProbe == nil) // released once the dispatch was over
    }

    @Test(arguments: DispatcherKind.allCases)
    func aResponderDyingInsideItsOwnHandlerFinishesTheCallAlive(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        var owner: Mortal? = Mortal("m", log: log)
        owner!.onScroll = { me, _ in
            owner = nil // the last strong reference, outside the dispatcher
            me.log.record("\(me.name) still alive")
        }
        place.set(owner!, responses: Mortal.responses)
        place.dispatcher.send(Scroll.didScroll, 1)
        place.dispatcher.send(Scroll.didScroll, 2)
        #expect(log.events == ["m.didScroll(1)", "m still alive", "m.deinit"])
        #expect(owner == nil)
    }

    @Test(arguments: DispatcherKind.allCases)
    func aHandlerMaySendTheSameMessageRecursively(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        let probe = Probe("p", log: log)
        probe.onScroll = { _, offset in
            if offset > 0 { place.dispatcher.send(Scroll.didScroll, offset - 1) }
        }
        place.set(probe)
        place.dispatcher.send(Scroll.didScroll, 2)
        #expect(log.events == ["p.didScroll(2)", "p.didScroll(1)", "p.didScroll(0)"])
    }

    @Test(arguments: DispatcherKind.allCases)
    func aSendFromADyingRespondersDeinitSkipsIt(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        do {
            let mortal = Mortal("m", log: log)
            mortal.onDeinit = { place.dispatcher.send(Scroll.didScroll, 9) }
            place.set(mortal, responses: Mortal.responses)
        }
        #expect(log.events == ["m.deinit"])
        #expect(!place.dispatcher.responds(to: Scroll.didScroll))
    }

    /// A strong responder whose deinit uses the dispatcher: its release by `removeAll()` must
    /// not happen in the middle of the mutation (a router once released its routes inside
    /// `Dictionary.removeAll`, and a route's deinit that used the router trapped).
    @Test(arguments: DispatcherKind.allCases)
    func aStrongRespondersDeinitMayUseTheDispatcher(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        do {
            let mortal = Mortal("m", log: log)
            mortal.onDeinit = {
                place.dispatcher.send(Scroll.didScroll, 1)
                place.removeAll()
                log.record("empty \(place.isEmpty == place.emptyWithoutResponder)")
            }
            place.set(mortal, retention: .strong, responses: Mortal.responses)
        }
        #expect(log.events.isEmpty)
        place.removeAll()
        #expect(log.events == ["m.deinit", "empty true"])
    }

    @Test(arguments: DispatcherKind.allCases)
    func containsNamesOnlyTheResponderInItsPlace(kind: DispatcherKind) {
        let log = Log()
        let place = kind.make()
        let probe = Probe("p", log: log), stranger = Probe("stranger", log: log)
        #expect(!place.contains(probe))
        place.set(probe)
        #expect(place.contains(probe))
        #expect(!place.contains(stranger))
    }

    @Test(arguments: DispatcherKind.allCases)
    func theDispatcherHoldsNoStrongReferenceToAWeakResponder(kind: DispatcherKind) {
        weak var weakProbe: Probe?
        var place: DispatcherUnderTest? = kind.make()
        do {
            let probe = Probe("p", log: Log())
            weakProbe = probe
            place!.set(probe)
            #expect(place!.contains(probe))
        }
        #expect(weakProbe == nil)
        place = nil
    }
}

/// Expects `place` to answer nothing, as a place without a (live) responder: no message is
/// answered, a value message gives nil or the default, and the dispatcher is empty as
/// ``DispatcherUnderTest/emptyWithoutResponder`` says.
private func expectNothingAnswers(_ place: DispatcherUnderTest, sourceLocation: SourceLocation = #_sourceLocation) {
    let dispatcher = place.dispatcher
    #expect(!dispatcher.responds(to: Scroll.didScroll), sourceLocation: sourceLocation)
    #expect(dispatcher.send(Scroll.viewForZooming) == nil, sourceLocation: sourceLocation)
    #expect(dispatcher.send(Scroll.heightForHeader, 1, default: -1) == -1, sourceLocation: sourceLocation)
    #expect(place.isEmpty == place.emptyWithoutResponder, sourceLocation: sourceLocation)
}
