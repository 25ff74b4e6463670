import Synchronization

/// A thread-safe ``DelegateChain``: many threads may send at once while others add, remove,
/// and let targets die.
///
/// ```swift
/// let chain = ConcurrentDelegateChain()                 // or ConcurrentDelegateChain(mode: .breaking)
/// let token = chain.add(analytics)                      // from any thread
/// chain.send(Scroll.didScroll, 12.5)                    // from any thread, concurrently
/// ```
///
/// It has the API and the semantics of ``DelegateChain``: registration order (with
/// ``SendableDelegateRegistering/insert(_:at:retention:responses:)``), a target added twice is one target with merged
/// responses, weak targets by default (``Retention/strong`` on request), dead targets skipped and
/// reclaimed, breaking or non-breaking void messages, the first live responder's answer (`nil`
/// or a default when nobody answers, never a trap), and handlers that may mutate the chain and
/// send (a removal takes effect at once, an addition from the next dispatch).
///
/// Threads:
/// - A handler runs synchronously on the thread that called `send`. Handlers of sends on
///   different threads run concurrently, so a target that listens to sends from several threads
///   must itself be thread-safe.
/// - No lock is held while a handler runs: handlers may add, remove, and send.
/// - A send never takes a lock, never waits for another send or for a mutation, and never
///   allocates: it announces itself and each call in its own thread's record, walks the chain's
///   current immutable snapshot, and leaves; sends on different threads write no memory in
///   common. Mutations take a mutex, build a new snapshot, and publish it; a displaced snapshot
///   is released once the last dispatch that may walk it has ended.
/// - Where the OS offers a process-wide memory barrier (Linux `membarrier`), a send makes no
///   atomic read-modify-write and no hardware fence of its own (see ``hasFenceFreeSends``);
///   the mutations pay instead, one or two system calls each (microseconds), while more than one
///   thread has sent on a concurrent chain. Elsewhere a send pays a full fence on entering and
///   around each call. So the type suits many sends and few mutations, the shape of delegate
///   traffic.
/// - A send that races a mutation sees the chain either entirely as it was before the mutation
///   or entirely as it is after, never a mix; a removal additionally applies to sends already
///   running (see ``remove(_:)``).
/// - Once ``remove(_:)`` (or ``removeAll()``, or a token's ``ConcurrentDelegateToken/cancel()``)
///   has returned, the removed target receives nothing more from any thread: a call that another
///   thread had already started has finished. The exception is a removal made from inside a
///   handler (of any concurrent chain): it does not wait for calls running on other threads,
///   since two handlers removing each other's targets would otherwise wait for each other
///   forever; it still stops every call not yet started, on every thread. A call of an `async`
///   requirement of a `@DelegateProxy` protocol counts as started once a send commits to it, and
///   ``remove(_:)`` does not wait for it: ``removeAwaitingCalls(_:isolation:)`` does.
///
/// Cost, for *n* targets answering *e* (target, message) pairs in all and *r* reader records
/// (one per living thread that has sent on a concurrent chain: a thread that ends gives its
/// record back, also from inside a handler), measured in a release build through the public API with 1,000 targets answering
/// 2 messages each, on a shared 2-core Linux x86_64 machine while other builds ran (compare
/// ratios, not absolute times):
/// - `send`: O(1) expected to find the responders, then one call per live responder; no lock,
///   no allocation. Measured: 86 µs to 1,000 targets.
/// - `add` (``SendableDelegateRegistering``) and ``remove(_:)``: O(*n* + *e*) under the mutex to
///   rebuild the snapshot, plus a process-wide barrier and a scan of the *r* records (and, for a
///   removal, the wait for running calls of the target). Measured: 0.44 to 1.8 ms per mutation
///   with no handler running (from run to run, with the machine's load); on a chain of one
///   target, 1.8 to 4.2 µs before and 1.5 to 3.0 µs after 2,000 threads had sent at once and
///   ended (220 µs after, while ended threads kept their records).
/// - Mutating while another thread runs a handler of this chain: that thread's send holds the
///   snapshot it started with, and each snapshot published and replaced meanwhile is released by
///   the next mutation, so the chain holds about three snapshots (O(*n* + *e*) memory each), not
///   one per mutation. Measured, in two runs: 0.59 and 1.4 ms per mutation (0.70 and 1.6 ms with
///   no handler running, in the same runs), and 20,000 mutations during one handler grew the
///   process by 0 MB (before this bound: 2.4 ms per mutation and 2,615 MB).
/// - Mutating from inside a handler (of any concurrent chain): each mutation releases the
///   snapshots displaced before it that no send reads, so the thread's own send holds its one
///   (or two) and the chain keeps about as many as above, not one per mutation. The handlers
///   and strong targets those snapshots held, and those the mutation itself took out of the
///   chain (whose reference may be the last one, when another thread's reclaim released the
///   displaced snapshot first), are parked in the thread's record (each once) until its
///   outermost send returns, so that their deinits run outside every send: O(1) memory per
///   distinct removed handler or target, nothing per mutation. Measured: 2,000 add/remove pairs
///   inside one handler on 100 listeners leave 2 retired snapshots (2,000 before).
/// - The worst case is a long dispatch that may read any newer snapshot: a send of this chain
///   nested in a handler of it (or in a handler more than three sends deep) holds every snapshot
///   displaced while it runs, O(*n* + *e*) memory per mutation made meanwhile, released by the
///   first mutation after it returns. It cannot hold just one: it must see what the handler
///   added before it, so it loads the newest snapshot, not its outer send's, and its thread's
///   record names the chain at its level, not the snapshot it loaded (naming it would take an
///   epoch per level and a re-check in every nested send).
///
/// Handlers are `@Sendable`, since they run on whatever thread sends: the chain takes
/// ``SendableResponses`` and ``AnySendableResponder`` only, and a ``DelegateResponder`` whose
/// `responses` are ``SendableResponses``. The compiler rejects a handler that captures
/// non-`Sendable` state or calls an actor's isolated methods.
///
/// A weakly held native Swift class is on the same zeroing fast path as in ``DelegateChain``
/// (an unowned reference, each call under `swift_tryRetain`), thread-safe: a target whose last
/// release happens on another thread mid-send finishes its call alive and is never called
/// again.
public final class ConcurrentDelegateChain: Sendable, SendableDelegateRegistering, InvocationObserving {
    /// Whether a void message stops at its first responder (the same modes as ``DelegateChain``).
    public typealias Mode = DelegateChain.Mode

