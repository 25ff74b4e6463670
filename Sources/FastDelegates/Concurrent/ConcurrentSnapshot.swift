import CDispatchTable
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An immutable view of a chain's responders: for each message id, its responders in order.
///
/// A small open-addressing table (linear probing, multiplicative hash) maps a message id to a
/// range of the entries; a key of 0 marks an empty bucket (interned ids are never 0). A bucket is
/// one 12-byte value, so a lookup reads one cache line. The buckets share the entries' array:
/// they fill its first `(mask + 1) / 2` elements (two buckets to an entry's 24 bytes), so a
/// snapshot is two heap blocks, itself and that array.
@usableFromInline
final class ConcurrentSnapshot: @unchecked Sendable {
    // Sound: immutable once `init` returns (every stored property is a `let` of immutable
    // values). Its entries name registrations, handlers and targets as `Unmanaged`, each with a
    // strong reference taken in `init` and given back in `deinit`, so each lives as long as the
    // snapshot; a thread reads it only inside a dispatch that
    // announced itself before loading it, or under the chain's mutex while it is the published
    // one (only the mutex's holder displaces it), and the read side releases a retired snapshot
    // only once no such dispatch can still run (see `SnapshotCell` and `ReadSide`). The registrations
    // it reaches are `Sendable`; the handlers it calls are `@Sendable` (`SendableResponses`), and
    // the targets it hands them are `Sendable` (every registration requires `AnyObject & Sendable`).

    /// One bucket of the table: a message id and its responders' range in `storage` (past the
    /// buckets' slots, so a send adds no offset).
    @usableFromInline
    struct Bucket {
        @usableFromInline var key: UInt32 = 0
        @usableFromInline var start: Int32 = 0
        @usableFromInline var end: Int32 = 0
    }

    /// The buckets (bound to `Bucket`, `mask + 1` of them, from the start), then the entries
    /// (from `bucketSlots`).
    @usableFromInline let storage: ContiguousArray<ConcurrentEntry>
    @usableFromInline let mask: Int
    /// 64 - log2(bucket count), for `cdt_home_bucket`.
    @usableFromInline let shift: UInt32
    /// The messages with a handler that was not verified when the snapshot was built (see
    /// ``RequirementDispatching``), usually none: the sends of a requirement not listed here
    /// call its handlers as a plain send does.
    @usableFromInline let unverified: ContiguousArray<UInt32>
    /// Bit `id % 64` set for each id in `unverified`: a clear bit answers in O(1).
    @usableFromInline let unverifiedBits: UInt64
    static let empty = ConcurrentSnapshot(registrations: [])

    /// The most (target, message) pairs a snapshot holds: its buckets' bounds are `Int32`, and
    /// count the buckets' slots too (at most two per pair).
    static let pairLimit = Int(Int32.max) / 3

    /// The responders of the listed ones of `registrations` (in dispatch order; unlisted ones
    /// are skipped). Each entry takes one strong reference to its registration, its handler and
    /// its strong target, given back in `deinit`.
    ///
    /// A counting sort: the first pass finds each message's bucket and counts its responders,
    /// the second places each responder in its message's range, in registration order, so the
    /// only allocation is the array of buckets and entries the snapshot keeps.
    /// - Precondition: at most `pairLimit` (target, message) pairs (`Int32.max / 3`: a bucket's
    ///   bounds are `Int32`; a test passes a lower one).
    /// - Complexity: O(*n* + *e*) for *n* registrations answering *e* (target, message) pairs.
    init(registrations: [ConcurrentRegistration], pairLimit: Int = ConcurrentSnapshot.pairLimit) {
        var total = 0
        for registration in registrations where !registration.isUnlisted { total += registration.responses.count }
        // Every bound below is at most `total`, so the wrapping additions cannot wrap.
        precondition(
            total <= pairLimit,
            "FastDelegates: a ConcurrentDelegateChain holds at most \(pairLimit) (target, message) pairs; this change makes \(total)"
        )
        var capacity = 2
        var shift: UInt32 = 63
        while capacity < total * 2 {
            capacity <<= 1
            shift -= 1
        }
        let mask = capacity - 1
        // In units of one entry: two buckets to an entry (`Bucket` is 12 bytes, `capacity` even).
        let slots = capacity / 2
        var unverified: ContiguousArray<UInt32> = []
        let storage = ContiguousArray<ConcurrentEntry>(unsafeUninitializedCapacity: slots + total) { tail, count in
            let base = tail.baseAddress.unsafelyUnwrapped
            let table = UnsafeMutableRawPointer(base).bindMemory(to: Bucket.self, capacity: capacity)
            table.initialize(repeating: Bucket(), count: capacity)
            unverified = Self.fill(
                table: table, mask: mask, shift: shift, entries: base, first: slots, from: registrations)
            // The buckets' slots count as initialized entries: trivial values, never read as such.
            count = slots + total
        }
        self.storage = storage
        self.mask = mask
        self.shift = shift
        self.unverified = unverified
        unverifiedBits = unverified.reduce(0) { $0 | Self.bit(of: $1) }
    }

