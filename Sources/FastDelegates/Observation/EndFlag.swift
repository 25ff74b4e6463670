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

    func clear() { value.store(false, ordering: .relaxed) }
}
