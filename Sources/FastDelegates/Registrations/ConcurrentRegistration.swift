import CDispatchTable
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
// - `ConcurrentRegistration`: `identity`, `serial`, `zeroing`, `weakTarget` are written in
//   `init` only, so any thread may read them (a Swift weak load is safe while the object dies on
//   another thread; so is `swift_tryRetain` through the unowned reference, which keeps the
//   object's memory until the registration's deinit).
//   `removed`, `inFlight` and `drained` are atomics. `strongTarget` and `responses` belong to
//   the chain's mutex: only code holding it reads or writes them.
// - `ConcurrentSnapshot`: immutable once built; any thread may read it while it holds a strong
//   reference to it.
// - `SnapshotCell`: one atomic pointer to the current snapshot. The writer (under the chain's
//   mutex) swaps it and retires the old snapshot; a dispatch announces itself in its thread's
//   record and uses the snapshot unretained until it leaves (see `ReadSide`).
// - A snapshot's entries hold their registration, handler and strong target as `Unmanaged`, so
//   walking them costs no reference counting; the snapshot takes one strong reference to each
//   per entry when it is built and gives them back in its deinit, and the read side keeps a
//   retired snapshot alive until every dispatch that may walk it has left.
// - The dispatch depth is a per-thread counter in the thread's `ReaderRecord`.

/// One target in a ``ConcurrentDelegateChain``: a ``Registration``, its target's hold (fixed at
/// `init`, since sends read it without a lock), and the atomics the read side checks.
@usableFromInline
final class ConcurrentRegistration: Registration, ListedRegistration, @unchecked Sendable {
    // Sound: `serial`, `identity`, `zeroing` and `weakTarget` are written in `init` only (a weak
    // load, and `swift_tryRetain` through the zeroing hold, are safe while the target dies on
    // another thread); `removed`, `inFlight` and `drained` are atomics; every other stored
    // property (`strongTarget`, and `responses`, `order`,
    // `isUnlisted` of `Registration`) is read and written only under the owning chain's mutex
    // (see the notes above).

    // The one-byte flags first: they fill the superclass's tail (one word less per registration).

    /// Set (under the chain's mutex) when the registration leaves the chain. A dispatch checks it
    /// right before each call, after announcing the call (see `CallWait.swift`).
    @usableFromInline
    let removed = Atomic<Bool>(false)

    /// Set once a remover saw, after the registration was removed, that no call of it runs.
    let drained = Atomic<Bool>(false)

    /// The zeroing hold of the target when its class is held on the zeroing fast path
    /// (``weakHold(for:)``); nil otherwise. Each call goes through ``ZeroingHold/withTarget(at:_:)``.
    /// Written in `init` only, given back in `deinit`.
    @usableFromInline
    let zeroing: ZeroingHold?

    /// The target, weakly, when its class is not held zeroing. Written in `init` only.
    @usableFromInline @exclusivity(unchecked)
    private(set) weak var weakTarget: AnyObject?

    /// Calls of this registration's handlers running now in dispatches nested deeper than
    /// `announcedDepth` (shallower ones are announced in the caller's `ReaderRecord`), in units of
    /// `callUnit`, plus `waiterBit` once a remover blocks waiting for them (see `waitForCalls`).
    @usableFromInline
    let inFlight = Atomic<Int>(0)

    /// The strong reference that keeps a `.strong` target alive. Guarded by the chain's mutex.
    var strongTarget: AnyObject?

    init(
        serial: UInt64, target sendableTarget: any AnyObject & Sendable, retention: Retention,
        responses: [UInt32: AnyHandler]
    ) {
        let target: AnyObject = sendableTarget
        if weakHold(for: type(of: target)) == .zeroing {
            zeroing = ZeroingHold(target)
        } else {
            zeroing = nil
            weakTarget = target
        }
        strongTarget = retention == .strong ? target : nil
        super.init(target: target, serial: serial, responses: responses)
    }

    deinit {
        zeroing?.release()
    }

    /// The target if it is alive (a new strong reference), typed `Sendable` as it was registered.
    /// Under the chain's mutex.
    var target: (any AnyObject & Sendable)? {
        let target: AnyObject?
        if let strongTarget {
            target = strongTarget
        } else if let zeroing {
            target = zeroing.target
        } else {
            target = weakTarget
        }
        // Sound: `init` takes the target as `any AnyObject & Sendable` and every hold above keeps
        // that same object; `Sendable` is a marker protocol, so both existentials are one plain
        // object reference (no witness table) and the cast only restores the static type.
        return target.map { unsafeBitCast($0, to: (any AnyObject & Sendable).self) }
    }

    /// Whether the target is alive and not removed, read without taking a reference when the
    /// hold is zeroing (so without ever running a deinit); nil when only a weak load can tell.
    @inlinable
    var isAliveWithoutLoad: Bool? {
        zeroing?.isAlive
    }

    /// Whether the target is `object` and alive (`object` is kept alive by the caller). A
    /// zeroing hold keeps the target's memory, so no other object can have its address.
    func holds(_ object: AnyObject) -> Bool {
        if let strongTarget { return strongTarget === object }
        if let zeroing { return zeroing.holds(object) }
        return weakTarget === object
    }

    var retention: Retention { strongTarget == nil ? .weak : .strong }
}
