import CDispatchTable

// With ChainRegistration.swift, the only file of the chain that touches unsafe pointers and manual
// reference counts.
//
// Ownership:
// - `DispatchTable` owns its `cdt_chain`, which lives inside the table's own allocation (the
//   ManagedBuffer's one element, as swift-nio keeps a lock in its `LockStorage`): initialized
//   in `make`, deinitialized in deinit, never moved. `chain` points into the table, so it is
//   valid while the table lives: every caller holds the table.
// - Each acquired C slot holds one +1 retain of its `ChainRegistration` (taken in `acquire`, given
//   back in `release` or deinit). A registration released while a dispatch is inside is also
//   parked in `graveyard` until the outermost dispatch leaves, so a running handler's
//   registration, handler and target stay alive.
// - An entry's handler pointer is unretained: the registration's `responses` keeps the handler
//   alive, and a handler replaced during a dispatch is parked in `graveyard` too.
// - A registration holds its target in one of three ways, mirrored into its C slot:
//   `.weak`: a Swift weak reference (slot kind INDIRECT: the hot path goes through the
//   registration); `.strong`: one +1 strong retain (slot kind STRONG: the hot path calls the
//   slot's unretained pointer as is); `.zeroing`: one +1 unowned retain, which keeps the
//   object's memory but not the object alive (slot kind ZEROING: the hot path takes a strong
//   reference with `swift_tryRetain` for each call, which fails once deinit has started, and
//   releases it after the call). The registration gives its unowned reference back when it
//   is released or swept, which frees a dead target's memory.
// - Identity: a slot's 32-bit generation wraps after 2^32 - 1 acquisitions, so the Swift side
//   never keys a registration by it (tokens name a registration's 64-bit serial).

/// The Swift half of a ``DispatchTable``: its ManagedBuffer header (the C chain is its element).
@usableFromInline
struct DispatchTableState {
    /// ``DispatchTable/graveyard``.
    var graveyard: [AnyObject] = []
    /// ``DispatchTable/deadFound``.
    var deadFound = 0
    /// ``DispatchTable/pending``.
    var pending = PendingMessages()
}

/// The C slot array and message table of one chain, and the hot path that reads them: one heap
/// object holding both its Swift state and the C chain.
@usableFromInline
final class DispatchTable: ManagedBuffer<DispatchTableState, cdt_chain> {
    /// A new, empty table.
    /// - Parameter forcedCollisions: a test hook that hashes every message into one bucket.
    static func make(forcedCollisions: Bool = false) -> DispatchTable {
        // A force cast, as swift-nio's LockStorage does (the optimizer removes it).
        let table = create(minimumCapacity: 1) { _ in DispatchTableState() } as! DispatchTable
        table.withUnsafeMutablePointerToElements { chain in
            cdt_chain_init(chain)
            if forcedCollisions { _ = cdt_chain_debug_force_collisions(chain) }
        }
        return table
    }

    /// The C chain, inside this object: valid while the table lives.
    @inlinable
    var chain: UnsafeMutablePointer<cdt_chain> {
        @inline(__always) get { withUnsafeMutablePointerToElements { $0 } }
    }

    /// Objects that must outlive the running dispatches (see the ownership notes above).
    var graveyard: [AnyObject] {
        get { header.graveyard }
        _modify { yield &header.graveyard }
    }

    /// How many times dispatches met a dead target since the chain last looked (it sweeps once
    /// they add up to a share of its registrations).
    var deadFound: Int {
        get { header.deadFound }
        set { header.deadFound = newValue }
    }

    /// The handlers not entered yet, counted per message (see PendingEntries.swift).
    var pending: PendingMessages {
        get { header.pending }
        _modify { yield &header.pending }
    }

    deinit {
        precondition(chain.pointee.depth == 0, "FastDelegates: a chain was freed during one of its own dispatches")
        forEachSlotObject { _, object in object.release() }
        withUnsafeMutablePointerToElements { cdt_chain_deinit($0) }
    }