    /// This chain's dispatch mode for void messages.
    public let mode: Mode

    // The one-byte properties together, after `mode`: the chain is one word smaller.

    /// Set by a send that met a dead target; the next send or mutation reclaims it.
    @usableFromInline
    let needsSweep = Atomic<Bool>(false)

    /// Whether a send takes the slow path: some stream observes this chain's sends, or it holds a
    /// nested proxy's handlers (``add(_:nesting:retention:)``). Any other send pays one relaxed
    /// load for both. Written under `observers`' lock.
    @usableFromInline
    let observed = Atomic<Bool>(false)

    /// Whether some stream observes this chain's sends. Written under `observers`' lock.
    @usableFromInline
    let observing = Atomic<Bool>(false)

    /// Whether some registration ever held a nested proxy's handlers, which the slow path walks
    /// in their target's place. Set once, under `observers`' lock.
    @usableFromInline
    let forwards = Atomic<Bool>(false)

    /// The published snapshot: what sends read.
    @usableFromInline
    let cell: SnapshotCell

    /// The process-wide read side (`ReadSide.shared`), held so a send reaches it directly.
    @usableFromInline
    let readSide = ReadSide.shared

    /// The registrations in dispatch order, and the indexes into them. Only mutations and the
    /// inspecting properties take this lock, never a send.
    private let state = Mutex(State())

    /// Bumped at the end of every critical section and read at the start of the next: see
    /// ``locked(_:)``.
    private let handoff = Atomic<UInt64>(0)

    /// The streams observing this chain's sends (nil while none does), under their own lock:
    /// sends on any thread notify them, streams end on any thread.
    let observers = HandoffMutex<ObserverTable?>(nil)

