import FastDelegates
import Testing

/// What a code generator emits: declarations that `#sourceLocation` puts at one file and line,
/// written alike (so at one column too), of types the run time cannot tell apart, in two
/// declarations (a generator's type per service, say). The enclosing declaration (`#function`),
/// which `#sourceLocation` does not rewrite, keeps them two messages.
enum RewrittenFeed {
    typealias Function = (Any) -> Void
    #sourceLocation(file:"Generated/Feed.proto",line:1)
    static let update = Message<Function, Void>("rewritten.function")
    #sourceLocation(file:"Generated/Feed.proto",line:1)
    static func made() -> Message<Function, Void> { Message("rewritten.function") }
    #sourceLocation()
}

enum RewrittenSync {
    typealias Function = (any Sendable) -> Void
    #sourceLocation(file:"Generated/Feed.proto",line:1)
    static let update = Message<Function, Void>("rewritten.function")
    #sourceLocation()
}

@Suite("Message identity under #sourceLocation")
struct MessageSourceLocationTests {
    /// A target of the concurrent chain that counts what its handlers received.
    final class Counter: Sendable {
        let received = HandoffMutex(0)
        func record() { received.withLock { $0 += 1 } }
        var count: Int { received.withLock { $0 } }
    }

    /// A class that is not `Sendable`.
    final class Unshared {
        var count = 0
    }

    @Test func twoDeclarationsAtOneRewrittenPlaceAreTwoMessages() {
        // Before: one id (same name, file, line, column, runtime type and Sendable knowledge).
        #expect(RewrittenFeed.update.id != RewrittenSync.update.id)
        // One name, one runtime type, one place as far as `#fileID`, `#line` and `#column` tell.
        #expect(RewrittenFeed.update.debugDescription == RewrittenSync.update.debugDescription)
        #expect(RewrittenFeed.update.debugDescription.contains("declared at FastDelegatesTests/Feed.proto:1:"))
        // A declaration made again is still one message.
        #expect(RewrittenFeed.made() == RewrittenFeed.made())
        #expect(RewrittenFeed.made() != RewrittenFeed.update)
    }

    /// The `@Sendable` handler of the one never receives the other's non-`Sendable` closure.
    @Test func aHandlerOfTheSendableFunctionIsNotCalledBySendsOfThePlainOne() {
        let counter = Counter()
        let chain = ConcurrentDelegateChain()
        chain.add(counter) { $0.on(RewrittenSync.update) { me, _ in me.record() } }
        let unshared = Unshared()
        chain.send(RewrittenFeed.update, { _ in unshared.count += 1 })
        #expect(counter.count == 0)
        #expect(!chain.responds(to: RewrittenFeed.update))
    }
}