    /// The two passes of `init` over its zeroed `table` and the uninitialized `entries` from
    /// index `first` on; returns the messages with a handler not verified.
    private static func fill(
        table: UnsafeMutablePointer<Bucket>, mask: Int, shift: UInt32, entries: UnsafeMutablePointer<ConcurrentEntry>,
        first: Int, from registrations: [ConcurrentRegistration]
    ) -> ContiguousArray<UInt32> {
        // The bucket of `message`, claimed for it if it has none yet.
        func bucket(of message: UInt32) -> Int {
            var bucket = Self.home(of: message, shift: shift)
            while table[bucket].key != 0 && table[bucket].key != message { bucket = (bucket &+ 1) & mask }
            return bucket
        }
        // Pass 1: the counts, in `end`.
        for registration in registrations where !registration.isUnlisted {
            for message in registration.responses.keys {
                let found = bucket(of: message)
                table[found].key = message
                table[found].end &+= 1
            }
        }
        // Ranges in bucket order; `end` counts up from each start as pass 2 fills it.
        // Below `pairLimit * 3`: the wrapping additions cannot wrap.
        var next = Int32(first)
        for index in 0...mask where table[index].key != 0 {
            let count = table[index].end
            table[index].start = next
            table[index].end = next
            next &+= count
        }
        // Pass 2: each pair in its place (the ranges partition `first...`: each is initialized once).
        var unverified: ContiguousArray<UInt32> = []
        for registration in registrations where !registration.isUnlisted {
            let strong = registration.strongTarget.map { Unmanaged.passUnretained($0) }
            for (message, handler) in registration.responses {
                // Read once: a handler leaves `.verified` only when an `async` call finds its
                // listener declining, and `dropDeclined` then publishes a snapshot without it.
                // A nested proxy's handler counts as unverified: requirement sends take the
                // checking walk, which walks its proxy's listeners in its place.
                if (handler.status != .verified || handler.forwards) && !unverified.contains(message) {
                    unverified.append(message)
                }
                let found = bucket(of: message)
                let place = Int(table[found].end)
                table[found].end &+= 1
                _ = Unmanaged.passRetained(registration)
                _ = Unmanaged.passRetained(handler)
                _ = strong?.retain()
                (entries + place).initialize(
                    to: ConcurrentEntry(
                        registration: .passUnretained(registration), handler: .passUnretained(handler),
                        strongTarget: strong))
            }
        }
        return unverified
    }

    /// How many elements of `storage` the buckets fill.
    var bucketSlots: Int { (mask &+ 1) &>> 1 }

    /// How many (target, message) pairs the snapshot holds.
    var entryCount: Int { storage.count - bucketSlots }

    /// The entries (indexed from `bucketSlots`), for the code off the send path.
    var entries: ArraySlice<ConcurrentEntry> { storage[bucketSlots...] }

    deinit {
        for entry in storage[bucketSlots...] {
            entry.registration.release()
            entry.handler.release()
            entry.strongTarget?.release()
        }
    }

    /// The objects the entries hold a reference to (each once per entry that names it), for a
    /// reclaim inside a dispatch to park before it releases the snapshot (`ReaderRecord.park`).
    var owners: [AnyObject] {
        var owners: [AnyObject] = []
        owners.reserveCapacity(entryCount * 3)
        for entry in entries {
            owners.append(entry.registration.takeUnretainedValue())
            owners.append(entry.handler.takeUnretainedValue())
            if let strong = entry.strongTarget { owners.append(strong.takeUnretainedValue()) }
        }
        return owners
    }

