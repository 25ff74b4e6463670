// The `async` calls a ConcurrentDelegateChain has committed and that have not ended, and the
// removals awaiting them (`removeAwaitingCalls`). Kept per chain, keyed by the target's identity
// rather than by registration, so that a removal waits for calls committed through a registration
// that is already removed (by a token, `remove`, `removeAll`, or before a re-add) as well as
// through the live one; a call committed through a chain that forwards to this one is committed
// here, under this chain's mutex, like any other; and a call this chain reaches through a nested
// proxy is committed in the proxy's chain and counted here as a call of the proxy. A committed call holds its target strongly
// until it ends, so no other object can have the identity of a target with a call in the ledger.

/// The identity of the running task (0 outside a task): a committed call belongs to the task
/// that awaits it; a task it spawns is another task.
func currentTaskIdentity() -> UInt {
    withUnsafeCurrentTask { task in
        // `UnsafeCurrentTask` is one reference to the task object; its bits identify the task
        // while it runs, which covers every use here (a call's commitment, a waiting removal).
        task.map { unsafeBitCast($0, to: UInt.self) } ?? 0
    }
}

/// The committed `async` calls of one chain and the removals awaiting them. Under the chain's mutex.
struct AsyncCallLedger: Sendable {
    /// One committed call: whose it is, and the task that awaits it.
    struct Call: Sendable {
        let target: ObjectIdentifier
        let task: UInt
    }

    /// A removal awaiting the calls of `target` committed up to `upTo`, except those of `task`
    /// (the awaiting listener's own calls in the awaiting task).
    struct Waiter: Sendable {
        let id: UInt64
        let target: ObjectIdentifier
        let task: UInt
        let upTo: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The calls not ended yet, by commitment serial.
    private(set) var calls: [UInt64: Call] = [:]
    private(set) var waiters: [Waiter] = []
    private var nextSerial: UInt64 = 1

    /// Records a call of `target` awaited by `task`; returns its commitment serial.
    mutating func commit(_ target: ObjectIdentifier, task: UInt) -> UInt64 {
        let serial = nextSerial
        nextSerial += 1
        calls[serial] = Call(target: target, task: task)
        return serial
    }

    /// The last serial handed out: a waiter registered now waits for calls up to it.
    var lastSerial: UInt64 { nextSerial - 1 }

    /// A fresh serial for a waiter (shares the counter: waiter ids never collide).
    mutating func makeWaiterID() -> UInt64 {
        defer { nextSerial += 1 }
        return nextSerial
    }

    /// Whether no call of `target` committed up to `upTo` runs, other than `task`'s own.
    func isDrained(_ target: ObjectIdentifier, upTo: UInt64, except task: UInt) -> Bool {
        !calls.contains { serial, call in serial <= upTo && call.target == target && call.task != task }
    }

    /// How many calls not ended yet are `target`'s.
    func count(of target: ObjectIdentifier) -> Int {
        calls.values.reduce(0) { $0 + ($1.target == target ? 1 : 0) }
    }

    mutating func append(_ waiter: Waiter) {
        waiters.append(waiter)
    }

    /// Ends the call `serial`; returns the waiters it lets go, to resume after the mutex.
    mutating func end(_ serial: UInt64) -> [CheckedContinuation<Void, any Error>] {
        guard let call = calls.removeValue(forKey: serial), !waiters.isEmpty else { return [] }
        var ready: [CheckedContinuation<Void, any Error>] = []
        var waiting: [Waiter] = []
        for waiter in waiters {
            if waiter.target == call.target, isDrained(waiter.target, upTo: waiter.upTo, except: waiter.task) {
                ready.append(waiter.continuation)
            } else {
                waiting.append(waiter)
            }
        }
        waiters = waiting
        return ready
    }

    /// Takes the waiter `id` out, if it still waits (its task was cancelled).
    mutating func takeWaiter(_ id: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
