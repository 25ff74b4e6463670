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
// - `SnapshotCell`: a two-slot "left-right" cell. The writer (under the chain's mutex) fills the
//   inactive slot and then makes it active; a reader pins the active slot with that slot's
//   atomic reader counter just long enough to copy out a strong reference (see `pin()`).
// - A snapshot's entries hold their registration, handler and strong target *unretained*
//   (`Unmanaged`), so walking them costs no reference counting; the snapshot's `owners` array
//   holds one strong reference to each of those objects for as long as the snapshot lives, and
//   a dispatch holds the snapshot (`pin()`) for as long as it walks it.
// - The dispatch depth is a per-thread counter (a pthread key holding an integer as its value
//   pointer: this is the only place with a raw pointer, and it is never dereferenced).

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

    /// Calls of this registration's handlers running now, on any thread (see
    /// `ConcurrentDelegateChain.remove(_:)`, which waits for them).
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

/// One responder of one message in a snapshot: who, with which handler, and (for a `.strong`
/// registration) the target itself, so the hot path needs no weak load for it. Unretained: the
/// snapshot's `owners` keeps each object alive.
@usableFromInline
struct ConcurrentEntry {
    @usableFromInline let registration: Unmanaged<ConcurrentRegistration>
    @usableFromInline let handler: Unmanaged<AnyHandler>
    @usableFromInline let strongTarget: Unmanaged<AnyObject>?
}

/// An immutable view of a chain's responders: for each message id, its responders in order.
///
/// A small open-addressing table (linear probing, multiplicative hash) maps a message id to a
/// range of `entries`; 0 marks an empty bucket (interned ids are never 0).
@usableFromInline
final class ConcurrentSnapshot: @unchecked Sendable {
    @usableFromInline let keys: ContiguousArray<UInt32>
    @usableFromInline let starts: ContiguousArray<Int32>
    @usableFromInline let ends: ContiguousArray<Int32>
    @usableFromInline let entries: ContiguousArray<ConcurrentEntry>
    @usableFromInline let mask: Int
    /// One strong reference to every object an entry names.
    let owners: [AnyObject]

    static let empty = ConcurrentSnapshot(registrations: [])

    /// The responders of `registrations` (in dispatch order).
    ///
    /// A counting sort: the first pass finds each message's bucket and counts its responders,
    /// the second places each responder in its message's range, in registration order.
    /// - Complexity: O(*n* + *e*) for *n* registrations answering *e* (target, message) pairs.
    init(registrations: [ConcurrentRegistration]) {
        var total = 0
        for registration in registrations { total += registration.responses.count }
        var capacity = 2
        while capacity < total * 2 { capacity <<= 1 }
        let mask = capacity - 1
        var keys = ContiguousArray<UInt32>(repeating: 0, count: capacity)
        var starts = ContiguousArray<Int32>(repeating: 0, count: capacity)
        var ends = ContiguousArray<Int32>(repeating: 0, count: capacity)
        // Pass 1: the bucket of every (registration, message) pair, in order, and the counts.
        var buckets: [Int] = []
        buckets.reserveCapacity(total)
        for registration in registrations {
            for message in registration.responses.keys {
                var bucket = Self.home(of: message, mask: mask)
                while keys[bucket] != 0 && keys[bucket] != message { bucket = (bucket &+ 1) & mask }
                keys[bucket] = message
                ends[bucket] &+= 1
                buckets.append(bucket)
            }
        }
        // Ranges in bucket order; `ends` counts up from each start as pass 2 fills it.
        var next: Int32 = 0
        for bucket in 0..<capacity where keys[bucket] != 0 {
            let count = ends[bucket]
            starts[bucket] = next
            ends[bucket] = next
            next &+= count
        }
        // Pass 2: each pair's place, then the entries in place order.
        var places = [Int](repeating: 0, count: total)
        for (pair, bucket) in buckets.enumerated() {
            places[pair] = Int(ends[bucket])
            ends[bucket] &+= 1
        }
        var pairs: [ConcurrentEntry] = []
        pairs.reserveCapacity(total)
        var owners: [AnyObject] = []
        owners.reserveCapacity(total + registrations.count * 2)
        for registration in registrations {
            let strong = registration.strongTarget
            owners.append(registration)
            if let strong { owners.append(strong) }
            for (_, handler) in registration.responses {
                owners.append(handler)
                pairs.append(ConcurrentEntry(
                    registration: .passUnretained(registration), handler: .passUnretained(handler),
                    strongTarget: strong.map { .passUnretained($0) }))
            }
        }
        var order = [Int](repeating: 0, count: total)
        for (pair, place) in places.enumerated() { order[place] = pair }
        self.keys = keys
        self.starts = starts
        self.ends = ends
        entries = ContiguousArray(order.lazy.map { pairs[$0] })
        self.mask = mask
        self.owners = owners
    }