    /// Whether a dispatch is running on this table right now.
    @inlinable
    var isDispatching: Bool { chain.pointee.depth > 0 }

    /// Gives `registration` a slot and enters its responses into the table, except those not
    /// known to answer: they stay pending (see PendingEntries.swift).
    func acquire(_ registration: ChainRegistration) {
        let object = Unmanaged.passRetained(registration)
        var handle = cdt_handle()
        guard cdt_chain_acquire(chain, object.toOpaque(), registration.order, &handle) == 0 else {
            object.release()
            fatalError("FastDelegates: out of memory adding a target")
        }
        registration.handle = handle
        syncTarget(of: registration)
        // A prepared send may remember a span of a message now pending: it must look again.
        if enterOrHoldResponses(of: registration) { cdt_chain_touch(chain) }
    }

    /// Changes how `registration` holds its target (`target`).
    func setRetention(of registration: ChainRegistration, to retention: Retention, target: AnyObject) {
        if isDispatching, registration.hold != .weak, let held = registration.target { park(held) }
        registration.setRetention(retention, of: target)
        syncTarget(of: registration)
    }

    /// Mirrors the registration's hold into its C slot.
    private func syncTarget(of registration: ChainRegistration) {
        cdt_chain_set_target(chain, registration.handle, registration.heldTarget, registration.targetKind)
    }

    /// Removes `registration`'s entries and frees its slot.
    func release(_ registration: ChainRegistration) {
        let messages = dropPending(of: registration)
        guard let object = cdt_chain_release(chain, registration.handle, messages, messages.count) else { return }
        // Generation 0 is never live: the released handle can never name a slot again, even one
        // that a later acquisition gives the same generation after the counter wraps.
        registration.handle = cdt_handle(slot: 0, generation: 0)
        if isDispatching { park(registration) }
        Unmanaged<ChainRegistration>.fromOpaque(object).release()
    }

    /// Lets go of a released registration's target. A strong target is parked while a dispatch
    /// runs (its handler may be running); otherwise it may die here, running its deinit.
    func releaseTarget(of registration: ChainRegistration) {
        if isDispatching, registration.hold == .strong, let held = registration.target { park(held) }
        registration.releaseTarget()
    }

    /// Replaces `registration`'s responses with `responses`. A message entered stays entered
    /// (with its new handler), one pending stays pending; a new one is pending when its handler
    /// is not known to answer.
    func replaceResponses(of registration: ChainRegistration, with responses: [UInt32: AnyHandler]) {
        let old = registration.responses
        let wasPending = registration.pending.messages(in: old)
        for (message, handler) in old where responses[message] !== handler {
            if responses[message] == nil, !wasPending.contains(message) {
                removeEntry(registration, message: message)
            }
            if isDispatching { park(handler) }
        }
        registration.responses = responses
        // Pending handlers are numbered by their place among `responses`: numbered again.
        var held = PendingHandlers()
        var index = 0
        var addedPending = false
        for (message, handler) in responses {
            defer { index += 1 }
            let canHold = index < PendingHandlers.capacity
            if let oldHandler = old[message] {
                if wasPending.contains(message), canHold {
                    held.insert(index)
                } else if wasPending.contains(message) || oldHandler !== handler {
                    insertEntry(registration, message: message, handler: handler)
                }
            } else if handler.status == .unverified, canHold {
                held.insert(index)
                addedPending = true
            } else {
                insertEntry(registration, message: message, handler: handler)
            }
        }
        if !wasPending.isEmpty { pending.remove() }
        registration.pending = held
        if !held.isEmpty { pending.add(filter: held.filter(in: responses)) }
        if addedPending { cdt_chain_touch(chain) }
    }

