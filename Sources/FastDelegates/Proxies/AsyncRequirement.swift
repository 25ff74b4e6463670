import Synchronization

/// One listener's call of an `async` requirement of a `@DelegateProxy` protocol, made by the
/// listener's handler and awaited by the proxy: what the message of such a requirement answers
/// (`Message<Input, AsyncCall<Output, Failure>>`).
///
/// A handler cannot await, so the handler of an `async` requirement does not call the listener's
/// method: it answers this call, which the proxy's send (``AsyncRequirement``) then awaits, one
/// listener after the other. The call holds its listener weakly: a listener released while the
/// send awaits an earlier one is not called.
///
/// Not `Sendable`: a send makes it and awaits it on the caller's isolation.
public final class AsyncCall<Output, Failure: Error> {
    /// The listener the call is for, while it lives.
    public private(set) weak var target: AnyObject?

    /// Calls the listener's method.
    let body: Body

    /// Where a call's body runs.
    enum Body {
        /// On the isolation of the send that awaits it.
        case callerIsolated(CallerIsolatedBody)
        /// On no actor, awaited by a send that runs on none either.
        case concurrent(ConcurrentBody)
    }

    typealias CallerIsolatedBody = nonisolated(nonsending) (AnyObject) async throws(Failure) -> Output
    typealias ConcurrentBody = @concurrent (AnyObject) async throws(Failure) -> Output

    /// A call of `body` on `target`, on the caller's isolation (a listener isolated to an actor
    /// runs its method there, as any call of it does): `AsyncCall(me) { me in await me.method(input) }`.
    public init<Target: AnyObject>(
        _ target: Target, _ body: nonisolated(nonsending) @escaping (Target) async throws(Failure) -> Output
    ) {
        self.target = target
        // Sound: `body` only ever receives `target` (see `AsyncRequirement.run`).
        self.body = .callerIsolated { (object: AnyObject) async throws(Failure) -> Output in
            try await body(unsafeDowncast(object, to: Target.self))
        }
    }

    /// A call of `body` on `target` on no actor: the call of a nonisolated protocol's
    /// requirement, which runs on no actor in default Swift 6 settings, as does the proxy's
    /// method that awaits it. Such a call is awaited only by a send that runs on no actor either,
    /// so `target` and what `body` captures stay in the awaiting task, as the compiler checks for
    /// a direct call; a send awaited on an actor stops with a clear error instead (only a send
    /// through ``AsyncRequirement`` directly, not through the proxy, can be).
    public init<Target: AnyObject>(
        concurrent target: Target, _ body: @escaping @concurrent (Target) async throws(Failure) -> Output
    ) {
        self.target = target
        self.body = .concurrent { @concurrent (object: AnyObject) async throws(Failure) -> Output in
            try await body(unsafeDowncast(object, to: Target.self))
        }
    }

    /// Calls the listener `target` (this call's, alive) on the send's `isolation`, or on no actor.
    func call(
        _ target: AnyObject, _ message: some CustomStringConvertible, isolation: isolated (any Actor)?
    ) async throws(Failure) -> Output {
        switch body {
        case .callerIsolated(let body):
            return try await body(target)
        case .concurrent(let body):
            if let isolation {
                fatalError(
                    "\(message) is the message of a nonisolated async requirement, which runs on no actor: await it through its proxy's method, not through AsyncRequirement on \(type(of: isolation))"
                )
            }
            // Sound: the send runs on no actor, so `target` and `body` (in the awaiting task's
            // region) do not leave it: the call to a nonisolated function that the compiler
            // allows from a nonisolated one.
            return try await Self.callOnNoActor(Unchecked((body, target))).value
        }
    }

    /// Calls `call`'s body with its target on no actor.
    @concurrent private static func callOnNoActor(
        _ call: Unchecked<(ConcurrentBody, AnyObject)>
    ) async throws(Failure) -> Unchecked<Output> {
        Unchecked(try await call.value.0(call.value.1))
    }
}

@available(*, unavailable, message: "an AsyncCall is awaited on the isolation of the send that made it")
extension AsyncCall: Sendable {}

