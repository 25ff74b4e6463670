import CDispatchTable

/// An ordered chain of delegate targets that answers typed messages: many listeners on one
/// delegate slot.
///
/// ```swift
/// @MainActor final class ScrollScreen {
///     let chain = DelegateChain()                     // or DelegateChain(mode: .breaking)
///     var zoomView: View?
///     func wire(_ analytics: Analytics) {
///         chain.add(analytics)                        // weak; answers Analytics.responses
///         chain.add(self) { $0.on(Scroll.viewForZooming) { me in me.zoomView } }
///     }
///     func scrolled(to y: Double) -> View? {
///         chain.send(Scroll.didScroll, y)             // every responder, in order
///         return chain.send(Scroll.viewForZooming)    // the first responder's answer, or nil
///     }
/// }
/// ```
///
/// Semantics:
/// - Targets are kept in registration order (an `insert` overload places one anywhere). A target added twice is one target.
/// - A target is held weakly unless added with ``Retention/strong``: never kept alive, never
///   called during or after its `deinit` (even when its last release happens on another thread
///   mid-send), never freed during its own handler, skipped once dead and its slot reclaimed.
///   A native Swift class gets this on the zeroing fast path, with no conformance or stored
///   property (see <doc:ChoosingADispatchMode>); an Objective-C-rooted object, through a Swift
///   `weak` reference.
/// - A void message reaches every live responder in order (``Mode/nonBreaking``) or only the
///   first (``Mode/breaking``). A message with an answer returns the first live responder's
///   answer, `nil` or the caller's default when nobody answers; it never traps.
/// - Handlers may add or remove targets (themselves included) and send messages. A removal
///   takes effect at once, even within the running dispatch; an addition takes effect from the
///   next dispatch.
/// - A chain is never a target of itself: adding or inserting a chain into itself is ignored.
///   The chain does not change, ``contains(_:)`` stays false, and the returned token's
///   ``DelegateToken/cancel()`` does nothing. (As its own target a chain could only answer a
///   message by sending it into itself again, and with ``Retention/strong`` it would keep
///   itself alive for good.) A chain may be a target of *another* chain.
/// - A handler that sends into the chain it runs in (the message it is handling, or through
///   other chains back into this one) recurses like any recursive call: the chain sets no depth
///   limit, and stays consistent at any depth the thread's stack allows.
/// - Misuse never corrupts the chain: removing a target that is not in it returns false,
///   cancelling a token again or after its chain is gone does nothing, and a target's deinit
///   may send to the chain (a dying target is never called).
///
/// Cost, for *n* targets each answering *m* messages (measured in a release build through the
/// public API, 1,000 targets answering 2 messages each, on a shared 2-core Linux x86_64 machine
/// while other builds ran: compare the ratios, not the absolute times):
/// - `send`: O(1) expected to find the message's responders, then one call per live
///   responder; no allocation, no lock. Measured: 101 µs to 1,000 targets.
/// - `add` (``DelegateRegistering``) and ``remove(_:)``: O(*m* log *n*) amortized at either end
///   of the order, O(*m* · *n*) elsewhere (the responders on the shorter side shift). Measured:
///   6.8 µs per add/remove pair.
/// - The worst case is mutating while a send of this chain runs (from a handler). The first
///   mutation of a message at that nesting level copies its whole responder array, since the
///   running sends may be reading it, and keeps the old one until the outermost send leaves:
///   O(*n*) time and memory. Later mutations of that message at that level change the copy in
///   place and cost what they cost outside a send (no send running then reads the copy). So *k*
///   mutations inside one handler cost O(*m* · *n*) once plus what they cost outside a send, and
///   hold at most one extra array per message for each nesting level of sends that mutates it,
///   not one per mutation. A send nested in the handler that mutates copies once more, for its
///   level, and the handler's next mutation after it then copies once more too. Measured:
///   1.8 µs per add/remove pair inside one handler (1.6 µs outside a send in the same run), and
///   10,000 pairs inside one handler grew the process by 1 MB (before this bound: 99 µs per pair
///   and 1,075 MB, in the same conditions).
///
/// A chain is not thread-safe and not `Sendable`: it lives in its owner's isolation domain (a
/// `@MainActor` view controller's, say). Handlers run synchronously on the sending thread, so
/// they may be any closure: one formed in `@MainActor` code calls main-actor methods directly,
/// and any may capture non-`Sendable` values. For sends from several threads, see
/// ``ConcurrentDelegateChain``.
public final class DelegateChain: MessageDispatching, DelegateRegistering, InvocationObserving {
    /// Whether a void message stops at its first responder.
    public enum Mode: Sendable, Hashable {
        /// A void message reaches every live responder, in order.
        case nonBreaking
        /// A void message reaches only the first live responder.
        case breaking
    }

    /// This chain's dispatch mode for void messages.
    public let mode: Mode

    // The two flags and the sweep counter sit next to `mode`, in its word's padding: a smaller
    // object.

