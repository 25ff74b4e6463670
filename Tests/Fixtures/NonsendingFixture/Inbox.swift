#if Macros
import FastDelegates

// A module compiled with `NonisolatedNonsendingByDefault`: the `async` requirements of a
// protocol that is neither `@MainActor` nor `Sendable`, its proxy's methods and its listeners'
// methods all run on their caller's isolation.

/// A message an inbox shows; not `Sendable`.
public final class InboxMessage {
    public let id: Int
    public init(_ id: Int) { self.id = id }
}

/// What an inbox's delegate may throw.
public struct InboxError: Error, Equatable {
    public let id: Int
    public init(id: Int) { self.id = id }
}

/// What an inbox tells its delegate; no isolation written.
@DelegateProxy
public protocol InboxDelegate: AnyObject {
    func inboxWillShow(_ message: InboxMessage) async -> Int?
    func inboxDidShow(_ message: InboxMessage) async
}

/// A refining protocol that inherits that isolation, with an `async throws(E)` requirement.
@DelegateProxy
public protocol ArchivingInboxDelegate: InboxDelegate {
    func inboxDidArchive(_ message: InboxMessage) async throws(InboxError)
}

/// A host that awaits its delegate, on its caller's isolation.
public final class Inbox {
    public weak var delegate: (any ArchivingInboxDelegate)?
    public init() {}

    /// Asks the delegate before and tells it after showing message `id`; the delegate's answer.
    public func show(_ id: Int) async -> Int? {
        let message = InboxMessage(id)
        let answer = await delegate?.inboxWillShow(message) ?? nil
        await delegate?.inboxDidShow(message)
        return answer
    }

    /// Tells the delegate that message `id` was archived.
    public func archive(_ id: Int) async throws(InboxError) {
        try await delegate?.inboxDidArchive(InboxMessage(id))
    }
}

/// Records each call, and whether it ran on the main actor.
public final class InboxRecorder: ArchivingInboxDelegate {
    public private(set) var calls: [String] = []
    public private(set) var ranOnMainActor: [Bool] = []
    public init() {}

    public func inboxWillShow(_ message: InboxMessage) async -> Int? {
        record("willShow \(message.id)")
        return message.id * 2
    }

    public func inboxDidShow(_ message: InboxMessage) async {
        await Task.yield()
        record("didShow \(message.id)")
    }

    public func inboxDidArchive(_ message: InboxMessage) async throws(InboxError) {
        if message.id < 0 { throw InboxError(id: message.id) }
        record("didArchive \(message.id)")
    }

    private func record(_ call: String, isolation: isolated (any Actor)? = #isolation) {
        calls.append(call)
        ranOnMainActor.append(isolation.map { $0 === MainActor.shared } ?? false)
    }
}

/// Implements only `inboxDidShow`.
public final class InboxViewer: InboxDelegate {
    public private(set) var shown: [Int] = []
    public init() {}
    public func inboxDidShow(_ message: InboxMessage) async { shown.append(message.id) }
}
#endif
