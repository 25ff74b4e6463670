import Synchronization

/// Where lifetimes, on any thread, post the registrations whose targets died; the chain drains
/// it on its own thread.
@usableFromInline
final class DeathInbox: Sendable {
    @usableFromInline
    let hasMail = Atomic<Bool>(false)
    private let mail = Mutex<[UInt32]>([])

    init() {}

    /// Whether deaths were posted since the last `take`; one load, for the send path.
    @inlinable
    var hasReports: Bool { hasMail.load(ordering: .acquiring) }

    func post(_ generation: UInt32) {
        mail.withLock { $0.append(generation) }
        hasMail.store(true, ordering: .releasing)
    }

    /// The generations posted since the last call.
    func take() -> [UInt32] {
        hasMail.store(false, ordering: .relaxed)
        return mail.withLock { mail in
            defer { mail.removeAll(keepingCapacity: true) }
            return mail
        }
    }
}