/// The record of an `async` requirement's call in progress, bound to the calling task while a
/// send awaits one listener: a generated default that finds its own message and listener here
/// declines (``RequirementDefaults/declinesAsync(_:_:)``). A task-local value, not a thread's
/// record, because the default may run after a suspension, on another thread.
final class AsyncDeclineRecord: Sendable {
    let message: UInt32
    let listener: ObjectIdentifier
    let declined = Atomic<Bool>(false)

    init(message: UInt32, listener: ObjectIdentifier) {
        self.message = message
        self.listener = listener
    }

    /// The call the running task's send awaits, if any.
    @TaskLocal static var current: AsyncDeclineRecord?
}

extension RequirementDefaults {
    /// Calls of ``declinesAsync(_:_:)`` so far, in every task: a test hook, as the C core's
    /// `cdt_decline_debug_claim_calls` is for ``declines(_:_:)``.
    package static var debugAsyncClaimCalls: UInt64 { asyncClaimCalls.load(ordering: .relaxed) }

    private static let asyncClaimCalls = Atomic<UInt64>(0)

    /// ``declines(_:_:)`` for an `async` requirement: whether a proxy's send is awaiting
    /// `listener`'s call of `message` in this task right now; then this marks `listener` as not
    /// implementing the requirement, and the default returns at once. Otherwise it returns
    /// false, and the default behaves as the protocol documents.
    ///
    /// - Complexity: O(1): a read of a task-local value.
    public static func declinesAsync<Input, Output, Failure>(
        _ message: Message<Input, AsyncCall<Output, Failure>>, _ listener: AnyObject
    ) -> Bool {
        asyncClaimCalls.add(1, ordering: .relaxed)
        guard let record = AsyncDeclineRecord.current, record.message == message.id,
            record.listener == ObjectIdentifier(listener)
        else { return false }
        return !record.declined.exchange(true, ordering: .relaxed)
    }
}

