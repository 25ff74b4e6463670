import Testing

@testable import FastDelegates

@Suite("Messages and responses")
struct MessageTests {
    static func make(_ name: String) -> Message<Int, Void> { Message(name) }

    @Test func aMessageIsItsDeclaration() {
        let a = Self.make("message.same:")
        let b = Self.make("message.same:")
        let other = Self.make("message.other:")
        #expect(a == b)
        #expect(a.id == b.id)
        #expect(a != other)
        #expect(a.name == "message.same:")
        #expect("\(other)" == "message.other:")
        // The same name and types declared at another place: another message.
        let elsewhere = Message<Int, Void>("message.same:")
        #expect(elsewhere != a)
        #expect(elsewhere.name == a.name)
    }

    @Test func aMessageMadeAgainAtItsPlaceReachesHandlersRegisteredThroughIt() {
        let log = Log()
        let chain = DelegateChain()
        chain.add(Plain("p", log: log), retention: .strong) {
            $0.on(Self.make("message.twice:")) { me, value in me.log.record("got \(value)") }
        }
        chain.send(Self.make("message.twice:"), 3)
        chain.send(Message<Int, Void>("message.twice:"), 4)
        #expect(log.events == ["got 3"])
    }

    @Test func aNameWithOtherTypesIsAnotherMessage() {
        let int = Message<Int, Void>("message.conflict:")
        let string = Message<String, Void>("message.conflict:")
        let answering = Message<Int, Bool>("message.conflict:")
        #expect(Set([int.id, string.id, answering.id]).count == 3)
        #expect(string.name == int.name)
        let described = string.debugDescription
        #expect(described.hasPrefix("message.conflict: (FastDelegates.Message<Swift.String, ()>, declared at "))
    }

    @Test func theSiteParametersDeclareAtThatPlace() {
        let a = Message<Int, Void>("message.site:", fileID: "Lib/File.swift", line: 3, column: 7)
        let b = Message<Int, Void>("message.site:", fileID: "Lib/File.swift", line: 3, column: 7)
        let c = Message<Int, Void>("message.site:", fileID: "Lib/File.swift", line: 4, column: 7)
        let d = Message<Int, Void>("message.site:", fileID: "Other/File.swift", line: 3, column: 7)
        #expect(a == b)
        #expect(Set([a.id, c.id, d.id]).count == 3)
        #expect(a.debugDescription.hasSuffix("declared at Lib/File.swift:3:7)"))
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
