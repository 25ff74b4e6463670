// A `@DelegateProxy` proxy registers a handler for every requirement of its protocol, and a
// listener usually implements a few: the others run the generated default, which declines. A
// handler not known to answer (`HandlerStatus.unverified`) is not entered into the C table when
// its registration is added: it stays *pending* (the registration's `pending`, counted per
// message in `DispatchTable.pending`) until something first needs the responders of its message
// (a send, a `responds(to:)`, a prepared message's refresh, an observed or forwarded walk), which
// enters the message's pending handlers first (`DelegateChain.enterPending(of:)`; a plain send
// of a `Message` enters every message's, so that a chain sent plain messages, as a hand-written
// forwarder sends them, leaves the slow path at its first send). An entry is
// placed by its slot's sort key, so entering late keeps registration order. A chain with pending
// handlers sets `needsSlowPath`, so a plain send reaches its out-of-line path, and each addition
// of one gives the table a new version, so a prepared send refreshes: the hot paths pay nothing.

/// Which registrations of a chain hold pending handlers (see the top of this file): how many, and
/// a filter of their messages (bit `id % 64` of each pending message's id is set), so that the
/// refresh of a message with no pending handler costs one test. Inline in the table: no
/// allocation. The filter may hold bits of messages entered since (until the next walk that
/// enters one rebuilds it), never lack one of a message pending.
struct PendingMessages {
    /// How many registrations hold a pending handler.
    private(set) var registrations = 0
    /// Bit `id % 64` of every pending message's id, and maybe of others.
    private(set) var filter: UInt64 = 0

    /// Whether no registration has a pending handler.
    var isEmpty: Bool { registrations == 0 }

    /// Whether some registration may hold a pending handler of `message`.
    func mayHold(_ message: UInt32) -> Bool {
        registrations != 0 && filter & PendingHandlers.filterBit(of: message) != 0
    }

    /// Counts a registration that now holds pending handlers, whose filter is `filter`.
    mutating func add(filter: UInt64) {
        registrations += 1
        self.filter |= filter
    }

    /// Counts one registration less with pending handlers.
    mutating func remove() {
        registrations -= 1
        if registrations == 0 { filter = 0 }
    }

    /// What a walk over every registration found pending: `registrations` of them, with the
    /// filters `filter` together.
    mutating func reset(registrations: Int, filter: UInt64) {
        self.registrations = registrations
        self.filter = registrations == 0 ? 0 : filter
    }
}

/// The handlers of one registration not entered into the C table yet: bit *i* stands for the
/// *i*-th message of its `responses` in their order of iteration, which holds while `responses`
/// is unchanged (every change of them goes through `DispatchTable.replaceResponses`, which
/// renumbers). Eight bytes in the registration, no allocation: only its first 64 messages can be
/// pending; a handler beyond them is entered at once, as one known to answer is.
struct PendingHandlers {
    private(set) var bits: UInt64 = 0

    /// The most handlers of a registration that can be pending.
    static let capacity = 64

    /// Whether every handler is entered.
    var isEmpty: Bool { bits == 0 }

    /// Marks the handler of the message at `index` (below ``capacity``) pending.
    mutating func insert(_ index: Int) { bits |= 1 << UInt64(index) }

    /// Whether the handler of the message at `index` is pending.
    func contains(_ index: Int) -> Bool { index < Self.capacity && bits & (1 << UInt64(index)) != 0 }

    /// The filter bit of `message` (see ``PendingMessages``).
    static func filterBit(of message: UInt32) -> UInt64 { 1 << UInt64(message & 63) }

    /// Where `message` is among `responses`' messages, when it is among the first ``capacity``.
    static func index(of message: UInt32, in responses: [UInt32: AnyHandler]) -> Int? {
        var index = 0
        for key in responses.keys {
            if index == capacity { return nil }
            if key == message { return index }
            index += 1
        }
        return nil
    }

    /// The filter bits of the pending messages among `responses`.
    func filter(in responses: [UInt32: AnyHandler]) -> UInt64 {
        var filter: UInt64 = 0
        var remaining = bits
        for key in responses.keys where remaining != 0 {
            if remaining & 1 != 0 { filter |= Self.filterBit(of: key) }
            remaining >>= 1
        }
        return filter
    }

    /// The pending messages among `responses`.
    func messages(in responses: [UInt32: AnyHandler]) -> [UInt32] {
        guard bits != 0 else { return [] }
        var messages: [UInt32] = []
        var remaining = bits
        for key in responses.keys where remaining != 0 {
            if remaining & 1 != 0 { messages.append(key) }
            remaining >>= 1
        }
        return messages
    }
}

extension ChainRegistration {
    /// Takes `message` out of the pending handlers; returns whether it was pending.
    func takePending(_ message: UInt32) -> Bool {
        guard !pending.isEmpty, let index = PendingHandlers.index(of: message, in: responses),
            pending.contains(index)
        else { return false }
        var left = pending
        left.remove(index)
        pending = left
        return true
    }