    struct State: Sendable {
        /// The registration model ``DelegateChain`` uses too: order, indexes, sweep rules.
        var list = RegistrationList<ConcurrentRegistration>()
        /// Removed registrations whose calls may still be running on some thread: a second
        /// remover of the same target (or token, or a `removeAll`) waits for them too. Pruned
        /// of drained ones at every removal.
        var draining: [ConcurrentRegistration] = []
        /// The `async` calls committed to targets and not ended, by target, and the removals
        /// awaiting them.
        var asyncCalls = AsyncCallLedger()

        /// Drops the drained registrations; returns those still draining that `matches`.
        ///
        /// A registration is drained once a remover waited for its calls. Those removed from
        /// inside a handler (whose remover does not wait) are checked with a scan of the call
        /// slots once they number `drainingScanThreshold`, so the list stays bounded.
        mutating func stillDraining(
            _ matches: (ConcurrentRegistration) -> Bool, readSide: ReadSide
        ) -> [ConcurrentRegistration] {
            draining.removeAll { $0.drained.load(ordering: .acquiring) }
            if draining.count >= ConcurrentDelegateChain.drainingScanThreshold {
                draining = stillCalled(draining, readSide)
            }
            return draining.filter(matches)
        }
    }

    /// Whether sends on this platform pay no hardware fence: true where the OS offers a
    /// process-wide memory barrier (Linux `membarrier`), which each mutation then pays instead
    /// (while more than one thread has sent on some concurrent chain). Where false, every send
    /// and every handler call pays a full fence.
    public static var hasFenceFreeSends: Bool { ReadSide.shared.asymmetric }

    /// How many undrained registrations `State.stillDraining` lets accumulate before it scans.
    static let drainingScanThreshold = 32

    /// An empty chain.
    public init(mode: Mode = .nonBreaking) {
        self.mode = mode
        cell = SnapshotCell(ConcurrentSnapshot.empty)
    }

    // MARK: - Adding

    /// Adds `responder`'s target, answering its `@Sendable` handlers, at live index `index` of
    /// ``targets`` (at the end when nil): what every `add` and `insert` overload of
    /// ``SendableDelegateRegistering`` calls.
    ///
    /// If the target is already in the chain it stays one target: its responses are merged with
    /// these (new handlers win), its retention becomes `retention`, and a non-nil `index` moves
    /// it there (counted among the other targets). Sends that start after this returns see the
    /// change; sends already running do not.
    /// - Precondition: `index` is nil or `0 <= index <= targets.count` (not counting the target).
    /// - Returns: a token whose ``ConcurrentDelegateToken/cancel()`` removes the target.
    /// - Complexity: O(*n* + *e*) for *n* targets answering *e* (target, message) pairs: the
    ///   chain's snapshot is rebuilt under its mutex.
    @inlinable @discardableResult
    public func register(_ responder: AnySendableResponder, retention: Retention, at index: Int?)
        -> ConcurrentDelegateToken
    {
        // The token is made here, in the caller's code: a caller that drops it lets the optimizer
        // keep it on the stack.
        ConcurrentDelegateToken(chain: self, serial: registerSerial(responder, retention: retention, at: index))
    }

    /// What ``register(_:retention:at:)`` does but make the token: returns the registration's
    /// serial.
    @usableFromInline
    func registerSerial(_ responder: AnySendableResponder, retention: Retention, at index: Int?) -> UInt64 {
        let insertion = insert(responder.target, retention: retention, handlers: responder.handlers, at: index)
        finishInsertion(insertion)
        return insertion.serial
    }

    // MARK: - Removing

