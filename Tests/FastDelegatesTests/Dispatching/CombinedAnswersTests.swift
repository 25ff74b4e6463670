import Testing

@testable import FastDelegates

@Suite("Combined answers")
struct CombinedAnswersTests {
    final class Voter: Sendable {
        let name: String, vote: Bool, log: Log
        init(_ name: String, _ vote: Bool, log: Log) {
            self.name = name
            self.vote = vote
            self.log = log
        }
        static let responses = SendableResponses<Voter>()
            .on(Scroll.shouldScrollToTop) { me in
                me.log.record(me.name)
                return me.vote
            }
            .on(Scroll.heightForHeader) { me, section in Double(section) * (me.vote ? 2 : 3) }
    }

    @Test func allTrueIsTrueOnlyIfEveryResponderAgreesAndAsksThemAll() {
        let log = Log()
        let yes = Voter("yes", true, log: log), no = Voter("no", false, log: log), yes2 = Voter("yes2", true, log: log)
        let chain = DelegateChain(mode: .breaking) // breaking concerns void messages only
        #expect(chain.send(Scroll.shouldScrollToTop, combining: .allTrue)) // nobody objects
        #expect(!chain.send(Scroll.shouldScrollToTop, combining: .anyTrue))
        chain.add(yes, responses: Voter.responses)
        chain.add(yes2, responses: Voter.responses)
        #expect(chain.send(Scroll.shouldScrollToTop, combining: .allTrue))
        chain.insert(no, at: 1, responses: Voter.responses)
        #expect(!chain.send(Scroll.shouldScrollToTop, combining: .allTrue))
        #expect(chain.send(Scroll.shouldScrollToTop, combining: .anyTrue))
        #expect(log.events == ["yes", "yes2", "yes", "no", "yes2", "yes", "no", "yes2"])
        withExtendedLifetime((yes, no, yes2)) {}
    }

    @Test func allReduceAndFirst() {
        let log = Log()
        let chain = DelegateChain()
        let a = Voter("a", true, log: log), b = Voter("b", false, log: log)
        chain.add(Plain("silent", log: log), retention: .strong, responses: .scrolls)
        chain.add(a, responses: Voter.responses)
        chain.add(b, responses: Voter.responses)
        #expect(chain.send(Scroll.heightForHeader, 10, combining: .all) == [20, 30])
        #expect(chain.send(Scroll.heightForHeader, 10, combining: .reduce(0, +)) == 50)
        #expect(chain.send(Scroll.heightForHeader, 10, combining: .reduce(0, max)) == 30)
        #expect(chain.send(Scroll.heightForHeader, 10, combining: .first) == 20)
        #expect(chain.send(Scroll.viewForZooming, combining: .all).isEmpty)
        let custom = AnswerCombination<Double, Int>(initial: 0) { count, height in
            count += 1
            return height >= 30 // stop at the first tall one
        }
        #expect(chain.send(Scroll.heightForHeader, 10, combining: custom) == 2)
        withExtendedLifetime((a, b)) {}
    }

    @Test func combiningWorksOnAConcurrentChain() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        let a = Voter("a", true, log: log), b = Voter("b", false, log: log)
        chain.add(a, responses: Voter.responses)
        chain.add(b, responses: Voter.responses)
        #expect(chain.send(Scroll.heightForHeader, 10, combining: .all) == [20, 30])
        #expect(!chain.send(Scroll.shouldScrollToTop, combining: .allTrue))
        #expect(chain.send(Scroll.shouldScrollToTop, combining: .anyTrue))
        withExtendedLifetime((a, b)) {}
    }

    @Test func combiningWorksOnADelegateSlotPrimaryFirst() {
        let log = Log()
        let slot = DelegateSlot()
        slot.attach(Voter("s", true, log: log), retention: .strong, responses: Voter.responses)
        slot.setPrimary(Voter("p", false, log: log), retention: .strong, responses: Voter.responses)
        #expect(slot.send(Scroll.heightForHeader, 1, combining: .all) == [3, 2])
        #expect(!slot.send(Scroll.shouldScrollToTop, combining: .allTrue))
        #expect(log.events == ["p", "s"])
    }
}