    /// Moves `registration` to its new sort key (`order`), re-placing its entries.
    func move(_ registration: ChainRegistration) {
        let held = registration.pending
        for (index, message) in registration.responses.keys.enumerated() where !held.contains(index) {
            removeEntry(registration, message: message)
        }
        cdt_chain_set_order(chain, registration.handle, registration.order)
        for (index, (message, handler)) in registration.responses.enumerated() where !held.contains(index) {
            insertEntry(registration, message: message, handler: handler)
        }
    }

    /// Mirrors `registration`'s new sort key (which keeps it where it is relative to the
    /// others) into its C slot.
    func renumber(_ registration: ChainRegistration) {
        cdt_chain_set_order(chain, registration.handle, registration.order)
    }

    /// Closes gaps in the slot array once enough slots are free, and refreshes the handles.
    func compactIfNeeded() {
        guard cdt_chain_compact(chain) == 1 else { return }
        forEachSlotObject { slot, object in
            object.takeUnretainedValue().handle.slot = slot
        }
    }

    /// Reclaims what the finished dispatches left: the C table's retired arrays and orphans, and
    /// the objects parked here. Returns whether the dispatches parked objects or met dead
    /// targets (work of the chain's own).
    ///
    /// A parked target may die here and its deinit use the chain (send, and so park and finish
    /// again), so the objects are dropped outside any access to `graveyard`.
    func finishDispatch() -> Bool {
        cdt_chain_reclaim(chain)
        guard !graveyard.isEmpty else { return deadFound != 0 }
        var parked: [AnyObject] = []
        swap(&parked, &graveyard)
        parked.removeAll(keepingCapacity: true)
        if graveyard.isEmpty { swap(&parked, &graveyard) } // keep the capacity for next time
        return true
    }

    var stats: cdt_chain_stats {
        var stats = cdt_chain_stats()
        cdt_chain_get_stats(chain, &stats)
        return stats
    }

    /// 0 when every invariant of the C table holds, else the first broken one's
    /// `cdt_invariant_violation` code.
    var invariantViolation: Int32 { Int32(cdt_chain_check_invariants(chain).rawValue) }

    /// Test hook: see `cdt_chain_debug_set_next_generation`.
    func setNextGeneration(_ next: UInt32) {
        cdt_chain_debug_set_next_generation(chain, next)
    }

    private func park(_ object: AnyObject) {
        graveyard.append(object)
        cdt_chain_mark_pending(chain)
    }

    func insertEntry(_ registration: ChainRegistration, message: UInt32, handler: AnyHandler) {
        let pointer = UnsafeRawPointer(Unmanaged.passUnretained(handler).toOpaque())
        guard cdt_chain_insert_entry(chain, registration.handle, message, pointer) == 0 else {
            fatalError("FastDelegates: out of memory registering a handler")
        }
    }

    private func removeEntry(_ registration: ChainRegistration, message: UInt32) {
        // Fails only during a dispatch, when the copy a removal needs cannot be allocated.
        guard cdt_chain_remove_entry(chain, registration.handle, message) == 0 else {
            fatalError("FastDelegates: out of memory removing a handler")
        }
    }

    func forEachSlotObject(_ body: (UInt32, Unmanaged<ChainRegistration>) -> Void) {
        let slots = chain.pointee.slots
        for index in 0..<chain.pointee.slot_count {
            guard let slots, slots[Int(index)].generation != 0, let object = slots[Int(index)].object else { continue }
            body(index, Unmanaged<ChainRegistration>.fromOpaque(object))
        }
    }

    /// Begins a dispatch: until the matching ``leave()``, no entry array it reads is freed or
    /// rewritten.
    @inlinable @inline(__always)
    func enter() { cdt_chain_enter(chain) }

    /// Ends a dispatch. Returns true when it was the outermost and work waits for the chain's
    /// `finishDispatch()`: one test when nothing does.
    @inlinable @inline(__always)
    func leave() -> Bool { cdt_chain_leave(chain) != 0 }