    /// Removes `target`; it receives nothing more, even from a dispatch already running.
    ///
    /// When this returns, no thread will call `target` again from this chain, and calls that
    /// other threads had already started have returned, also when this returns false because
    /// another thread removed `target` first (it waits for the same calls). The exception is a
    /// call from inside a handler: then calls already running on other threads may still be
    /// finishing (see the type's notes). Does nothing else if `target` is not in the chain.
    ///
    /// For the `async` requirements of a `@DelegateProxy` protocol, "started" means committed:
    /// once this returns no send commits a new call to `target`, but a call committed before may
    /// still be running, or suspended, and this does not wait for it (blocking a thread on a
    /// suspended call could wait forever): ``removeAwaitingCalls(_:isolation:)`` waits for those too.
    ///
    /// Because it waits for `target`'s running calls, a handler of `target` must not make this
    /// call wait for the handler itself:
    /// - A synchronous hop to another thread that removes the handler's own target, such as
    ///   `DispatchQueue.main.sync { chain.remove(self) }` in a handler running on a background
    ///   thread, waits forever: the main thread waits for the handler's call to end, and the
    ///   handler waits for the main thread. (Inside the handler's own thread the removal does
    ///   not wait; hop asynchronously, or remove from the handler itself.)
    /// - Removing while holding a lock that `target`'s handler takes waits forever once a
    ///   handler call is blocked on that lock: release the lock first.
    /// - Returns: whether `target` was in the chain.
    /// - Complexity: O(*n* + *e*), plus the wait for running calls of `target`'s handlers (a
    ///   brief spin, then the thread blocks until the last call ends).
    @discardableResult
    public func remove(_ target: AnyObject) -> Bool {
        let identity = ObjectIdentifier(target)
        let (removed, draining, garbage) = locked { state -> (Bool, [ConcurrentRegistration], Garbage) in
            var garbage = Garbage()
            let swept = Self.sweepDead(&state, garbage: &garbage)
            guard let registration = Self.liveRegistration(of: target, in: &state, garbage: &garbage) else {
                if swept { publish(&state, garbage: &garbage) }
                // Removed by another thread, whose calls may still run: wait for them as well.
                return (false, state.stillDraining({ $0.identity == identity }, readSide: readSide), garbage)
            }
            Self.unregister(registration, from: &state, garbage: &garbage)
            publish(&state, garbage: &garbage)
            return (true, state.stillDraining({ $0.identity == identity }, readSide: readSide), garbage)
        }
        dispose(garbage)
        finishRemoval(waitingFor: draining)
        return removed
    }

