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

/// How many registrations of a chain hold a pending handler of each message (see the top of this
/// file). Empty, with no allocation, while nothing is pending; a linear search over the messages
/// pending, as few as the requirements a proxy's listeners have not been sent yet.
struct PendingMessages {
    private struct Count {
        let message: UInt32
        var registrations: UInt32
    }
    private var counts: [Count] = []

    /// Whether no registration has a pending handler.
    var isEmpty: Bool { counts.isEmpty }

    /// How many registrations hold a pending handler of `message`.
    func count(of message: UInt32) -> Int {
        counts.first { $0.message == message }.map { Int($0.registrations) } ?? 0
    }

    /// Makes room for `messages` messages when none is pending (the first registration's).
    mutating func reserve(_ messages: Int) {
        if counts.isEmpty { counts.reserveCapacity(messages) }
    }

    /// Counts one more registration with a pending handler of `message`.
    mutating func add(_ message: UInt32) {
        if let index = counts.firstIndex(where: { $0.message == message }) {
            counts[index].registrations += 1
        } else {
            counts.append(Count(message: message, registrations: 1))
        }
    }

    /// Counts one registration less with a pending handler of `message`.
    mutating func remove(_ message: UInt32) {
        guard let index = counts.firstIndex(where: { $0.message == message }) else { return }
        counts[index].registrations -= 1
        if counts[index].registrations == 0 { counts.removeUnordered(at: index) }
    }

    /// The messages some registration holds a pending handler of.
    var messages: [UInt32] { counts.map(\.message) }

    /// Forgets every pending handler of `message`.
    mutating func removeAll(_ message: UInt32) {
        guard let index = counts.firstIndex(where: { $0.message == message }) else { return }
        counts.removeUnordered(at: index)
    }
}

extension ChainRegistration {
    /// Takes `message` out of the pending handlers; returns whether it was pending.
    func takePending(_ message: UInt32) -> Bool {
        guard let index = pending?.firstIndex(of: message) else { return false }
        if pending!.count == 1 {
            pending = nil
        } else {
            pending!.removeUnordered(at: index)
        }
        return true
    }

    /// Whether `message`'s handler is in the C table (not pending).
    func isEntered(_ message: UInt32) -> Bool {
        pending?.contains(message) != true
    }
}

extension Array {
    /// Removes the element at `index` in O(1), the last one taking its place.
    fileprivate mutating func removeUnordered(at index: Int) {
        swapAt(index, count - 1)
        removeLast()
    }
}

extension DispatchTable {
    /// Records `message`'s handler (not entered) as pending for `registration`. The first one
    /// makes room for every handler of `registration`, with one allocation each for its record
    /// and the chain's.
    func addPending(_ registration: ChainRegistration, message: UInt32) {
        if registration.pending == nil {
            var messages: [UInt32] = []
            messages.reserveCapacity(registration.responses.count)
            registration.pending = messages
            pending.reserve(registration.responses.count)
        }
        registration.pending!.append(message)
        pending.add(message)
    }

    /// Whether some registration holds a pending handler.
    var hasPending: Bool { !pending.isEmpty }

    /// The pending handlers of the chain, per message, for tests.
    func pendingCount(of message: UInt32) -> Int { pending.count(of: message) }
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
        for message in table.pending.messages { _ = table.enterPending(of: message) }
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