    /// The home bucket of `message`: the C table's formula (`cdt_home_bucket`, inlined from the
    /// header) with a fixed odd multiplier.
    @inlinable @inline(__always)
    static func home(of message: UInt32, shift: UInt32) -> Int {
        Int(truncatingIfNeeded: cdt_home_bucket(message, 0x9E37_79B9_7F4A_7C15, shift))
    }

    /// The range of `storage` whose entries answer `message` (empty if none).
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    func responders(of message: UInt32) -> Range<Int> {
        storage.withUnsafeBufferPointer { storage in
            // In bounds: `mask` is the table's size - 1. Bound to `Bucket` by `init`.
            let buckets = UnsafeRawPointer(storage.baseAddress.unsafelyUnwrapped).assumingMemoryBound(to: Bucket.self)
            var bucket = Self.home(of: message, shift: shift)
            while true {
                let found = buckets[bucket]
                if found.key == message { return Range(uncheckedBounds: (Int(found.start), Int(found.end))) }
                if found.key == 0 { return 0..<0 }
                bucket = (bucket &+ 1) & mask
            }
        }
    }

    /// Whether every handler of `message` was verified when this snapshot was built.
    /// - Complexity: O(1), unless an unverified message's id is `message`'s modulo 64: then
    ///   O(unverified messages).
    @inlinable @inline(__always)
    func isVerified(_ message: UInt32) -> Bool {
        unverifiedBits & Self.bit(of: message) == 0 || !unverified.contains(message)
    }

    /// `message`'s bit in `unverifiedBits`.
    @inlinable @inline(__always)
    static func bit(of message: UInt32) -> UInt64 {
        1 &<< UInt64(message & 63)
    }

    /// Whether `message`'s handlers, not all verified when this snapshot was built, all are now:
    /// a snapshot built now would let its sends skip the status checks.
    func isVerifiedSinceBuilt(_ message: UInt32) -> Bool {
        !isVerified(message)
            && responders(of: message).allSatisfy {
                storage[$0].handler._withUnsafeGuaranteedRef { $0.status == .verified && !$0.forwards }
            }
    }

    /// Calls `body` with each live, not removed responder of `message` in order, until it
    /// returns true. Returns whether it met a dead target.
    ///
    /// The caller holds this snapshot for the whole walk (it is inside a dispatch, with
    /// `record`, its thread's record, at nesting `level`), so every unretained reference in its
    /// entries is valid.
    /// Each call is announced in the record's call slot for this nesting level, then a light
    /// fence, *before* the registration's `removed` flag is checked; the slot is cleared after
    /// the call. So a remover that set the flag, ran a heavy fence, and then sees no slot naming
    /// the registration knows that no call runs and none can start (see `ReadSide`). Nested
    /// deeper than `announcedDepth`, calls count themselves in the registration's `inFlight`.
    /// - Complexity: O(1) expected to find the responders, then O(1) per responder; no
    ///   allocation, no lock, no fence but compiler barriers where the OS has a process-wide
    ///   barrier, no reference counting but the call's strong reference to a zeroing target
    ///   (`swift_tryRetain`/`swift_release`) or the weak load of a weak one.
    @inlinable @inline(__always)
    func forEachResponder<Input, Output>(
        of message: Message<Input, Output>, record: ReaderRecord, level: Int, readSide: ReadSide,
        _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        guard level < announcedDepth else { return forEachCountedResponder(of: message, body) }
        let range = responders(of: message.id)
        // Two walks, so that neither tests the kind of fence for each responder.
        if readSide.asymmetric {
            return forEachAnnouncedResponder(in: range, record: record, level: level, asymmetric: true, body)
        }
        return forEachAnnouncedResponder(in: range, record: record, level: level, asymmetric: false, body)
    }