    /// The responders of `message`, in order, for a walk between ``enter()`` and ``leave()``.
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    func responders<Input, Output>(of message: Message<Input, Output>) -> Responders {
        Responders(cdt_chain_lookup(chain, message.id))
    }

    /// The entries of one message's responders, from `start` up to `end` (both nil when there
    /// are none), as a walk reads them.
    @usableFromInline
    struct Responders {
        @usableFromInline let start: UnsafePointer<cdt_entry>?
        @usableFromInline let end: UnsafePointer<cdt_entry>?

        @inlinable @inline(__always)
        init(start: UnsafePointer<cdt_entry>?, end: UnsafePointer<cdt_entry>?) {
            self.start = start
            self.end = end
        }

        /// The entries of `span`.
        @inlinable @inline(__always)
        init(_ span: cdt_span) {
            start = span.entries
            // Nil and 0 for no responders give nil; no branch.
            end = UnsafePointer(
                bitPattern: UInt(bitPattern: span.entries) &+ UInt(span.count) &* UInt(MemoryLayout<cdt_entry>.stride))
        }
    }

    /// Calls `body` with each live responder in `responders` (read between ``enter()`` and
    /// ``leave()``) in order, until it returns true.
    ///
    /// Reads the C table with no allocation, lock, string work or cast. A responder removed
    /// while this runs is skipped from then on; one added is not visited.
    /// - Returns: whether `body` stopped the walk.
    @inlinable @inline(__always)
    func forEachResponder<Input, Output>(
        in responders: Responders, _ body: (AnyObject, Handler<Input, Output>) -> Bool
    ) -> Bool {
        guard responders.start != responders.end else { return false }
        // Responders that are not empty have entries, an entry a slot address and a handler, a
        // live slot an object, and a STRONG or ZEROING slot a target (cdt_chain.h).
        var next = responders.start.unsafelyUnwrapped
        let end = responders.end.unsafelyUnwrapped
        repeat {
            // Read afresh for each entry: a handler that grew the slot array moved the addresses.
            let entry = next
            next += 1
            let slot = entry.pointee.slot_address.unsafelyUnwrapped
            guard slot.pointee.generation == entry.pointee.generation else { continue }
            let handler = Unmanaged<Handler<Input, Output>>.fromOpaque(entry.pointee.handler.unsafelyUnwrapped)
            let kind = slot.pointee.kind
            let outcome: Bool?
            if _fastPath(kind == CDT_TARGET_ZEROING.rawValue) {
                outcome = ZeroingHold.withTarget(at: slot.pointee.target.unsafelyUnwrapped) { target in
                    handler._withUnsafeGuaranteedRef { body(target, $0) }
                }
            } else if kind == CDT_TARGET_STRONG.rawValue {
                outcome = Unmanaged<AnyObject>.fromOpaque(slot.pointee.target.unsafelyUnwrapped)
                    ._withUnsafeGuaranteedRef { target in handler._withUnsafeGuaranteedRef { body(target, $0) } }
            } else {
                outcome = Unmanaged<ChainRegistration>.fromOpaque(slot.pointee.object.unsafelyUnwrapped)
                    ._withUnsafeGuaranteedRef { registration -> Bool? in
                        guard let target = registration.weakTarget else { return nil }
                        return handler._withUnsafeGuaranteedRef { body(target, $0) }
                    }
            }
            // No call was made when the target was dead, so `slot` still points into the array.
            guard let outcome else {
                noteDead(slot.pointee.object.unsafelyUnwrapped)
                continue
            }
            if outcome { return true }
        } while next != end
        return false
    }

    /// Marks the registration of a slot whose target was found dead, for the outermost leave.
    @usableFromInline @inline(never)
    func noteDead(_ object: UnsafeMutableRawPointer) {
        Unmanaged<ChainRegistration>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.isDead = true }
        deadFound &+= 1
        cdt_chain_mark_pending(chain)
    }
}
