import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The shared state of a `ConcurrentDelegateChain` and its lock-free read path.
//
// Who may touch what:
// - `ConcurrentRegistration`: `identity`, `id`, `weakTarget` are written in `init` only, so any
//   thread may read them (a Swift weak load is safe while the object dies on another thread).
//   `removed` and `inFlight` are atomics. `strongTarget` and `responses` belong to the chain's
//   mutex: only code holding it reads or writes them.
// - `ConcurrentSnapshot`: immutable once built; any thread may read it while it holds a strong
//   reference to it.
// - `SnapshotCell`: one atomic pointer to the current snapshot. The writer (under the chain's
//   mutex) swaps it and retires the old snapshot; a dispatch announces itself in its thread's
//   record and uses the snapshot unretained until it leaves (see `ReadSide`).
// - A snapshot's entries hold their registration, handler and strong target *unretained*
//   (`Unmanaged`), so walking them costs no reference counting; the snapshot's `owners` array
//   holds one strong reference to each of those objects for as long as the snapshot lives, and
//   the read side keeps a retired snapshot alive until every dispatch that may walk it has left.
// - The dispatch depth is a per-thread counter in the thread's `ReaderRecord`.

/// One target in a `ConcurrentDelegateChain`.
@usableFromInline
final class ConcurrentRegistration: @unchecked Sendable {
    /// Unique within its chain; what tokens name.
    let id: UInt64
    /// The identity of the target it was made for (valid while the target lives).
    let identity: ObjectIdentifier

    /// The target, weakly. Written in `init` only.
    @usableFromInline @exclusivity(unchecked)
    private(set) weak var weakTarget: AnyObject?

    /// Set (under the chain's mutex) when the registration leaves the chain. A dispatch checks it
    /// right before each call, after announcing the call in `inFlight`.
    @usableFromInline
    let removed = Atomic<Bool>(false)

    /// Calls of this registration's handlers running now, on any thread, in units of
    /// `callUnit`, plus `waiterBit` once a remover blocks waiting for them (see `waitForCalls`).
    @usableFromInline
    let inFlight = Atomic<Int>(0)

    /// The strong reference that keeps a `.strong` target alive. Guarded by the chain's mutex.
    var strongTarget: AnyObject?
    /// What the target answers. Guarded by the chain's mutex.
    var responses: [UInt32: AnyHandler]

    init(id: UInt64, target: AnyObject, retention: Retention, responses: [UInt32: AnyHandler]) {
        self.id = id
        identity = ObjectIdentifier(target)
        weakTarget = target
        strongTarget = retention == .strong ? target : nil
        self.responses = responses
    }

    /// The target if it is alive. Under the chain's mutex.
    var target: AnyObject? { strongTarget ?? weakTarget }

    var retention: Retention { strongTarget == nil ? .weak : .strong }
}
