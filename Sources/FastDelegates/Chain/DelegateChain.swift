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
/// - Targets are kept in registration order (``insert(_:at:retention:responses:)`` places one
///   anywhere). A target added twice is one target.
/// - A target is held weakly unless added with ``Retention/strong``. A dead target is skipped,
///   never called, and its slot is reclaimed.
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
/// A chain is not thread-safe and not `Sendable`: it lives in its owner's isolation domain (a
/// `@MainActor` view controller's, say). Handlers run synchronously on the sending thread, so
/// they may be any closure: one formed in `@MainActor` code calls main-actor methods directly,
/// and any may capture non-`Sendable` values. For sends from several threads, see
/// ``ConcurrentDelegateChain``.
public final class DelegateChain: MessageDispatching {
    /// Whether a void message stops at its first responder.
    public enum Mode: Sendable, Hashable {
        /// A void message reaches every live responder, in order.
        case nonBreaking
        /// A void message reaches only the first live responder.
        case breaking
    }

    /// This chain's dispatch mode for void messages.
    public let mode: Mode

    @usableFromInline
    let table: DispatchTable

    /// Every registration, live or not yet swept, ordered by `order`. A removed registration
    /// stays (with no target) until the next sweep, so that removals cost no array shifting.
    private var registrations: [Registration] = []
    /// How many registrations in `registrations` were removed and wait for a sweep.
    private var removedInList = 0
    private var byIdentity: [ObjectIdentifier: Registration] = [:]
    private var byGeneration: [UInt32: Registration] = [:]
    private var sweepThreshold = 16
    /// Dispatches that handed back dead targets or parked objects since the last sweep.
    private var cleanupsSinceSweep = 0

    /// The streams observing this chain's sends; nil while nobody observes, so a send pays one
    /// nil check for observation.
    @usableFromInline
    @exclusivity(unchecked) var observers: MessageObservers?

    private static let orderStep: UInt64 = 1 << 24

    /// An empty chain.
    public init(mode: Mode = .nonBreaking) {
        self.mode = mode
        table = DispatchTable()
    }

    /// A chain whose table hashes every message into one bucket: results must not change.
    init(mode: Mode = .nonBreaking, forcedCollisions: Bool) {
        self.mode = mode
        table = DispatchTable(forcedCollisions: forcedCollisions)
    }

    // MARK: - Adding

    /// Adds `target` at the end, answering its type's ``DelegateResponder/responses``.
    ///
    /// If `target` is already in the chain it stays where it is; its responses are merged
    /// with these (new handlers win) and its retention becomes `retention`. If `target` is this
    /// chain, nothing happens (a chain is never its own target).
    /// - Returns: a token whose ``DelegateToken/cancel()`` removes the target.
    /// - Complexity: O(*m* log *n*) amortized for *m* messages answered by the target and *n*
    ///   responders of each (inserting elsewhere than at the end also shifts the responders
    ///   on the shorter side).
    @discardableResult
    public func add<Target: DelegateResponder>(_ target: Target, retention: Retention = .weak) -> DelegateToken {
        register(target, retention: retention, handlers: Target.responses.responses.handlers, at: nil)
    }