    /// Removes `target`, as ``remove(_:)`` does, and then waits, without blocking a thread, for
    /// the calls of `async` requirements of a `@DelegateProxy` protocol that sends had already
    /// committed to `target`: once it returns, no call of `target` is running or will start.
    ///
    /// ``remove(_:)`` waits for synchronous calls only: a call of an `async` requirement may be
    /// suspended for as long as the listener's method awaits, and waiting for it by blocking a
    /// thread could wait forever (for a `@MainActor` listener, blocking the main thread that
    /// the call needs). Once ``remove(_:)`` returns, no send commits a new call to `target`; a
    /// call committed before it (the send had checked that `target` implements the requirement)
    /// may still start and run to its end. This method also awaits those:
    /// - every call of `target` committed on this chain, through any registration: the live one,
    ///   and those already removed (by a token's ``ConcurrentDelegateToken/cancel()``,
    ///   ``remove(_:)``, ``removeAll()`` or another task, also before `target` was added again),
    ///   so it waits even when it returns false;
    /// - calls committed through a chain that forwards the requirement to this one (a
    ///   ``DelegateChain`` whose handler is ``Responses/forwarding(_:)``): such a send checks and
    ///   commits the call in one step under this chain's mutex, so a removal either sees the call
    ///   and waits for it, or the call is never made;
    /// - when `target` is a nested proxy (added with ``add(_:nesting:retention:)``), the calls
    ///   reached through it: each is committed in the proxy's chain (whose
    ///   ``removeAwaitingCalls(_:isolation:)`` of the listener waits for it) and then counted in
    ///   this one as a call of `target`, under this chain's mutex, or not made if `target` was
    ///   removed in between; so this waits for every call through `target` committed before the
    ///   removal, at any depth of nesting below it.
    ///
    /// The one exception is the awaiting listener's own calls: called from inside `target`'s own
    /// `async` call on this chain (the listener removing itself), it does not wait for the calls
    /// of `target` on this chain that the calling task itself is running (all of them, when that
    /// call sent a nested one that removes), since they cannot end before it returns. It still
    /// waits for every other call: those on other tasks, a task spawned by the call (`Task {}`
    /// inherits no exemption), and, from inside a call on another chain, every call on this one.
    ///
    /// Cancelling the waiting task ends the wait at once: the method then throws
    /// `CancellationError`, and calls of `target` may still be running (the removal itself has
    /// happened). It also throws at once when the task was cancelled before the call.
    /// - Returns: whether `target` was in the chain.
    /// - Throws: `CancellationError` when the task is cancelled before the calls ended: it did
    ///   not wait for them.
    /// - Complexity: ``remove(_:)``, then O(*c*) per call that ends while it waits, for *c*
    ///   calls committed on this chain and not ended.
    @discardableResult
    public func removeAwaitingCalls(
        _ target: AnyObject, isolation: isolated (any Actor)? = #isolation
    ) async throws -> Bool {
        let removed = remove(target)
        let identity = ObjectIdentifier(target)
        let task = currentTaskIdentity()
        let waiterID = locked { state in state.asyncCalls.makeWaiterID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = locked { state -> Bool? in
                    // Cancelled before the waiter is in the ledger: the handler found nothing to end.
                    if Task.isCancelled { return false }
                    let upTo = state.asyncCalls.lastSerial
                    if state.asyncCalls.isDrained(identity, upTo: upTo, except: task) { return true }
                    state.asyncCalls.append(
                        AsyncCallLedger.Waiter(
                            id: waiterID, target: identity, task: task, upTo: upTo, continuation: continuation))
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiter = locked { state in state.asyncCalls.takeWaiter(waiterID) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        return removed
    }

    /// Removes every target; none receives anything more (as ``remove(_:)``).
    ///
    /// Waits, as ``remove(_:)`` does, for the running calls of every target it removed and of
    /// every target other threads removed whose calls are still running; the same handler
    /// rules apply (no synchronous hop to a thread that calls this, no lock a handler takes).
    /// - Complexity: O(*n*), plus the wait for running calls.
    public func removeAll() {
        let (removed, garbage) = locked { state -> ([ConcurrentRegistration], Garbage) in
            var garbage = Garbage()
            let removed = state.list.removeAll()
            for registration in removed { Self.retire(registration, garbage: &garbage) }
            garbage.items.append(removed)
            state.draining.append(contentsOf: removed)
            publish(&state, garbage: &garbage)
            return (state.stillDraining({ _ in true }, readSide: readSide), garbage)
        }
        dispose(garbage)
        finishRemoval(waitingFor: removed)
    }

    // MARK: - Inspecting

    /// The live targets, in dispatch order, at one instant: `Sendable`, as every registration
    /// requires.
    /// - Complexity: O(*n*), under the chain's mutex.
    public var targets: [any AnyObject & Sendable] {
        locked { state in
            state.list.entries.compactMap { $0.isUnlisted ? nil : $0.target }
        }
    }

    /// How many live targets the chain has.
    /// - Complexity: O(*n*): each weak target is checked, under the chain's mutex.
    public var count: Int {
        let (count, garbage) = locked { state -> (Int, Garbage) in
            var garbage = Garbage()
            let count = state.list.entries.reduce(0) { $0 + (!$1.isUnlisted && Self.isAlive($1, &garbage) ? 1 : 0) }
            return (count, garbage)
        }
        dispose(garbage)
        return count
    }

    /// Whether the chain has no live target, at one instant.
    /// - Complexity: O(*n*) when the first targets are dead, else O(1), under the chain's mutex.
    public var isEmpty: Bool {
        let (empty, garbage) = locked { state -> (Bool, Garbage) in
            var garbage = Garbage()
            let empty = !state.list.entries.contains { !$0.isUnlisted && Self.isAlive($0, &garbage) }
            return (empty, garbage)
        }
        dispose(garbage)
        return empty
    }

    /// Whether `target` is in the chain.
    /// - Complexity: O(1) expected, under the chain's mutex.
    public func contains(_ target: AnyObject) -> Bool {
        retention(of: target) != nil
    }

    /// How `target` is held, or nil if it is not in the chain.
    /// - Complexity: O(1) expected, under the chain's mutex.
    public func retention(of target: AnyObject) -> Retention? {
        let target = Unchecked(target)
        return locked { state -> Retention? in
            state.list.lookup(target.value).live?.retention
        }
    }

    // MARK: - Observing

    /// A stream of every send of `message` through this chain, from now on, seen at `timing`
    /// (see ``InvocationObserving``), on the sending thread.
    ///
    /// Sends on several threads are all seen; the order of two sends made at the same time on
    /// different threads is the order in which they reached the observers' lock.
    /// - Complexity: while nothing observes the chain, a send pays one relaxed atomic load for
    ///   this; while something does, a send takes the observers' lock once (twice when a stream
    ///   sees it after the responders).
    public func invocations<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        observers.withLock { observers -> AsyncStream<Element> in
            let stream = ObserverTable.stream(
                of: message, timing: timing, in: &observers, bufferingPolicy: bufferingPolicy)
            observing.store(true, ordering: .relaxed)
            observed.store(true, ordering: .relaxed)
            return stream
        }
    }

    /// Hands a send to the streams observing it before the responders; out of line so that a
    /// send nobody observes pays only the flag's load.
    /// - Returns: whether some stream observes `message` after the responders.
    @usableFromInline @inline(never)
    func notifyObservers<Input, Output>(_ message: Message<Input, Output>, _ input: Input) -> Bool {
        let input = Unchecked(input)
        return observers.withLock { observers -> Bool in
            guard let existing = observers else { return false }
            existing.notify(message, input.value)
            // Every stream ended: sends stop paying for observation (not for nested proxies).
            if existing.isEmpty {
                observers = nil
                observing.store(false, ordering: .relaxed)
                observed.store(forwards.load(ordering: .relaxed), ordering: .relaxed)
            }
            return existing.afterResponders[message.id] != nil
        }
    }

    /// Hands a send's input and first answer to the streams observing it after the responders.
    @usableFromInline @inline(never)
    func notifyObserversAfterResponders<Input, Output>(
        _ message: Message<Input, Output>, _ invocation: Invocation<Input, Output>
    ) {
        let invocation = Unchecked(invocation)
        observers.withLock { observers in
            observers?.notifyAfterResponders(message, invocation.value)
        }
    }

    // MARK: - Internals

    /// Runs `body` under the chain's mutex.
    ///
    /// When contended, `Mutex` on Linux hands the lock over inside the kernel (a priority-
    /// inheriting futex), which ThreadSanitizer cannot see; it would then report the critical
    /// sections as racing. A release-increment of `handoff` at the end of each critical section,
    /// read with acquire at the start of the next, states the ordering the mutex already gives
    /// (two uncontended atomic operations per mutation, none per send).
    func locked<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { state in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.wrappingAdd(1, ordering: .releasing) }
            return body(&state)
        }
    }