    @inlinable @inline(__always)
    static func home(of message: UInt32, mask: Int) -> Int {
        Int(truncatingIfNeeded: (message &* 0x9E37_79B1) >> 7) & mask
    }

    /// The range of `entries` answering `message` (empty if none).
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    func responders(of message: UInt32) -> Range<Int> {
        var bucket = Self.home(of: message, mask: mask)
        while true {
            let key = keys[bucket]
            if key == message { return Int(starts[bucket])..<Int(ends[bucket]) }
            if key == 0 { return 0..<0 }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Calls `body` with each live, not removed responder of `message` in order, until it
    /// returns true. Returns whether it met a dead target.
    ///
    /// The caller holds this snapshot for the whole walk, so every unretained reference in its
    /// entries is valid. Each call is announced in the registration's `inFlight` counter
    /// *before* its `removed` flag is checked (both sequentially consistent), so a remover that
    /// set the flag and then sees no call in flight knows that no call can start any more.
    /// - Complexity: O(1) expected to find the responders, then O(1) per responder; no
    ///   allocation, no lock, no reference counting but the weak load of a weak target.
    @inlinable @inline(__always)
    func forEachResponder<Input, Output>(
        of message: Message<Input, Output>, _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        var sawDead = false
        for index in responders(of: message.id) {
            let entry = entries[index]
            let stop = entry.registration._withUnsafeGuaranteedRef { registration -> Bool in
                registration.inFlight.wrappingAdd(1, ordering: .sequentiallyConsistent)
                defer { registration.inFlight.wrappingSubtract(1, ordering: .releasing) }
                if registration.removed.load(ordering: .sequentiallyConsistent) { return false }
                // Sound: an entry of message id `message.id` holds a handler made for it, and the
                // id fixes `Input` and `Output` (Message interns the name with its signature).
                let handler = Unmanaged<Handler<Input, Output>>.fromOpaque(entry.handler.toOpaque())
                if let strong = entry.strongTarget {
                    return strong._withUnsafeGuaranteedRef { target in
                        handler._withUnsafeGuaranteedRef { body(target, $0) }
                    }
                }
                guard let target = registration.weakTarget else {
                    sawDead = true
                    return false
                }
                return handler._withUnsafeGuaranteedRef { body(target, $0) }
            }
            if stop { break }
        }
        return sawDead
    }

    /// Whether some responder of `message` is alive and not removed.
    @inlinable
    func hasLiveResponder(of message: UInt32) -> Bool {
        for index in responders(of: message) {
            let entry = entries[index]
            let live = entry.registration._withUnsafeGuaranteedRef { registration -> Bool in
                if registration.removed.load(ordering: .acquiring) { return false }
                return entry.strongTarget != nil || registration.weakTarget != nil
            }
            if live { return true }
        }
        return false
    }
}

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

    /// The current snapshot, for the writer (under the chain's mutex).
    var current: ConcurrentSnapshot {
        active.load(ordering: .sequentiallyConsistent) == 0 ? slot0 : slot1
    }
}

// MARK: - Dispatch depth per thread

/// The pthread key of each thread's dispatch depth: how many `ConcurrentDelegateChain`
/// dispatches (of any chain) are running on this thread. The value pointer *is* the count; it is
/// never dereferenced.
private let dispatchDepthKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "FastDelegates: no pthread key for the dispatch depth")
    return key
}()

/// Enters a dispatch on this thread. No allocation.
@usableFromInline
func enterConcurrentDispatch() {
    let depth = Int(bitPattern: pthread_getspecific(dispatchDepthKey))
    pthread_setspecific(dispatchDepthKey, UnsafeRawPointer(bitPattern: depth &+ 1))
}

/// Leaves a dispatch on this thread.
@usableFromInline
func leaveConcurrentDispatch() {
    let depth = Int(bitPattern: pthread_getspecific(dispatchDepthKey))
    pthread_setspecific(dispatchDepthKey, UnsafeRawPointer(bitPattern: depth &- 1))
}

/// Whether a `ConcurrentDelegateChain` dispatch is running on this thread (we are in a handler).
func isInsideConcurrentDispatch() -> Bool {
    pthread_getspecific(dispatchDepthKey) != nil
}

/// Waits until no other thread is calling `registration`'s handlers.
func waitForCalls(of registration: ConcurrentRegistration) {
    var spins = 0
    while registration.inFlight.load(ordering: .sequentiallyConsistent) != 0 {
        spins += 1
        if spins > 64 { sched_yield() }
    }
}