    /// The walk of `forEachResponder` over `range`, announcing each call in `record`, with the
    /// light fences of `asymmetric`.
    @inlinable @inline(__always)
    func forEachAnnouncedResponder<Input, Output>(
        in range: Range<Int>, record: ReaderRecord, level: Int, asymmetric: Bool,
        _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        var sawDead = false
        guard !range.isEmpty else { return false }
        let slot = record.callSlot(level: level)
        // In bounds: the table's ranges partition the entries, past the buckets' slots.
        return storage.withUnsafeBufferPointer { storage in
            var next = storage.baseAddress.unsafelyUnwrapped + range.lowerBound
            let end = storage.baseAddress.unsafelyUnwrapped + range.upperBound
            repeat {
                let entry = next.pointee
                next += 1
                slot.pointee.store(UInt(bitPattern: entry.registration.toOpaque()), ordering: .releasing)
                cdt_light_fence(asymmetric)
                let stop = entry.registration._withUnsafeGuaranteedRef { registration in
                    // Relaxed: the announcement's fence orders it (see `ReadSide`).
                    registration.removed.load(ordering: .relaxed)
                        ? false : call(entry, registration, sawDead: &sawDead, body)
                }
                slot.pointee.store(0, ordering: .releasing)
                cdt_light_fence(asymmetric)
                if record.waitingRemovers.load(ordering: .relaxed) != 0 { cdt_park_wake_all() }
                if stop { break }
            } while next != end
            return sawDead
        }
    }

    /// `forEachResponder` for a dispatch nested deeper than `announcedDepth` (rare): each call is
    /// announced in the registration's `inFlight` counter (sequentially consistent) before its
    /// `removed` flag is checked, and noted in the thread's record (`beginDeepCall`), so that a
    /// thread that ends inside the call takes it back. Not inlined into `forEachResponder`: so
    /// the common walk's code is the same whatever this rare path does (inlined, these calls
    /// cost the common walk one instruction per responder, measured with callgrind).
    @inlinable @inline(never)
    func forEachCountedResponder<Input, Output>(
        of message: Message<Input, Output>, _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        var sawDead = false
        for index in responders(of: message.id) {
            let entry = storage[index]
            let stop = entry.registration._withUnsafeGuaranteedRef { registration -> Bool in
                beginDeepCall(of: registration)
                defer { endDeepCall(of: registration) }
                // Sequentially consistent, as the announcement: no fence orders them otherwise.
                if registration.removed.load(ordering: .sequentiallyConsistent) { return false }
                return call(entry, registration, sawDead: &sawDead, body)
            }
            if stop { break }
        }
        return sawDead
    }

    /// Calls `body` with `entry`'s target and handler if the target is alive (the call announced
    /// and `removed` checked by the caller, with the ordering its announcement needs); sets
    /// `sawDead` for a dead target.
    @inlinable @inline(__always)
    func call<Input, Output>(
        _ entry: ConcurrentEntry, _ registration: ConcurrentRegistration, sawDead: inout Bool,
        _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        // Sound: an entry of message id `message.id` holds a handler made for it, and the id fixes
        // `Input` and `Output` (Message interns the name with its signature).
        let handler = Unmanaged<Handler<Input, Output>>.fromOpaque(entry.handler.toOpaque())
        if let strong = entry.strongTarget {
            return strong._withUnsafeGuaranteedRef { target in
                handler._withUnsafeGuaranteedRef { body(target, $0) }
            }
        }
        if let zeroing = registration.zeroing {
            // The strong reference of the call: the target cannot deinitialize during it.
            let outcome = ZeroingHold.withTarget(at: zeroing.pointer) { target in
                handler._withUnsafeGuaranteedRef { body(target, $0) }
            }
            guard let outcome else {
                sawDead = true
                return false
            }
            return outcome
        }
        guard let target = registration.weakTarget else {
            sawDead = true
            return false
        }
        return handler._withUnsafeGuaranteedRef { body(target, $0) }
    }

    /// Whether some responder of `message` is alive and not removed.
    @inlinable
    func hasLiveResponder(of message: UInt32) -> Bool {
        for index in responders(of: message) {
            let entry = storage[index]
            let live = entry.registration._withUnsafeGuaranteedRef { registration -> Bool in
                if registration.removed.load(ordering: .acquiring) { return false }
                if entry.strongTarget != nil { return true }
                return registration.isAliveWithoutLoad ?? (registration.weakTarget != nil)
            }
            if live { return true }
        }
        return false
    }
}
