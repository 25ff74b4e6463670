#if Macros
import FastDelegates
import NonsendingFixture
import Testing

// `async` requirements in default Swift 6 settings, for a protocol that is neither `@MainActor`
// nor `Sendable` (as UserNotifications declares its center's delegate), and `async throws(E)`
// for each isolation.

struct PresentationError: Error, Equatable {
    let id: Int
}

/// A non-`Sendable` value passed to a requirement.
final class PresentedNote {
    let id: Int
    init(_ id: Int) { self.id = id }
}

@DelegateProxy
protocol NoteCenterDelegate: AnyObject {
    func willPresent(_ note: PresentedNote) async -> Int?
    func didReceive(_ note: PresentedNote) async
    func validate(_ id: Int) async throws(PresentationError) -> Bool?
    @DelegateDefault(0) func badgeCount() async -> Int
}

/// Records every call, on no actor (the proxy's methods run there).
final class NoteListener: NoteCenterDelegate {
    var received: [Int] = []
    let presentation: Int?
    let failsValidation: Bool
    init(presentation: Int?, failsValidation: Bool = false) {
        self.presentation = presentation
        self.failsValidation = failsValidation
    }
    func willPresent(_ note: PresentedNote) async -> Int? {
        await Task.yield()
        return presentation.map { $0 + note.id }
    }
    func didReceive(_ note: PresentedNote) async {
        await Task.yield()
        received.append(note.id)
    }
    func validate(_ id: Int) async throws(PresentationError) -> Bool? {
        if failsValidation { throw PresentationError(id: id) }
        return true
    }
}

/// Implements only `didReceive`.
final class NoteReceiver: NoteCenterDelegate {
    var received: [Int] = []
    func didReceive(_ note: PresentedNote) async { received.append(note.id * 10) }
}

/// The proxy, its listeners and the host in one object, as a framework's delegate owner keeps
/// them: all sent together to the task that awaits the delegate.
final class NoteCenterHost {
    let proxy = NoteCenterDelegateProxy()
    let receiver = NoteReceiver()
    let listener: NoteListener
    weak var delegate: (any NoteCenterDelegate)?
    init(listener: NoteListener) {
        self.listener = listener
        proxy.add(receiver)
        proxy.add(listener)
        delegate = proxy
    }

    func deliver(_ id: Int) async -> (presentation: Int?, badge: Int) {
        guard let delegate else { return (nil, -1) }
        let note = PresentedNote(id)
        let presentation = await delegate.willPresent(note)
        await delegate.didReceive(note)
        return (presentation, await delegate.badgeCount())
    }
}

/// A refining protocol that inherits the nonisolated isolation, with `async` requirements of its own.
@DelegateProxy
protocol NoteArchiveDelegate: NoteCenterDelegate {
    func didArchive(_ note: PresentedNote) async throws(PresentationError)
}

final class NoteArchiver: NoteArchiveDelegate {
    var archived: [Int] = []
    func didArchive(_ note: PresentedNote) async throws(PresentationError) {
        await Task.yield()
        if note.id < 0 { throw PresentationError(id: note.id) }
        archived.append(note.id)
    }
}

/// `async throws(E)` on a `@MainActor` and a `Sendable` protocol.
@DelegateProxy
@MainActor protocol TypedAsyncMainActorDelegate: AnyObject {
    func check(_ id: Int) async throws(PresentationError) -> Int?
}

@MainActor final class TypedAsyncMainActorListener: TypedAsyncMainActorDelegate {
    func check(_ id: Int) async throws(PresentationError) -> Int? {
        if id < 0 { throw PresentationError(id: id) }
        return id
    }
}

@DelegateProxy
protocol TypedAsyncSendableDelegate: AnyObject, Sendable {
    func check(_ id: Int) async throws(PresentationError)
}

final class TypedAsyncSendableListener: TypedAsyncSendableDelegate {
    func check(_ id: Int) async throws(PresentationError) {
        if id < 0 { throw PresentationError(id: id) }
    }
}

@Suite("async requirements of a nonisolated protocol, and async throws(E)")
struct NonisolatedAsyncTests {
    @Test("A nonisolated protocol's async requirements are awaited in order, decliners skipped")
    func nonisolated() async {
        let host = NoteCenterHost(listener: NoteListener(presentation: 100))
        let answer = await host.deliver(5)
        #expect(answer.presentation == 105)
        #expect(answer.badge == 0)
        #expect(host.receiver.received == [50])
        #expect(host.listener.received == [5])
        // The receiver declined `willPresent` and lost its handler; the listener answers still.
        #expect(await host.deliver(6).presentation == 106)
        #expect(host.receiver.received == [50, 60])
    }