    /// Whether some registration ever held a forwarded message (``Responses/forwarding(_:)``):
    /// the walks then check each handler for one.
    @usableFromInline
    @exclusivity(unchecked) var hasForwarders = false

    /// Whether something observes the chain, it forwards a message or it has handlers not
    /// entered yet (PendingEntries.swift): a send takes the slow path then, so that any other
    /// send pays this one check for all three.
    @usableFromInline
    @exclusivity(unchecked) var needsSlowPath = false {
        // The prepared sends use a remembered span without checking this flag while the
        // table's version is the one they remember (`forEachAnswer(to:_:_:)` of a
        // `PreparedMessage`): a new version makes them check it again.
        didSet { cdt_chain_touch(table.chain) }
    }

    /// Dispatches that handed back dead targets or parked objects since the last sweep (32
    /// bits: a sweep runs once they reach an eighth of the registrations).
    // Unchecked, as the other scalars here: every access is a plain read or write.
    @exclusivity(unchecked) private var cleanupsSinceSweep: Int32 = 0

    @usableFromInline
    let table: DispatchTable

    /// Every registration in order, the identity and serial indexes, and the sweep rules (the
    /// model ``ConcurrentDelegateChain`` shares); the C table mirrors it for the hot path.
    private(set) var list = RegistrationList<ChainRegistration>()

    /// The streams observing this chain's sends; nil while nobody observes.
    @usableFromInline
    @exclusivity(unchecked) var observers: ObserverTable?

    /// An empty chain.
    public init(mode: Mode = .nonBreaking) {
        self.mode = mode
        table = DispatchTable.make()
    }

    /// A chain whose table hashes every message into one bucket, for tests: results must not change.
    package init(mode: Mode = .nonBreaking, forcedCollisions: Bool) {
        self.mode = mode
        table = DispatchTable.make(forcedCollisions: forcedCollisions)
    }

    // MARK: - Adding

    /// Adds `responder`'s target, answering its responses, at live index `index` of ``targets``
    /// (at the end when nil): what every `add` and `insert` overload of ``DelegateRegistering``
    /// calls.
    ///
    /// If the target is already in the chain it stays one target: its responses are merged with
    /// these (new handlers win), its retention becomes `retention`, and a non-nil `index` moves
    /// it there (counted among the other targets). If the target is this chain, nothing happens
    /// (a chain is never its own target).
    /// - Precondition: `index` is nil or `0 <= index <= targets.count` (not counting the target).
    /// - Returns: a token whose ``DelegateToken/cancel()`` removes the target.
    /// - Complexity: O(*m* log *n*) amortized for *m* messages answered by the target and *n*
    ///   responders of each, at the end; O(*n*) for *n* targets elsewhere (inserting also shifts
    ///   the responders on the shorter side).
    @inlinable @discardableResult
    public func register(_ responder: AnyResponder, retention: Retention, at index: Int?) -> DelegateToken {
        // The token is made here, in the caller's code: one the caller drops costs no allocation.
        DelegateToken(chain: self, serial: registerSerial(responder, retention: retention, at: index))
    }

    // MARK: - Removing

    /// Removes `target`; it receives nothing more, even from a dispatch already running.
    /// Does nothing if `target` is not in the chain.
    /// - Returns: whether `target` was in the chain.
    /// - Complexity: O(*m* log *n*) amortized for *m* messages answered by the target and *n*
    ///   responders of each, when targets leave in registration order or in reverse; a target
    ///   in the middle also shifts the responders on the shorter side, O(*n*) at worst.
    @discardableResult
    public func remove(_ target: AnyObject) -> Bool {
        guard let registration = liveRegistration(of: target) else { return false }
        unregister(registration)
        return true
    }

    /// Removes every target.
    /// - Complexity: O(*n*) for *n* targets.
    public func removeAll() {
        let removed = list.removeAll()
        for registration in removed { table.release(registration) }
        afterMutation()
        // Strong targets die here, once the chain is consistent: their deinit may use it.
        for registration in removed { table.releaseTarget(of: registration) }
    }

    // MARK: - Inspecting

    /// The live targets, in dispatch order.
    /// - Complexity: O(*n*).
    public var targets: [AnyObject] {
        list.entries.compactMap { $0.isUnlisted ? nil : $0.target }
    }

    /// How many live targets the chain has.
    /// - Complexity: O(*n*): each weak target is checked.
    public var count: Int {
        list.entries.reduce(0) { $0 + (!$1.isUnlisted && $1.isAlive ? 1 : 0) }
    }

    /// Whether the chain has no live target.
    /// - Complexity: O(*n*) when the first targets are dead, else O(1).
    public var isEmpty: Bool {
        !list.entries.contains { !$0.isUnlisted && $0.isAlive }
    }

    /// Whether `target` is in the chain.
    public func contains(_ target: AnyObject) -> Bool {
        liveRegistration(of: target) != nil
    }

    /// How `target` is held, or nil if it is not in the chain.
    public func retention(of target: AnyObject) -> Retention? {
        liveRegistration(of: target)?.retention
    }