    /// Adds `target` at the end, answering `responses`.
    @discardableResult
    public func add<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: Responses<Target>
    ) -> DelegateToken {
        register(target, retention: retention, handlers: responses.handlers, at: nil)
    }

    /// As the overload taking ``Responses``, with `responses` in another form, such as
    /// a type's ``SendableResponses``.
    @discardableResult
    public func add<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: some ResponseSet<Target>
    ) -> DelegateToken {
        register(target, retention: retention, handlers: responses.responses.handlers, at: nil)
    }

    /// Adds `target` at the end, answering the responses `build` declares for this registration.
    ///
    /// ```swift
    /// chain.add(logger) { $0.on(Scroll.didScroll) { me, y in me.log(y) } }
    /// ```
    @discardableResult
    public func add<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak,
        _ build: (Responses<Target>) -> Responses<Target>
    ) -> DelegateToken {
        register(target, retention: retention, handlers: build(Responses()).handlers, at: nil)
    }

    /// Adds `target` at the end, answering its type's responses plus those `build` declares.
    @discardableResult
    public func add<Target: DelegateResponder>(
        _ target: Target, retention: Retention = .weak,
        _ build: (Responses<Target>) -> Responses<Target>
    ) -> DelegateToken {
        register(target, retention: retention, handlers: build(Target.responses.responses).handlers, at: nil)
    }

    /// Adds `responder`'s target at the end, answering its responses.
    @discardableResult
    public func add(_ responder: AnyResponder, retention: Retention = .weak) -> DelegateToken {
        register(responder.target, retention: retention, handlers: responder.handlers, at: nil)
    }

    /// Inserts `target` so that it becomes the live target at `index` of ``targets``.
    ///
    /// A target already in the chain moves to `index` (counted among the other targets).
    /// - Precondition: `0 <= index <= targets.count` (not counting `target` itself).
    /// - Complexity: O(*n*) for *n* targets.
    @discardableResult
    public func insert<Target: AnyObject>(
        _ target: Target, at index: Int, retention: Retention = .weak, responses: Responses<Target>
    ) -> DelegateToken {
        register(target, retention: retention, handlers: responses.handlers, at: index)
    }

    /// As the overload taking ``Responses``, with `responses` in another form, such as
    /// a type's ``SendableResponses``.
    @discardableResult
    public func insert<Target: AnyObject>(
        _ target: Target, at index: Int, retention: Retention = .weak, responses: some ResponseSet<Target>
    ) -> DelegateToken {
        register(target, retention: retention, handlers: responses.responses.handlers, at: index)
    }

    /// Inserts `target` at `index` of ``targets``, answering its type's responses.
    @discardableResult
    public func insert<Target: DelegateResponder>(
        _ target: Target, at index: Int, retention: Retention = .weak
    ) -> DelegateToken {
        register(target, retention: retention, handlers: Target.responses.responses.handlers, at: index)
    }

    /// Inserts `responder`'s target at `index` of ``targets``, answering its responses.
    @discardableResult
    public func insert(_ responder: AnyResponder, at index: Int, retention: Retention = .weak) -> DelegateToken {
        register(responder.target, retention: retention, handlers: responder.handlers, at: index)
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
        let removed = registrations
        registrations.removeAll()
        byIdentity.removeAll()
        byGeneration.removeAll()
        removedInList = 0
        for registration in removed { table.release(registration) }
        afterMutation()
        // Strong targets die here, once the chain is consistent: their deinit may use it.
        for registration in removed { table.releaseTarget(of: registration) }
    }

    // MARK: - Inspecting

    /// The live targets, in dispatch order.
    /// - Complexity: O(*n*).
    public var targets: [AnyObject] {
        reclaimReportedDeathsIfAny()
        return registrations.compactMap { $0.target }
    }

    /// How many live targets the chain has.
    /// - Complexity: O(*n*): each weak target is checked.
    public var count: Int {
        reclaimReportedDeathsIfAny()
        return registrations.reduce(0) { $0 + ($1.target == nil ? 0 : 1) }
    }

    /// Whether the chain has no live target.
    /// - Complexity: O(*n*) when the first targets are dead, else O(1).
    public var isEmpty: Bool {
        reclaimReportedDeathsIfAny()
        return !registrations.contains { $0.target != nil }
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

    /// A stream of the input of every send of `message` through this chain, from now on.
    ///
    /// This is RxCocoa's `methodInvoked`: the stream sees each send (also one nobody answers),
    /// before the responders are called, on the sending thread. Observing is not responding:
    /// it never changes ``responds(to:)``, a breaking-mode stop or an answer. The observer goes
    /// away when the consuming task ends or the stream is dropped (at the chain's next send),
    /// and the stream finishes when the chain is gone. Events are buffered as
    /// `bufferingPolicy` says (by default none is dropped).
    /// - Complexity: while nothing observes the chain, a send pays one nil check for this.
    public func invocations<Input: Sendable, Output>(
        of message: Message<Input, Output>,
        bufferingPolicy: AsyncStream<Input>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Input> {
        MessageObservers.stream(of: message, in: &observers, bufferingPolicy: bufferingPolicy)
    }

    /// How many streams observe `message`.
    func observerCount<Input, Output>(of message: Message<Input, Output>) -> Int {
        observers?.count(of: message.id) ?? 0
    }

    // MARK: - Internals

    func removeRegistration(generation: UInt32) {
        guard let registration = byGeneration[generation] else { return }
        unregister(registration)
    }

    /// Sizes of the C table, for tests and the benchmark.
    var tableStats: (liveSlots: Int, slotCapacity: Int, messages: Int, entries: Int) {
        reclaimReportedDeathsIfAny()
        let stats = table.stats
        return (Int(stats.live_slots), Int(stats.slot_capacity), Int(stats.messages), Int(stats.entries))
    }

    func holdForTesting(of target: AnyObject) -> Registration.Hold? {
        liveRegistration(of: target)?.hold
    }

    /// Registrations not removed: live, or dead and not yet swept.
    var registrationCount: Int {
        reclaimReportedDeathsIfAny()
        return registrations.count - removedInList
    }

    /// Registrations the chain's list holds, removed ones not yet swept included: what its
    /// memory grows with.
    var registrationListCount: Int {
        reclaimReportedDeathsIfAny()
        return registrations.count
    }

    var invariantViolation: Int32 { table.invariantViolation }

    private func liveRegistration(of target: AnyObject) -> Registration? {
        guard let registration = byIdentity[ObjectIdentifier(target)] else { return nil }
        if registration.target === target { return registration }
        // The registered target died and another object now has its address.
        unregister(registration)
        return nil
    }

    private func register(
        _ target: AnyObject, retention: Retention, handlers: [UInt32: AnyHandler], at index: Int?
    ) -> DelegateToken {
        // A chain is never its own target (see the type's documentation). Generation 0 is never
        // issued, so this token's cancel does nothing.
        if target === self { return DelegateToken(chain: self, generation: 0) }
        reclaimReportedDeathsIfAny()
        let registration: Registration
        if let existing = liveRegistration(of: target) {
            registration = existing
            table.setRetention(of: existing, to: retention, target: target)
            table.replaceResponses(of: existing, with: existing.responses.merging(handlers) { _, new in new })
            if let index {
                let position = registrations.firstIndex { $0 === existing }!
                registrations.remove(at: position)
                let order = makeRoom(atLiveIndex: index)
                table.move(existing, to: order.key)
                registrations.insert(existing, at: order.position)
            }
        } else {
            if registrations.count >= sweepThreshold { sweepDead() }
            let order = index.map { makeRoom(atLiveIndex: $0) } ?? appendOrder()
            registration = Registration(target: target, retention: retention, responses: handlers, order: order.key)
            table.acquire(registration)
            registrations.insert(registration, at: order.position)
            byIdentity[registration.identity] = registration
            byGeneration[registration.handle.generation] = registration
        }
        return DelegateToken(chain: self, generation: registration.handle.generation)
    }

    /// O(1) amortized besides the C table's work: the registration leaves `registrations` with
    /// the next sweep, which runs once removed ones make up half of the list.
    private func unregister(_ registration: Registration) {
        table.release(registration)
        forget(registration)
        registration.isDead = true // the next sweep drops it
        removedInList += 1
        if removedInList >= 16, removedInList * 2 >= registrations.count {
            sweepDead()
        } else {
            afterMutation()
        }
        // Last, once the chain is consistent: a strong target may die here and its deinit use the chain.
        table.releaseTarget(of: registration)
    }

    private func forget(_ registration: Registration) {
        if byIdentity[registration.identity] === registration { byIdentity[registration.identity] = nil }
        byGeneration[registration.handle.generation] = nil
    }

    /// Reclaims the registrations whose tracked targets died, as their lifetimes reported.
    /// - Complexity: O(*d* + *n*) for *d* deaths; nothing searches for the dead targets.
    @usableFromInline
    func reclaimReportedDeaths() {
        for generation in table.inbox.take() {
            if let registration = byGeneration[generation] { unregister(registration) }
        }
    }

    private func reclaimReportedDeathsIfAny() {
        if table.inbox.hasReports { reclaimReportedDeaths() }
    }

    private func appendOrder() -> (key: UInt64, position: Int) {
        let last = registrations.last?.order ?? 0
        if last > UInt64.max - Self.orderStep * 2 { renumber() }
        return ((registrations.last?.order ?? 0) + Self.orderStep, registrations.count)
    }

    /// A sort key and array position before the live target now at `liveIndex`.
    private func makeRoom(atLiveIndex liveIndex: Int) -> (key: UInt64, position: Int) {
        var live = 0
        var position = registrations.count
        for (offset, registration) in registrations.enumerated() where registration.target != nil {
            if live == liveIndex {
                position = offset
                break
            }
            live += 1
        }
        precondition(
            liveIndex >= 0 && (position < registrations.count || live == liveIndex),
            "FastDelegates: insert index \(liveIndex) is out of range 0...\(live)")
        if position == registrations.count { return appendOrder() }
        let below = position == 0 ? 0 : registrations[position - 1].order
        if registrations[position].order - below < 2 {
            renumber()
            return makeRoom(atLiveIndex: liveIndex)
        }
        return (below + (registrations[position].order - below) / 2, position)
    }

    private func renumber() {
        for (offset, registration) in registrations.enumerated() {
            table.renumber(registration, to: UInt64(offset + 1) * Self.orderStep)
        }
    }

    /// Drops every registration whose weak target has died.
    private func sweepDead() {
        var kept: [Registration] = []
        kept.reserveCapacity(registrations.count)
        for registration in registrations {
            if !registration.isDead, registration.target != nil {
                kept.append(registration)
                continue
            }
            table.release(registration)
            forget(registration)
        }
        registrations = kept
        removedInList = 0
        cleanupsSinceSweep = 0
        sweepThreshold = max(16, kept.count * 2)
        afterMutation()
    }

    private func afterMutation() {
        if !table.isDispatching { table.compactIfNeeded() }
    }

    /// Hands back what the outermost dispatch left: parked objects and dead targets.
    ///
    /// A sweep walks every registration, so it runs once per `count / 8` such dispatches: a
    /// death costs O(1) amortized however many targets live (a dead target found by a send is
    /// skipped until then; it holds no object, and the list stays within a constant factor of
    /// the live targets).
    @usableFromInline
    func finishDispatch() {
        table.finishDispatch()
        cleanupsSinceSweep += 1
        if cleanupsSinceSweep * 8 >= registrations.count { sweepDead() }
    }
}

@available(*, unavailable, message: "DelegateChain is not thread-safe; confine it to one thread or actor")
extension DelegateChain: Sendable {}