/// The sends of a `@DelegateProxy` protocol's `async` requirements, for the proxy's generated
/// methods: each awaits the listeners that implement the requirement, one after the other, on
/// the caller's isolation (a `@MainActor` proxy's, or the calling task's for a `Sendable` one).
///
/// A send first collects each live listener's ``AsyncCall`` in order, then awaits them:
/// - a listener removed from the chain (or from a chain it was reached through), or released,
///   while the send awaited an earlier one is not called: the check and the call are one step
///   for a removal (see ``ConcurrentDelegateChain/removeAwaitingCalls(_:isolation:)`` for a concurrent chain);
/// - a listener whose generated default declines (it does not implement the requirement) is not
///   counted, and loses the requirement's handler, as for a synchronous requirement (see
///   ``RequirementDispatching``);
/// - an error thrown by a listener ends the send: later listeners are not called, and the
///   caller receives it.
public enum AsyncRequirement {
    /// The first implementing listener's answer (`nil` included), or `defaultValue` when none
    /// implements the requirement.
    public static func first<Input, Output, Failure>(
        _ chain: DelegateChain, _ message: PreparedMessage<Input, AsyncCall<Output, Failure>>, _ input: Input,
        default defaultValue: @autoclosure () -> Output, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Output {
        let calls = chain.asyncCalls { chain.forEachAnswer(to: message, input, $0) }
        return try await firstAnswer(of: calls, message.message, in: chain) ?? defaultValue()
    }

    /// Every implementing listener in order, or only the first in ``DelegateChain/Mode/breaking``
    /// mode.
    public static func send<Input, Failure>(
        _ chain: DelegateChain, _ message: PreparedMessage<Input, AsyncCall<Void, Failure>>, _ input: Input,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) {
        try await everyAnswer(
            of: chain.asyncCalls { chain.forEachAnswer(to: message, input, $0) }, message.message, in: chain)
    }

    /// The answers of every implementing listener, combined in order; the combination's initial
    /// value when none implements the requirement.
    public static func combining<Input, Output, Failure, Result>(
        _ chain: DelegateChain, _ message: PreparedMessage<Input, AsyncCall<Output, Failure>>, _ input: Input,
        _ combination: AnswerCombination<Output, Result>, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Result {
        let calls = chain.asyncCalls { chain.forEachAnswer(to: message, input, $0) }
        return try await combinedAnswers(of: calls, message.message, in: chain, combination)
    }

    /// ``first(_:_:_:default:isolation:)`` of a requirement's message, not prepared: what a
    /// proxy sends for a requirement it inherits from a parent protocol.
    public static func first<Input, Output, Failure>(
        _ chain: DelegateChain, requirement message: Message<Input, AsyncCall<Output, Failure>>, _ input: Input,
        default defaultValue: @autoclosure () -> Output, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Output {
        let calls = chain.asyncCalls { chain.forEachAnswer(toRequirement: message, input, $0) }
        return try await firstAnswer(of: calls, message, in: chain) ?? defaultValue()
    }

    /// ``send(_:_:_:isolation:)`` of a requirement's message, not prepared.
    public static func send<Input, Failure>(
        _ chain: DelegateChain, requirement message: Message<Input, AsyncCall<Void, Failure>>, _ input: Input,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) {
        try await everyAnswer(
            of: chain.asyncCalls { chain.forEachAnswer(toRequirement: message, input, $0) }, message, in: chain)
    }

    /// ``combining(_:_:_:_:isolation:)`` of a requirement's message, not prepared.
    public static func combining<Input, Output, Failure, Result>(
        _ chain: DelegateChain, requirement message: Message<Input, AsyncCall<Output, Failure>>, _ input: Input,
        _ combination: AnswerCombination<Output, Result>, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Result {
        let calls = chain.asyncCalls { chain.forEachAnswer(toRequirement: message, input, $0) }
        return try await combinedAnswers(of: calls, message, in: chain, combination)
    }

    /// The first implementing listener's answer through a concurrent chain (a `Sendable`
    /// protocol's proxy), or `defaultValue`.
    public static func first<Input, Output, Failure>(
        _ chain: ConcurrentDelegateChain, requirement message: Message<Input, AsyncCall<Output, Failure>>,
        _ input: Input, default defaultValue: @autoclosure () -> Output, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Output {
        let calls = chain.asyncCalls(message, input)
        return try await firstAnswer(of: calls, message, in: chain) ?? defaultValue()
    }

    /// Every implementing listener of a concurrent chain in order, or only the first in
    /// ``DelegateChain/Mode/breaking`` mode.
    public static func send<Input, Failure>(
        _ chain: ConcurrentDelegateChain, requirement message: Message<Input, AsyncCall<Void, Failure>>,
        _ input: Input, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) {
        try await everyAnswer(of: chain.asyncCalls(message, input), message, in: chain)
    }

    /// The answers of every implementing listener of a concurrent chain, combined in order.
    public static func combining<Input, Output, Failure, Result>(
        _ chain: ConcurrentDelegateChain, requirement message: Message<Input, AsyncCall<Output, Failure>>,
        _ input: Input, _ combination: AnswerCombination<Output, Result>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Result {
        let calls = chain.asyncCalls(message, input)
        return try await combinedAnswers(of: calls, message, in: chain, combination)
    }

    /// The first answer of `calls` (see `run`), or nil when none answers.
    private static func firstAnswer<Input, Output, Failure>(
        of calls: [AsyncCall<Output, Failure>], _ message: Message<Input, AsyncCall<Output, Failure>>,
        in chain: some AsyncRequirementChain, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Output? {
        var answer: Output?
        try await run(calls, message, in: chain) { output in
            answer = output
            return true
        }
        return answer
    }

    /// Awaits every one of `calls` (see `run`), or only the first in ``DelegateChain/Mode/breaking`` mode.
    private static func everyAnswer<Input, Failure>(
        of calls: [AsyncCall<Void, Failure>], _ message: Message<Input, AsyncCall<Void, Failure>>,
        in chain: some AsyncRequirementChain & RequirementDispatching, isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) {
        let breaking = chain.mode == .breaking
        try await run(calls, message, in: chain) { _ in breaking }
    }

    /// The answers of `calls` (see `run`), folded into `combination`.
    private static func combinedAnswers<Input, Output, Failure, Result>(
        of calls: [AsyncCall<Output, Failure>], _ message: Message<Input, AsyncCall<Output, Failure>>,
        in chain: some AsyncRequirementChain, _ combination: AnswerCombination<Output, Result>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Result {
        var result = combination.initial
        try await run(calls, message, in: chain) { combination.step(&result, $0) }
        return result
    }

    /// Awaits each of `calls` whose listener is alive and still implements `message` in
    /// `chain` (or in the chain it was reached through), committed so that a removal cannot
    /// slip between that check and the call, and armed so that a declining default is found
    /// out; hands each answer to `body` until it returns true.
    private static func run<Input, Output, Failure>(
        _ calls: [AsyncCall<Output, Failure>], _ message: Message<Input, AsyncCall<Output, Failure>>,
        in chain: some AsyncRequirementChain, isolation: isolated (any Actor)? = #isolation,
        _ body: (Output) -> Bool
    ) async throws(Failure) {
        for call in calls {
            guard let target = call.target, let commitment = chain.commitCall(of: message, to: target) else { continue }
            let record = AsyncDeclineRecord(message: message.id, listener: ObjectIdentifier(target))
            let result: Result<Output, Failure> = await AsyncDeclineRecord.$current.withValue(record) {
                () async -> Result<Output, Failure> in
                // Naming `isolation` keeps the closure on it: the call runs on the send's isolation.
                do throws(Failure) {
                    return .success(try await call.call(target, message, isolation: isolation))
                } catch {
                    return .failure(error)
                }
            }
            chain.endCall(commitment)
            if record.declined.load(ordering: .relaxed) {
                chain.dropAsyncDeclined(message, of: target)
                continue
            }
            if try body(result.get()) { return }
        }
    }
}

/// What ``AsyncRequirement`` needs of a chain between its listeners' calls.
protocol AsyncRequirementChain {
    /// What a committed call holds until it ends.
    associatedtype Commitment

    /// Whether `target` is still in the chain, or in a chain this one forwards `message` to,
    /// with a handler of `message` not known to decline.
    func stillImplements<Input, Output>(_ message: Message<Input, Output>, _ target: AnyObject) -> Bool
    /// Commits a call of `target` for `message` if it still implements it, atomically with
    /// the chain's removals: a removal that returns before this saw `target` gone.
    func commitCall<Input, Output>(of message: Message<Input, Output>, to target: AnyObject) -> Commitment?
    /// Ends a committed call.
    func endCall(_ commitment: Commitment)
    /// Marks `target`'s handler of `message` as declining and takes it out of its registration
    /// (in this chain, or in the chain it was reached through).
    func dropAsyncDeclined<Input, Output>(_ message: Message<Input, Output>, of target: AnyObject)
}

extension DelegateChain: AsyncRequirementChain {
    /// The calls that a synchronous walk of an `async` requirement's message collects.
    func asyncCalls<Output, Failure>(
        _ walk: ((AsyncCall<Output, Failure>) -> Bool) -> Bool
    ) -> [AsyncCall<Output, Failure>] {
        var calls: [AsyncCall<Output, Failure>] = []
        _ = walk { call in
            calls.append(call)
            return false
        }
        return calls
    }

    func stillImplements<Input, Output>(_ message: Message<Input, Output>, _ target: AnyObject) -> Bool {
        if let handler = liveRegistration(of: target)?.responses[message.id], !handler.forwards,
            handler.status != .declined
        {
            return true
        }
        return forwarders(of: message) { inner, requirements in requirements.stillImplements(inner, target) }
    }

    /// A single-thread chain removes nothing while a call is being committed; a call reached
    /// through a forwarder is committed in the chain it is forwarded to (for a concurrent one,
    /// under its mutex, where its removals wait for it).
    func commitCall<Input, Output>(of message: Message<Input, Output>, to target: AnyObject)
        -> ForwardedCommitment?
    {
        if let handler = liveRegistration(of: target)?.responses[message.id], !handler.forwards,
            handler.status != .declined
        {
            return ForwardedCommitment(end: nil)
        }
        var commitment: ForwardedCommitment?
        _ = forwarders(of: message) { inner, requirements in
            commitment = requirements.commit(inner, target)
            return commitment != nil
        }
        return commitment
    }

    func endCall(_ commitment: ForwardedCommitment) {
        commitment.end?()
    }

    func dropAsyncDeclined<Input, Output>(_ message: Message<Input, Output>, of target: AnyObject) {
        if let handler = liveRegistration(of: target)?.responses[message.id], !handler.forwards {
            handler.status = .declined
            dropDeclined(message.id, handler, of: target)
            return
        }
        _ = forwarders(of: message) { inner, requirements in
            guard requirements.stillImplements(inner, target) else { return false }
            requirements.dropDeclined(inner, target)
            return true
        }
    }

    /// Calls `body` with each live target that `message` is forwarded to and how it takes
    /// requirements, in order, until it returns true; returns whether it did.
    private func forwarders<Input, Output>(
        of message: Message<Input, Output>, _ body: (AnyObject, ForwardedRequirements<Input, Output>) -> Bool
    ) -> Bool {
        guard hasForwarders else { return false }
        return dispatch(among: table.responders(of: message)) { (inner, handler: Handler<Input, Output>) in
            guard let requirements = handler.forwarding?.requirements else { return false }
            return body(inner, requirements)
        }
    }
}

extension ConcurrentDelegateChain: AsyncRequirementChain {
    /// The calls of the live listeners of an `async` requirement's message, in order.
    func asyncCalls<Input, Output, Failure>(
        _ message: Message<Input, AsyncCall<Output, Failure>>, _ input: Input
    ) -> [AsyncCall<Output, Failure>] {
        var calls: [AsyncCall<Output, Failure>] = []
        _ = forEachAnswer(toRequirement: message, input) { call in
            calls.append(call)
            return false
        }
        return calls
    }

    func stillImplements<Input, Output>(_ message: Message<Input, Output>, _ target: AnyObject) -> Bool {
        let request = Unchecked(target)
        if locked({ state in Self.implementingRegistration(of: message.id, request.value, in: &state) != nil }) {
            return true
        }
        return forwarders(of: message).contains { inner, requirements in requirements.stillImplements(inner, target) }
    }

    /// Counts the call in the chain's ledger of committed calls, under the chain's mutex where
    /// removals unregister: ``removeAwaitingCalls(_:isolation:)`` waits for it.
    ///
    /// A call reached through a nested proxy is committed in that proxy's chain, in the same
    /// way, and then counted here too as a call of the proxy, under this chain's mutex, if the
    /// proxy is still in this chain; if it is not (a removal of the proxy ran between the two
    /// steps), the inner commitment is ended and the call is not made. So a removal of the proxy
    /// here either sees the call and ``removeAwaitingCalls(_:isolation:)`` waits for it, or no
    /// call through the proxy is committed once it returned; and removing the listener in the
    /// proxy's chain waits for it as well. Deeper nestings count the call at every level.
    func commitCall<Input, Output>(of message: Message<Input, Output>, to target: AnyObject) -> ConcurrentCommitment? {
        let request = Unchecked(target)
        let task = currentTaskIdentity()
        let own = locked { state -> UInt64? in
            guard Self.implementingRegistration(of: message.id, request.value, in: &state) != nil else { return nil }
            return state.asyncCalls.commit(ObjectIdentifier(request.value), task: task)
        }
        if let own { return .own(own) }
        let forwarders = forwarders(of: message)
        let hook = forwarders.isEmpty ? nil : ConcurrentNesting.hook.withLock { $0 }
        for (inner, requirements) in forwarders {
            hook?(.committing, self)
            guard let forwarded = requirements.commit(inner, target) else { continue }
            let proxy = Unchecked(inner)
            let serial = locked { state -> UInt64? in
                guard let handler = state.list.lookup(proxy.value).live?.responses[message.id], handler.forwards
                else { return nil }
                return state.asyncCalls.commit(ObjectIdentifier(proxy.value), task: task)
            }
            if let serial { return .forwarded(forwarded, through: inner, serial) }
            forwarded.end?()
        }
        return nil
    }

    /// `target`'s registration, if it is live in the chain with a handler of `message` not known to
    /// decline (and not a nested proxy's). Under the chain's mutex.
    private static func implementingRegistration(of message: UInt32, _ target: AnyObject, in state: inout State)
        -> ConcurrentRegistration?
    {
        guard let registration = state.list.lookup(target).live, let handler = registration.responses[message],
            handler.status != .declined, !handler.forwards
        else { return nil }
        return registration
    }

    func endCall(_ commitment: ConcurrentCommitment) {
        switch commitment {
        case .own(let serial):
            let waiters = locked { state in state.asyncCalls.end(serial) }
            for waiter in waiters { waiter.resume() }
        case .forwarded(let forwarded, let proxy, let serial):
            forwarded.end?()
            let waiters = locked { state in state.asyncCalls.end(serial) }
            for waiter in waiters { waiter.resume() }
            withExtendedLifetime(proxy) {}
        }
    }

    func dropAsyncDeclined<Input, Output>(_ message: Message<Input, Output>, of target: AnyObject) {
        let request = Unchecked(target)
        let marked = locked { state -> Bool in
            guard let handler = state.list.lookup(request.value).live?.responses[message.id], !handler.forwards
            else { return false }
            handler.status = .declined
            return true
        }
        if marked {
            dropDeclined(message.id, of: [target])
            return
        }
        for (inner, requirements) in forwarders(of: message) where requirements.stillImplements(inner, target) {
            requirements.dropDeclined(inner, target)
            return
        }
    }

    /// The live targets that `message` is forwarded to (nested proxies), in order, with how they
    /// take requirements; read under the mutex, walked outside it (each takes its own).
    private func forwarders<Input, Output>(
        of message: Message<Input, Output>
    ) -> [(AnyObject, ForwardedRequirements<Input, Output>)] {
        guard forwards.load(ordering: .relaxed) else { return [] }
        let found = locked { state in
            Unchecked(
                state.list.entries.compactMap { registration -> (AnyObject, ForwardedRequirements<Input, Output>)? in
                    // The target is loaded last: a reference loaded and dropped here could run a
                    // deinit under the mutex.
                    guard !registration.isUnlisted,
                        let handler = registration.responses[message.id] as? Handler<Input, Output>,
                        let requirements = handler.forwarding?.requirements, let target = registration.target
                    else { return nil }
                    return (target, requirements)
                })
        }
        return found.value
    }
}

/// A call of an `async` requirement committed by a ``ConcurrentDelegateChain``: in its own
/// ledger, or in the chain of the nested proxy it was reached through and in its own ledger as a
/// call of that proxy.
enum ConcurrentCommitment {
    /// Counted in the chain's own ledger under this serial.
    case own(UInt64)
    /// Counted in a nested proxy's chain, and in the chain's own ledger as a call of the proxy
    /// under this serial; the proxy is held until the call ends (no other object takes its
    /// identity meanwhile, see `AsyncCallLedger`).
    case forwarded(ForwardedCommitment, through: AnyObject, UInt64)
}

/// The combinations through which a proxy sends a synchronous throwing requirement of a
/// `@DelegateProxy` protocol, whose message answers each listener's `Result`: the first failure
/// ends the send (later listeners are not called), and the proxy throws it.
public enum ThrowingRequirement {
    /// Every listener's success in order (only the first's when `breaking`), until one fails.
    public static func untilFailure<Failure>(
        breaking: Bool
    ) -> AnswerCombination<Result<Void, Failure>, Result<Void, Failure>> {
        AnswerCombination(initial: .success(())) { result, output in
            result = output
            if case .failure = output { return true }
            return breaking
        }
    }

    /// `combination` over the listeners' answers in order, until one fails.
    public static func combining<Output, Combined, Failure>(
        _ combination: AnswerCombination<Output, Combined>
    ) -> AnswerCombination<Result<Output, Failure>, Result<Combined, Failure>> {
        AnswerCombination(initial: .success(combination.initial)) { result, output in
            switch (result, output) {
            case (_, .failure(let error)):
                result = .failure(error)
                return true
            case (.success(var combined), .success(let answer)):
                let stop = combination.step(&combined, answer)
                result = .success(combined)
                return stop
            case (.failure, .success):
                return true
            }
        }
    }
}