    // MARK: - Observing

    /// A stream of every send of `message` through this chain, from now on, seen at `timing`
    /// (see ``InvocationObserving``), on the sending thread.
    /// - Complexity: while nothing observes the chain, a send pays one flag check for this.
    public func invocations<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        needsSlowPath = true
        return ObserverTable.stream(of: message, timing: timing, in: &observers, bufferingPolicy: bufferingPolicy)
    }

    // MARK: - Internals

    /// Removes the registration a token made, if it is still in the chain.
    func removeRegistration(serial: UInt64) {
        guard let registration = list.entry(serial: serial) else { return }
        unregister(registration)
    }

    /// The registration of `target`, if `target` is in the chain. A registration whose target
    /// died (and whose address `target` now has) is unregistered.
    func liveRegistration(of target: AnyObject) -> ChainRegistration? {
        let (live, stale) = list.lookup(target)
        // A stale registration's target died and another object now has its address.
        if let stale { unregister(stale) }
        return live
    }

    /// What ``register(_:retention:at:)`` does, but the token: the registration's serial.
    @usableFromInline
    func registerSerial(_ responder: AnyResponder, retention: Retention, at index: Int?) -> UInt64 {
        let target = responder.target, handlers = responder.handlers
        // A chain is never its own target (see the type's documentation). Serial 0 is never
        // issued, so the token's cancel does nothing.
        if target === self { return 0 }
        if !hasForwarders, handlers.values.contains(where: \.forwards) {
            hasForwarders = true
            needsSlowPath = true
        }
        let table = self.table
        let registration: ChainRegistration
        // One access to `list` on the way of a new target (each costs a runtime call).
        admission: while true {
            switch list.admit(
                target, atLiveIndex: index, isAlive: { $0.isAlive }, renumbered: { table.renumber($0) },
                make: { ChainRegistration(target: target, serial: $0, retention: retention, responses: handlers) })
            {
            case .added(let added):
                registration = added
                table.acquire(added)
                // The table's other pending handlers already set the slow path: only this
                // registration's may change it.
                if !added.pending.isEmpty { updateSlowPath() }
                break admission
            case .listed(let existing):
                registration = existing
                table.setRetention(of: existing, to: retention, target: target)
                table.replaceResponses(of: existing, with: existing.responses.merging(handlers) { _, new in new })
                if let index {
                    list.move(existing, toLiveIndex: index, isAlive: { $0.isAlive }, renumbered: { table.renumber($0) })
                    table.move(existing)
                }
                if table.hasPending { updateSlowPath() }
                break admission
            case .stale(let stale):
                // Its target died and this one now has its address.
                unregister(stale)
            case .sweepDue:
                sweepDead()
            }
        }
        return registration.serial
    }

    /// O(1) amortized besides the C table's work: the registration leaves the list with the
    /// next sweep, which runs once removed ones make up half of the list.
    private func unregister(_ registration: ChainRegistration) {
        table.release(registration)
        registration.isDead = true
        if list.unlist(registration) {
            sweepDead()
        } else {
            afterMutation()
        }
        // Last, once the chain is consistent: a strong target may die here and its deinit use the chain.
        table.releaseTarget(of: registration)
    }

    /// Drops removed registrations and those whose weak target has died (which gives back the
    /// memory a zeroing hold kept). See ``RegistrationList`` for when it runs.
    private func sweepDead() {
        let (dead, left) = list.sweep { !$0.isDead && $0.isAlive }
        for registration in dead { table.release(registration) }
        cleanupsSinceSweep = 0
        table.deadFound = 0
        afterMutation()
        withExtendedLifetime(left) {} // their last release, after the list's access ended
    }

    private func afterMutation() {
        if !table.isDispatching { table.compactIfNeeded() }
        if needsSlowPath { updateSlowPath() }
    }

    /// Hands back what the outermost dispatch left: the C table's retired arrays, parked objects
    /// and dead targets. Out of line: a send with nothing left pays only the leave's one test.
    ///
    /// A sweep walks every registration, so it runs once such dispatches, and the dead targets
    /// they met, add up to `count / 8`: a death costs O(1) amortized however many targets live,
    /// and sends that keep meeting many dead targets reclaim them soon (a dead target found by
    /// a send is skipped until then, and the list stays within a constant factor of the live
    /// targets).
    @usableFromInline @inline(never)
    func finishDispatch() {
        guard table.finishDispatch() else { return }
        let cleanups = Int(cleanupsSinceSweep) &+ 1 &+ table.deadFound
        table.deadFound = 0
        if cleanups >= (list.entries.count + 7) / 8 {
            sweepDead()
        } else {
            // Below an eighth of the registrations: it fits.
            cleanupsSinceSweep = Int32(truncatingIfNeeded: cleanups)
        }
    }
}

@available(*, unavailable, message: "DelegateChain is not thread-safe; confine it to one thread or actor")
extension DelegateChain: Sendable {}
