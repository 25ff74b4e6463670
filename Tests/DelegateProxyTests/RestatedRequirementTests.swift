#if Macros
import FastDelegates
import Testing

// A protocol that refines another and restates one of its requirements, as Apple's refining
// delegate protocols sometimes do. A conformer of the child that implements nothing has the
// child's generated default as its witness for the parent's requirement too, so that default
// must decline the parent's message as well as the child's.

@DelegateProxy
protocol RestatingBaseDelegate: AnyObject {
    func answer() -> Int?
    @DelegateDefault(-1) func load(_ id: Int, completion: @escaping (Int) -> Void)
}

@DelegateProxy
protocol RestatingChildDelegate: RestatingBaseDelegate {
    func answer() -> Int?
    @DelegateDefault(-2) func load(_ id: Int, completion: @escaping (Int) -> Void)
    func childOnly()
}

@DelegateProxy
protocol RestatingGrandchildDelegate: RestatingChildDelegate {
    func answer() -> Int?
}

/// Conforms to the child and implements nothing.
final class RestatingBystander: RestatingChildDelegate {}

/// Conforms to the grandchild and implements nothing.
final class RestatingGrandBystander: RestatingGrandchildDelegate {}

/// Implements the parent's requirements.
final class RestatingAnswerer: RestatingBaseDelegate {
    private(set) var loads = 0
    func answer() -> Int? { 99 }
    func load(_ id: Int, completion: @escaping (Int) -> Void) {
        loads += 1
        completion(id * 2)
    }
}

/// A `@MainActor` parent and child restating an `async` query.
@DelegateProxy
@MainActor protocol RestatingAsyncBase: AnyObject {
    func fetch(_ id: Int) async -> Int?
}

@DelegateProxy
@MainActor protocol RestatingAsyncChild: RestatingAsyncBase {
    func fetch(_ id: Int) async -> Int?
}

@MainActor final class RestatingAsyncBystander: RestatingAsyncChild {}

@MainActor final class RestatingAsyncAnswerer: RestatingAsyncBase {
    func fetch(_ id: Int) async -> Int? { id + 1 }
}

/// A `Sendable` parent and child restating its query.
@DelegateProxy
protocol RestatingSendableBase: AnyObject, Sendable {
    func answer() -> Int?
}

@DelegateProxy
protocol RestatingSendableChild: RestatingSendableBase, Sendable {
    func answer() -> Int?
}

final class RestatingSendableBystander: RestatingSendableChild {}

final class RestatingSendableAnswerer: RestatingSendableBase {
    func answer() -> Int? { 99 }
}

@Suite("A requirement restated by a refining protocol declines for every message it witnesses")
struct RestatedRequirementTests {
    @Test("A parent's proxy skips a child conformer that implements nothing, and asks the next")
    func query() {
        let proxy = RestatingBaseDelegateProxy()
        let bystander = RestatingBystander()
        let answerer = RestatingAnswerer()
        proxy.add(bystander)
        proxy.add(answerer)
        #expect(proxy.answer() == 99)
        #expect(proxy.answer() == 99)
        #expect(proxy.remove(answerer))
        // The bystander declined: it does not count as responding, and the default answers.
        #expect(!proxy.chain.responds(to: RestatingBaseDelegateMessages.answer))
        #expect(proxy.answer() == nil)
    }

    @Test("Through two generations of restatement")
    func grandchild() {
        let proxy = RestatingBaseDelegateProxy()
        let bystander = RestatingGrandBystander()
        let answerer = RestatingAnswerer()
        proxy.add(bystander)
        proxy.add(answerer)
        #expect(proxy.answer() == 99)
        #expect(proxy.remove(answerer))
        #expect(!proxy.chain.responds(to: RestatingBaseDelegateMessages.answer))

        // The child's proxy, holding the grandchild conformer, asks the next listener too.
        let childProxy = RestatingChildDelegateProxy()
        childProxy.add(bystander)
        let childAnswerer = RestatingChildAnswerer()
        childProxy.add(childAnswerer)
        #expect(childProxy.answer() == 7)
    }

    @Test("A completion handler is called once, by the real implementer")
    func completionHandler() {
        let proxy = RestatingBaseDelegateProxy()
        let bystander = RestatingBystander()
        let answerer = RestatingAnswerer()
        proxy.add(bystander)
        proxy.add(answerer)
        var results: [Int] = []
        proxy.load(21) { results.append($0) }
        proxy.load(5) { results.append($0) }
        #expect(results == [42, 10])
        #expect(answerer.loads == 2)
        // With the implementer gone, the proxy completes with the parent's default, once.
        #expect(proxy.remove(answerer))
        proxy.load(1) { results.append($0) }
        #expect(results == [42, 10, -1])
    }

    @Test("An async requirement: the next listener answers")
    @MainActor func asyncQuery() async {
        let proxy = RestatingAsyncBaseProxy()
        let bystander = RestatingAsyncBystander()
        let answerer = RestatingAsyncAnswerer()
        proxy.add(bystander)
        proxy.add(answerer)
        #expect(await proxy.fetch(1) == 2)
        #expect(await proxy.fetch(2) == 3)
    }

    @Test("Called directly, the restated default answers as the child documents")
    func directCall() {
        let bystander = RestatingBystander()
        #expect(bystander.answer() == nil)
        var results: [Int] = []
        bystander.load(1) { results.append($0) }
        #expect(results == [-2])
    }

    @Test("A Sendable parent's proxy skips a child conformer that implements nothing")
    func sendable() {
        let proxy = RestatingSendableBaseProxy()
        let bystander = RestatingSendableBystander()
        let answerer = RestatingSendableAnswerer()
        proxy.add(bystander)
        proxy.add(answerer)
        #expect(proxy.answer() == 99)
        #expect(proxy.answer() == 99)
    }
}

/// Implements the child's restated query.
final class RestatingChildAnswerer: RestatingChildDelegate {
    func answer() -> Int? { 7 }
}
#endif
