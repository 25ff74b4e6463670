import Synchronization

/// Objects to release after the mutex is let go of: releasing a target or a handler may run a
/// deinit, and a deinit may use the chain.
struct Garbage: @unchecked Sendable {
    // Sound: made inside one critical section and handed to the thread that ran it, which only
    // lets go of it (`dispose`) after the mutex: no thread but that one ever reads `items`, and
    // the objects' deinits run there.
    var items: [Any] = []

    /// Keeps a reference to each object of `items` whose deinit may run user code (handlers and
    /// targets, see `ReaderRecord.park`) in `record`, the thread's record inside a dispatch, so
    /// that letting go of `items` runs none of them. Registrations are not parked: one that is
    /// in the garbage holds no handler and no strong target any more (`retire`, `sweep`).
    func park(in record: ReaderRecord) {
        for item in items {
            switch item {
            case let handlers as [UInt32: AnyHandler]: record.park(handlers.values.map { $0 })
            case is [ConcurrentRegistration], is ConcurrentRegistration: continue
            default: record.park([item as AnyObject])
            }
        }
    }
}

/// A test hook: called with the chain by every mutation of a concurrent chain just before it
/// lets go of what it took out under the mutex (`ConcurrentDelegateChain.dispose`), so that a
/// test can make another thread's reclaim release the displaced snapshot first. While none is
/// set a mutation pays one relaxed load for it.
package enum DisposalHook {
    private static let armed = Atomic<Bool>(false)
    private static let hook = HandoffMutex<(@Sendable (ConcurrentDelegateChain) -> Void)?>(nil)

    /// Sets (or, with nil, clears) the hook.
    package static func set(_ newHook: (@Sendable (ConcurrentDelegateChain) -> Void)?) {
        hook.withLock { $0 = newHook }
        armed.store(newHook != nil, ordering: .sequentiallyConsistent)
    }

    /// Calls the hook, if one is set.
    static func call(_ chain: ConcurrentDelegateChain) {
        guard armed.load(ordering: .relaxed), let hook = hook.withLock({ $0 }) else { return }
        hook(chain)
    }
}
