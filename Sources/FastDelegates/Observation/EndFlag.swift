import Synchronization

/// A flag set from any thread (a stream's termination), read on the dispatcher's thread.
@usableFromInline
final class EndFlag: Sendable {
    @usableFromInline
    let value = Atomic<Bool>(false)

    init() {}

    @inlinable
    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }

    /// Clears the flag and returns whether it was set. An exchange, not a store: it reads the
    /// setter's write, so whatever the setter wrote before setting is visible afterwards (a
    /// relaxed clear could be ordered after the caller's next reads and erase a setting made
    /// in between).
    func take() -> Bool { value.exchange(false, ordering: .acquiringAndReleasing) }
}
