#if Macros
import FastDelegates
import Testing

// Shapes spelled through type aliases: the macro reads spelling only, so a completion handler or
// an Optional answer behind an alias is recognised by its name or its marker
// (`@DelegateCompletionHandler`, `@DelegateDefault(nil)`), for each isolation.

typealias LoadCompletion = (Int?) -> Void
typealias PairCompletion = (Bool, Int) -> Void
typealias MaybeCount = Int?
typealias SendableLoadCompletion = @Sendable (Int?) -> Void

@DelegateProxy
protocol AliasedLoaderDelegate: AnyObject {
    func load(_ id: Int, completion: @escaping LoadCompletion)
    @DelegateCompletionHandler @DelegateDefault((false, -1))
    func check(_ id: Int, then: @escaping PairCompletion)
    @DelegateDefault(nil) func count() -> MaybeCount
    @DelegateDefault(nil) func countLater() async -> MaybeCount
}

final class AliasedLoader: AliasedLoaderDelegate {
    var loads = 0
    func load(_ id: Int, completion: @escaping LoadCompletion) {
        loads += 1
        completion(id * 2)
    }
    func check(_ id: Int, then: @escaping PairCompletion) { then(true, id) }
    func count() -> MaybeCount { 3 }
}

/// Implements nothing.
final class AliasedBystander: AliasedLoaderDelegate {}

@DelegateProxy
@MainActor protocol AliasedMainActorDelegate: AnyObject {
    func load(_ id: Int, completionHandler: @escaping LoadCompletion)
    @DelegateDefault(nil) func count() -> MaybeCount
}

@MainActor final class AliasedMainActorLoader: AliasedMainActorDelegate {
    var loads = 0
    func load(_ id: Int, completionHandler: @escaping LoadCompletion) {
        loads += 1
        completionHandler(id)
    }
}

@DelegateProxy
protocol AliasedSendableDelegate: AnyObject, Sendable {
    func load(_ id: Int, completion: @escaping SendableLoadCompletion)
    @DelegateDefault(nil) func count() -> MaybeCount
}

final class AliasedSendableLoader: AliasedSendableDelegate {
    func load(_ id: Int, completion: @escaping SendableLoadCompletion) { completion(id + 1) }
    func count() -> MaybeCount { 5 }
}

@Suite("Shapes spelled through type aliases")
struct AliasedShapeTests {
    @Test("A completion handler behind an alias goes to the first implementer only, or is completed once")
    func completion() {
        let proxy = AliasedLoaderDelegateProxy()
        var results: [Int?] = []
        proxy.load(1) { results.append($0) }
        #expect(results == [nil])
        let (bystander, first, second) = (AliasedBystander(), AliasedLoader(), AliasedLoader())
        for listener in [bystander, first, second] as [any AliasedLoaderDelegate] { proxy.add(listener) }
        proxy.load(4) { results.append($0) }
        #expect(results == [nil, 8])
        #expect(first.loads == 1)
        #expect(second.loads == 0)
    }

    @Test("A marked handler behind an alias, completed with a tuple default")
    func markedCompletion() {
        let proxy = AliasedLoaderDelegateProxy()
        var results: [String] = []
        proxy.check(2) { results.append("\($0) \($1)") }
        let loader = AliasedLoader()
        proxy.add(loader)
        proxy.check(7) { results.append("\($0) \($1)") }
        #expect(results == ["false -1", "true 7"])
        // Called directly, the generated default completes with the default too.
        AliasedBystander().check(1) { results.append("\($0) \($1)") }
        #expect(results.last == "false -1")
    }

    @Test("An Optional answer behind an alias, with @DelegateDefault(nil)")
    func optionalAnswer() async {
        let proxy = AliasedLoaderDelegateProxy()
        #expect(proxy.count() == nil)
        #expect(await proxy.countLater() == nil)
        let bystander = AliasedBystander()
        let loader = AliasedLoader()
        proxy.add(bystander)
        proxy.add(loader)
        #expect(proxy.count() == 3)
    }

    @MainActor @Test("@MainActor: an aliased handler and an aliased Optional")
    func mainActor() {
        let proxy = AliasedMainActorDelegateProxy()
        var results: [Int?] = []
        proxy.load(1) { results.append($0) }
        let loader = AliasedMainActorLoader()
        proxy.add(loader)
        proxy.load(6) { results.append($0) }
        #expect(results == [nil, 6])
        #expect(proxy.count() == nil)
    }

    @Test("Sendable: an aliased @Sendable handler and an aliased Optional")
    func sendable() {
        let proxy = AliasedSendableDelegateProxy()
        let recorder = AliasedResults()
        proxy.load(1) { recorder.append($0) }
        let loader = AliasedSendableLoader()
        proxy.add(loader)
        proxy.load(6) { recorder.append($0) }
        #expect(recorder.values == [nil, 7])
        #expect(proxy.count() == 5)
    }
}

final class AliasedResults: Sendable {
    private let storage = HandoffMutex<[Int?]>([])
    func append(_ value: Int?) { storage.withLock { $0.append(value) } }
    var values: [Int?] { storage.withLock { $0 } }
}
#endif