    /// Whether `message`'s handler is in the C table (not pending).
    func isEntered(_ message: UInt32) -> Bool {
        guard !pending.isEmpty, let index = PendingHandlers.index(of: message, in: responses) else { return true }
        return !pending.contains(index)
    }
}

extension PendingHandlers {
    /// Marks the handler of the message at `index` entered.
    mutating func remove(_ index: Int) { bits &= ~(1 << UInt64(index)) }
}

extension DispatchTable {
    /// Enters `registration`'s handlers of the messages it answers into the table, or leaves
    /// them pending when not known to answer: what `acquire` does once the registration has its
    /// slot.
    /// - Returns: whether some handler stays pending.
    func enterOrHoldResponses(of registration: ChainRegistration) -> Bool {
        var held = PendingHandlers()
        var index = 0
        for (message, handler) in registration.responses {
            if handler.status == .unverified, index < PendingHandlers.capacity {
                held.insert(index)
            } else {
                insertEntry(registration, message: message, handler: handler)
            }
            index += 1
        }
        guard !held.isEmpty else { return false }
        registration.pending = held
        pending.add(filter: held.filter(in: registration.responses))
        return true
    }

    /// Forgets the pending handlers of `registration`, which leaves the table; returns the
    /// messages whose handlers are entered.
    func dropPending(of registration: ChainRegistration) -> [UInt32] {
        let held = registration.pending
        guard !held.isEmpty else { return Array(registration.responses.keys) }
        registration.pending = PendingHandlers()
        pending.remove()
        var entered: [UInt32] = []
        var index = 0
        for message in registration.responses.keys {
            if !held.contains(index) { entered.append(message) }
            index += 1
        }
        return entered
    }

    /// Enters the pending handlers of `message`, if any (see the top of this file), those of live
    /// targets, at their registrations' places. Also during a dispatch: the running walks do not
    /// see them (as with any entry added then).
    /// - Returns: whether `message` had pending handlers.
    /// - Complexity: O(1) when `message` has none (but for a filter's rare false hit); else
    ///   O(*s* · *m*) for *s* slots and registrations of *m* messages, plus the insertions.
    func enterPending(of message: UInt32) -> Bool {
        guard pending.mayHold(message) else { return false }
        var found = false
        var registrations = 0
        var filter: UInt64 = 0
        forEachSlotObject { _, object in
            let registration = object.takeUnretainedValue()
            guard !registration.pending.isEmpty else { return }
            // One whose target died is never called: its handler is not entered.
            if registration.takePending(message) {
                found = true
                if !registration.isDead, registration.isAlive, let handler = registration.responses[message] {
                    insertEntry(registration, message: message, handler: handler)
                }
            }
            guard !registration.pending.isEmpty else { return }
            registrations += 1
            filter |= registration.pending.filter(in: registration.responses)
        }
        pending.reset(registrations: registrations, filter: filter)
        return found
    }

    /// Enters every pending handler (of live targets).
    func enterAllPending() {
        forEachSlotObject { _, object in
            let registration = object.takeUnretainedValue()
            let held = registration.pending
            guard !held.isEmpty else { return }
            registration.pending = PendingHandlers()
            guard !registration.isDead, registration.isAlive else { return }
            var index = 0
            for (message, handler) in registration.responses {
                if held.contains(index) { insertEntry(registration, message: message, handler: handler) }
                index += 1
            }
        }
        pending.reset(registrations: 0, filter: 0)
    }

    /// Whether some registration holds a pending handler.
    var hasPending: Bool { !pending.isEmpty }

    /// How many registrations hold a pending handler of `message`, for tests.
    func pendingCount(of message: UInt32) -> Int {
        var count = 0
        forEachSlotObject { _, object in
            let registration = object.takeUnretainedValue()
            if !registration.isEntered(message) { count += 1 }
        }
        return count
    }
}

extension DelegateChain {
    /// Enters the pending handlers of `message`, if any (see PendingEntries.swift): what every
    /// path that reads the responders of a message does first while `needsSlowPath` is set.
    @usableFromInline @inline(never)
    func enterPending(of message: UInt32) {
        guard table.enterPending(of: message) else { return }
        updateSlowPath()
    }

    /// Enters every pending handler: what a plain send of a ``Message`` does, so that a chain sent
    /// plain messages (a hand-written forwarder's) leaves the slow path at its first send, as
    /// before handlers were left pending. A proxy's prepared sends enter only their own message.
    @usableFromInline @inline(never)
    func enterAllPending() {
        guard table.hasPending else { return }
        table.enterAllPending()
        updateSlowPath()
    }

    /// Whether something observes the chain or it forwards a message: the reasons for the slow
    /// path besides pending handlers.
    @inlinable
    var isObservedOrForwarding: Bool { observers != nil || hasForwarders }

    /// Sets `needsSlowPath` from its reasons, after pending handlers came or went.
    func updateSlowPath() {
        let wanted = isObservedOrForwarding || table.hasPending
        if needsSlowPath != wanted { needsSlowPath = wanted }
    }
}