    @Test("A refining protocol that inherits nonisolated isolation: its async requirements too")
    func inherited() async throws {
        let proxy = NoteArchiveDelegateProxy()
        let archiver = NoteArchiver()
        let receiver = NoteReceiver()
        proxy.add(receiver)
        proxy.add(archiver)
        try await proxy.didArchive(PresentedNote(4))
        await proxy.didReceive(PresentedNote(2))
        #expect(archiver.archived == [4])
        #expect(receiver.received == [20])
        await #expect(throws: PresentationError(id: -1)) { try await proxy.didArchive(PresentedNote(-1)) }
    }

    @Test("A nonisolated protocol's typed error reaches the caller as its type")
    func nonisolatedTypedThrows() async {
        let proxy = NoteCenterDelegateProxy()
        let listener = NoteListener(presentation: nil, failsValidation: true)
        proxy.add(listener)
        do {
            _ = try await proxy.validate(7)
            Issue.record("no error")
        } catch {
            let typed: PresentationError = error // the error keeps its type
            #expect(typed == PresentationError(id: 7))
        }
    }

    @MainActor @Test("async throws(E) on a @MainActor protocol keeps E")
    func mainActorTypedThrows() async throws {
        let proxy = TypedAsyncMainActorDelegateProxy()
        let listener = TypedAsyncMainActorListener()
        proxy.add(listener)
        #expect(try await proxy.check(3) == 3)
        do {
            _ = try await proxy.check(-1)
            Issue.record("no error")
        } catch {
            let typed: PresentationError = error
            #expect(typed == PresentationError(id: -1))
        }
    }

    @Test("async throws(E) on a Sendable protocol keeps E")
    func sendableTypedThrows() async {
        let proxy = TypedAsyncSendableDelegateProxy()
        let listener = TypedAsyncSendableListener()
        proxy.add(listener)
        await #expect(throws: PresentationError(id: -2)) { try await proxy.check(-2) }
        do {
            try await proxy.check(-4)
        } catch {
            let typed: PresentationError = error
            #expect(typed == PresentationError(id: -4))
        }
    }

    @Test("Around the proxy, on no actor: AsyncRequirement awaits a nonisolated requirement's listeners")
    func directSendOnNoActor() async {
        #expect(await Self.receiveAroundTheProxy() == [9])
    }

    @Test("Around the proxy, on an actor: awaiting a nonisolated requirement stops with a clear error")
    func directSendOnAnActor() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await NonisolatedAsyncTests.receiveOnMainActor()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "NoteCenterDelegate.didReceive(_:) is the message of a nonisolated async requirement, which runs on no actor"
            ))
        #expect(message.contains("not through AsyncRequirement on MainActor"))
    }

    /// What a listener receives of `didReceive` awaited through `AsyncRequirement` on `isolation`.
    static func receiveAroundTheProxy(isolation: isolated (any Actor)? = #isolation) async -> [Int] {
        let proxy = NoteCenterDelegateProxy()
        let listener = NoteListener(presentation: 1)
        proxy.add(listener)
        await AsyncRequirement.send(proxy.chain, requirement: NoteCenterDelegateMessages.didReceive, PresentedNote(9))
        return listener.received
    }

    /// ``receiveAroundTheProxy(isolation:)`` on the main actor, which holds the listener.
    @MainActor static func receiveOnMainActor() async {
        print("the listener was called off the main actor: \(await receiveAroundTheProxy())")
    }

    @MainActor @Test("A call made on the caller's isolation runs on it, through AsyncRequirement's decline record")
    func callRunsOnTheCallersIsolation() async {
        let chain = DelegateChain()
        let target = CallerProbe()
        chain.add(target, responses: CallerProbe.responses)
        #expect(await AsyncRequirement.first(chain, requirement: CallerProbe.ranOnMainActor, (), default: false))
    }

    @MainActor @Test("With NonisolatedNonsendingByDefault, the requirements run on the caller's actor")
    func nonsendingByDefault() async throws {
        let viewer = InboxViewer(), recorder = InboxRecorder()
        let proxy = ArchivingInboxDelegateProxy()
        proxy.add(viewer)
        proxy.add(recorder)
        let inbox = Inbox()
        inbox.delegate = proxy
        #expect(await inbox.show(3) == 6)
        try await inbox.archive(5)
        await #expect(throws: InboxError(id: -1)) { try await inbox.archive(-1) }
        #expect(recorder.calls == ["willShow 3", "didShow 3", "didArchive 5"])
        #expect(recorder.ranOnMainActor == [true, true, true])
        #expect(viewer.shown == [3])
    }
}

/// A listener whose call reports where it ran.
final class CallerProbe {
    static let ranOnMainActor = Message<Void, AsyncCall<Bool, Never>>("CallerProbe.ranOnMainActor")

    /// Made on no actor, so that the call's `#isolation` is its caller's, not the main actor's.
    static var responses: Responses<CallerProbe> {
        Responses<CallerProbe>().on(ranOnMainActor) { me, _ in
            AsyncCall(me) { _ in (#isolation).map { $0 === MainActor.shared } ?? false }
        }
    }
}
#endif
