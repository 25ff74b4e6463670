import Testing

@testable import FastDelegates

@Suite("Messages and responses")
struct MessageTests {
    @Test func theSameNameIsTheSameMessage() {
        let a = Message<Int, Void>("message.same:")
        let b = Message<Int, Void>("message.same:")
        let other = Message<Int, Void>("message.other:")
        #expect(a == b)
        #expect(a.id == b.id)
        #expect(a != other)
        #expect(a.name == "message.same:")
        #expect("\(other)" == "message.other:")
    }

    @Test func aMessageDeclaredTwiceReachesHandlersRegisteredThroughEither() {
        let log = Log()
        let chain = DelegateChain()
        chain.add(Plain("p", log: log), retention: .strong) {
            $0.on(Message<Int, Void>("message.twice:")) { me, value in me.log.record("got \(value)") }
        }
        chain.send(Message<Int, Void>("message.twice:"), 3)
        #expect(log.events == ["got 3"])
    }

    @Test func redeclaringANameWithOtherTypesMakesAnotherMessage() {
        let int = Message<Int, Void>("message.conflict:")
        let string = Message<String, Void>("message.conflict:")
        let answering = Message<Int, Bool>("message.conflict:")
        #expect(Set([int.id, string.id, answering.id]).count == 3)
        #expect(string.name == int.name)
        #expect(Message<Int, Void>("message.conflict:") == int)
        #expect(string.debugDescription == "message.conflict: (FastDelegates.Message<Swift.String, ()>)")
    }

    @Test func anEmptyNameIsRejected() async {
        await #expect(processExitsWith: .failure) {
            _ = Message<Int, Void>("")
        }
    }

    @Test func responsesMergeAndTheLaterHandlerWins() {
        let log = Log()
        let first = Responses<Plain>().on(Scroll.didScroll) { me, _ in me.log.record("first") }
        let second = Responses<Plain>()
            .on(Scroll.didScroll) { me, _ in me.log.record("second") }
            .on(Scroll.willBeginDragging) { me in me.log.record("drag") }
        let merged = first.merging(second)
        #expect(merged.count == 2)
        #expect(merged.answers(Scroll.willBeginDragging))
        #expect(!first.answers(Scroll.willBeginDragging))
        let chain = DelegateChain()
        chain.add(Plain("p", log: log), retention: .strong, responses: merged)
        chain.send(Scroll.didScroll, 0)
        #expect(log.events == ["second"])
    }
}