    /// Runs `body` under the chain's mutex if it is free (as ``locked(_:)``); nil if it is not.
    private func lockedIfAvailable<Result: Sendable>(_ body: (inout State) -> Result) -> Result? {
        state.withLockIfAvailable { state in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.wrappingAdd(1, ordering: .releasing) }
            return body(&state)
        }
    }

    /// Removes the registration a token made, if it is still in the chain.
    func removeRegistration(serial: UInt64) {
        let (draining, garbage) = locked { state -> ([ConcurrentRegistration], Garbage) in
            var garbage = Garbage()
            if let registration = state.list.entry(serial: serial) {
                Self.unregister(registration, from: &state, garbage: &garbage)
                publish(&state, garbage: &garbage)
            }
            // Also when another thread removed it first: its calls may still run.
            return (state.stillDraining({ $0.serial == serial }, readSide: readSide), garbage)
        }
        dispose(garbage)
        finishRemoval(waitingFor: draining)
    }

    /// Reclaims dead targets a send met, if the mutex is free (a send never waits for it).
    @usableFromInline
    func sweepIfUncontended() {
        let garbage = lockedIfAvailable { state -> Garbage in
            var garbage = Garbage()
            needsSweep.store(false, ordering: .relaxed)
            if Self.sweepDead(&state, garbage: &garbage) { publish(&state, garbage: &garbage) }
            return garbage
        }
        dispose(garbage)
        if garbage != nil { reclaimRetired() }
    }

    /// What ``insert(_:retention:handlers:at:)`` did under the mutex, for
    /// ``finishInsertion(_:)`` to end after it.
    struct Insertion: Sendable {
        let serial: UInt64
        let garbage: Garbage
    }

    /// The part of an add made under the chain's mutex: runs no user code, so a nesting add may
    /// make it under `ConcurrentNesting.lock`.
    func insert(
        _ target: any AnyObject & Sendable, retention: Retention, handlers: [UInt32: AnyHandler], at index: Int?
    ) -> Insertion {
        if !forwards.load(ordering: .relaxed), handlers.values.contains(where: \.forwards) {
            // Before the snapshot that holds them: see `Handler.init(forwarding:calledDirectly:)`.
            observers.withLock { _ in
                forwards.store(true, ordering: .relaxed)
                observed.store(true, ordering: .relaxed)
            }
        }
        let request = Unchecked((target, handlers))
        let (serial, garbage) = locked { state -> (UInt64, Garbage) in
            let (target, handlers) = request.value
            var garbage = Garbage()
            _ = Self.sweepDead(&state, garbage: &garbage)
            let registration: ConcurrentRegistration
            if let existing = Self.liveRegistration(of: target, in: &state, garbage: &garbage) {
                registration = existing
                garbage.items.append(existing.responses)
                existing.responses.merge(handlers) { _, new in new }
                if retention == .strong {
                    existing.strongTarget = target
                } else if let strong = existing.strongTarget {
                    garbage.items.append(strong)
                    existing.strongTarget = nil
                }
                if let index {
                    state.list.move(
                        existing, toLiveIndex: index, isAlive: { Self.isAlive($0, &garbage) }, renumbered: { _ in })
                }
            } else {
                registration = ConcurrentRegistration(
                    serial: state.list.makeSerial(), target: target, retention: retention, responses: handlers)
                state.list.insert(
                    registration, atLiveIndex: index, isAlive: { Self.isAlive($0, &garbage) }, renumbered: { _ in })
            }
            publish(&state, garbage: &garbage)
            return (registration.serial, garbage)
        }
        return Insertion(serial: serial, garbage: garbage)
    }

    /// Ends an add after the mutex (and the nesting lock): lets go of what it displaced and
    /// releases the snapshots no dispatch reads.
    func finishInsertion(_ insertion: Insertion) {
        dispose(insertion.garbage)
        reclaimRetired()
    }

    /// Ends a removal once the chain's mutex is released: waits for the running calls of
    /// `registrations` (from inside a handler it only fences, so that every call not yet started
    /// sees `removed`), then releases the displaced snapshots.
    private func finishRemoval(waitingFor registrations: [ConcurrentRegistration]) {
        if isInsideConcurrentDispatch() {
            readSide.withFencedRecords { _ in }
        } else {
            waitForCalls(of: registrations, readSide)
        }
        reclaimRetired()
    }

    /// Lets go of what a mutation took out under the mutex. Outside every dispatch the releases
    /// happen here, and may run deinits of removed targets and handlers. Inside one (a mutation
    /// made by a handler, of any concurrent chain) they are parked in the thread's record first,
    /// and let go of when its outermost dispatch leaves: the reference in `garbage` may be the
    /// last one (another thread's reclaim may have released the displaced snapshot that held
    /// them), and no deinit of a removed target or handler may run inside a handler.
    func dispose(_ garbage: Garbage?) {
        guard let garbage else { return }
        DisposalHook.call(self)
        if !garbage.items.isEmpty, let record = currentDispatchRecord() {
            garbage.park(in: record)
            record.deferReclaim(of: cell)
        }
        withExtendedLifetime(garbage) {}
    }

    /// Releases the snapshots that mutations displaced and no dispatch reads any more. From
    /// inside a handler (of any concurrent chain) it releases them too, but parks in the thread's
    /// record the objects they hold whose deinit may run user code (handlers and strong targets,
    /// `ReaderRecord.park`), and notes the chain for the thread's outermost dispatch, which lets
    /// go of them when it leaves: so deinits of removed strong targets and handlers run outside
    /// every dispatch, and a handler that mutates a chain many times keeps a bounded number of
    /// snapshots, not one per mutation.
    func reclaimRetired() {
        cell.reclaim(readSide)
        if let record = currentDispatchRecord() { record.deferReclaim(of: cell) }
    }

    /// Builds and publishes a snapshot of `state`'s listed registrations; the one it displaces
    /// is retired.
    func publish(_ state: inout State, garbage: inout Garbage) {
        cell.publish(ConcurrentSnapshot(registrations: state.list.entries), readSide: readSide)
    }

    /// The registration of `target`, if `target` is in the chain. A registration whose target
    /// died (and whose address `target` now has) is unregistered.
    private static func liveRegistration(
        of target: AnyObject, in state: inout State, garbage: inout Garbage
    ) -> ConcurrentRegistration? {
        let (live, stale) = state.list.lookup(target)
        if let stale { unregister(stale, from: &state, garbage: &garbage) }
        return live
    }

    /// Takes `registration` out of the chain; its strong target and itself go to `garbage`, to be
    /// released after the mutex (releasing a target may run its deinit, which may use the chain).
    private static func unregister(
        _ registration: ConcurrentRegistration, from state: inout State, garbage: inout Garbage
    ) {
        retire(registration, garbage: &garbage)
        state.draining.append(registration)
        garbage.items.append(registration)
        if state.list.unlist(registration) { _ = sweep(&state, garbage: &garbage) }
    }

    /// Marks `registration` removed (no call starts any more) and lets go of what it holds: its
    /// strong target and its handlers go to `garbage`, to be released after the mutex. While it
    /// drains it keeps nothing its handlers capture (they may capture the chain).
    private static func retire(_ registration: ConcurrentRegistration, garbage: inout Garbage) {
        registration.removed.store(true, ordering: .sequentiallyConsistent)
        if let strong = registration.strongTarget { garbage.items.append(strong) }
        registration.strongTarget = nil
        garbage.items.append(registration.responses)
        registration.responses = [:]
    }

    /// Drops every registration whose weak target died, and the removed ones. Returns whether it
    /// dropped a dead one (a change the published snapshot must see).
    private static func sweepDead(_ state: inout State, garbage: inout Garbage) -> Bool {
        var anyDead = false
        for registration in state.list.entries where !registration.isUnlisted && !isAlive(registration, &garbage) {
            anyDead = true
            break
        }
        guard anyDead || state.list.unlistedCount > 0 else { return false }
        return sweep(&state, garbage: &garbage)
    }

    private static func sweep(_ state: inout State, garbage: inout Garbage) -> Bool {
        let (dead, left) = state.list.sweep { isAlive($0, &garbage) }
        for registration in dead {
            registration.removed.store(true, ordering: .sequentiallyConsistent)
            // As `retire`: an unlisted registration holds nothing whose deinit runs user code, so
            // a reclaim inside a dispatch may release its last reference (`ReaderRecord.park`).
            garbage.items.append(registration.responses)
            registration.responses = [:]
        }
        garbage.items.append(left)
        return !dead.isEmpty
    }

    /// Whether `registration`'s target is alive. A zeroing hold answers without a reference; the
    /// strong reference a weak load makes is parked in `garbage`: if the target's owner lets go
    /// meanwhile on another thread, the last release (and the target's deinit) must not happen
    /// under the mutex.
    private static func isAlive(_ registration: ConcurrentRegistration, _ garbage: inout Garbage) -> Bool {
        if registration.strongTarget != nil { return true }
        if let alive = registration.isAliveWithoutLoad { return alive }
        guard let target = registration.weakTarget else { return false }
        garbage.items.append(target)
        return true
    }
}
