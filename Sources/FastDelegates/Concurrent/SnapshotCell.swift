import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The published snapshot of a chain: two slots and a reader counter per slot ("left-right").
///
/// Readers never lock and never wait for a writer: `pin()` is two atomic increments/decrements
/// and a retain. The single writer (serialized by the chain's mutex) only ever overwrites the
/// *inactive* slot, after its reader counter has drained to zero, so no reader can be loading a
/// reference that the writer is overwriting or releasing.
@usableFromInline
final class SnapshotCell: @unchecked Sendable {
    @usableFromInline let active = Atomic<Int>(0)
    @usableFromInline let readers0 = Atomic<Int>(0)
    @usableFromInline let readers1 = Atomic<Int>(0)
    // Written only by the writer, only in the inactive slot, only when its counter is zero.
    @usableFromInline @exclusivity(unchecked) var slot0: ConcurrentSnapshot
    @usableFromInline @exclusivity(unchecked) var slot1: ConcurrentSnapshot

    init(_ snapshot: ConcurrentSnapshot) {
        slot0 = snapshot
        slot1 = snapshot
    }

    /// A strong reference to the current snapshot.
    ///
    /// Why it is safe: a reader announces itself on slot *i*'s counter, then re-checks that *i*
    /// is still active; only then does it copy the reference. A writer changing slot *i* first
    /// saw *i* inactive and then waited for slot *i*'s counter to reach zero; all operations
    /// are sequentially consistent, so any reader that passed the re-check either announced
    /// itself before that wait (the writer waits for it) or re-checked after the writer made
    /// *i* active again (the write is done).
    /// - Complexity: O(1); no lock, no allocation (lock-free: a retry happens only when a
    ///   writer flips the slots between the two loads).
    @inlinable @inline(__always)
    func pin() -> ConcurrentSnapshot {
        while true {
            let index = active.load(ordering: .sequentiallyConsistent)
            if index == 0 {
                readers0.wrappingAdd(1, ordering: .sequentiallyConsistent)
                if active.load(ordering: .sequentiallyConsistent) == 0 {
                    let snapshot = slot0
                    readers0.wrappingSubtract(1, ordering: .releasing)
                    return snapshot
                }
                readers0.wrappingSubtract(1, ordering: .releasing)
            } else {
                readers1.wrappingAdd(1, ordering: .sequentiallyConsistent)
                if active.load(ordering: .sequentiallyConsistent) == 1 {
                    let snapshot = slot1
                    readers1.wrappingSubtract(1, ordering: .releasing)
                    return snapshot
                }
                readers1.wrappingSubtract(1, ordering: .releasing)
            }
        }
    }

    /// Publishes `snapshot`; returns the snapshot it displaced, for the caller to release after
    /// it lets go of its mutex (releasing it may run deinits).
    ///
    /// Fills the inactive slot (once its readers have drained), makes it active, then waits for
    /// the readers of the formerly active slot to drain and fills that one too, so both slots
    /// hold `snapshot` and the old one is not kept alive (with its strong targets) until the
    /// next mutation. Readers hold a counter for a few instructions only, never during a
    /// handler, so the waits are short and cannot deadlock with a handler that mutates.
    /// Only one thread at a time may call this (the chain's mutex).
    func publish(_ snapshot: ConcurrentSnapshot) -> ConcurrentSnapshot {
        let previous = active.load(ordering: .sequentiallyConsistent)
        let next = 1 - previous
        waitForReaders(of: next)
        let displaced = next == 0 ? slot0 : slot1
        if next == 0 { slot0 = snapshot } else { slot1 = snapshot }
        active.store(next, ordering: .sequentiallyConsistent)
        waitForReaders(of: previous)
        if previous == 0 { slot0 = snapshot } else { slot1 = snapshot }
        return displaced
    }

    private func waitForReaders(of slot: Int) {
        var spins = 0
        while readerCount(of: slot) != 0 {
            spins += 1
            // Readers hold a counter for a few instructions only; yield if one was preempted.
            if spins > 64 { sched_yield() }
        }
    }

    private func readerCount(of slot: Int) -> Int {
        slot == 0
            ? readers0.load(ordering: .sequentiallyConsistent) : readers1.load(ordering: .sequentiallyConsistent)
    }
}
