import Synchronization

/// Storage for one handler, of any message type.
///
/// Not `Sendable`: a handler may be any closure, capturing non-`Sendable` state or isolated to
/// the actor it was formed on. Only ``SendableResponses`` (made of `@Sendable` closures alone)
/// hands handlers to a ``ConcurrentDelegateChain``.
@usableFromInline
class AnyHandler {
    /// Whether the handler is known to answer: a ``HandlerStatus`` raw value. Atomic because a
    /// ``ConcurrentDelegateChain`` shares handlers between threads; only the sends of a
    /// requirement's prepared message (out of its fast path) read or change it.
    let statusStorage: Atomic<UInt8>

    @usableFromInline
    init() { statusStorage = Atomic(HandlerStatus.verified.rawValue) }

    /// A handler whose status starts as `status`.
    init(status: HandlerStatus) { statusStorage = Atomic(status.rawValue) }

    /// Whether the handler is known to answer (see ``HandlerStatus``).
    @usableFromInline
    var status: HandlerStatus {
        get { HandlerStatus(rawValue: statusStorage.load(ordering: .relaxed)) ?? .verified }
        set {
            statusStorage.store(newValue.rawValue, ordering: .relaxed)
            if newValue == .declined { SharedHandlers.declines.wrappingAdd(1, ordering: .releasing) }
        }
    }

    /// Whether this handler forwards to its target, a dispatcher (``Responses/forwarding(_:)``).
    var forwards: Bool { false }

    /// A handler of the same message that walks `chain`'s listeners in its target's place: what a
    /// proxy registers for a listener that is itself a proxy over `chain` (see
    /// ``DelegateChain/add(_:nesting:retention:)``); `link` tells its walk when the proxy leaves
    /// the outer chain.
    func nested(_ message: UInt32, in chain: DelegateChain, link: NestedLink) -> AnyHandler {
        preconditionFailure("FastDelegates: AnyHandler is abstract")
    }

    /// ``nested(_:in:link:)-(_,DelegateChain,_)`` for a proxy over a ``ConcurrentDelegateChain``
    /// (``ConcurrentDelegateChain/add(_:nesting:retention:)``).
    func nested(_ message: UInt32, in chain: ConcurrentDelegateChain, link: NestedLink) -> AnyHandler {
        preconditionFailure("FastDelegates: AnyHandler is abstract")
    }

    /// The chain this handler walks in its target's place, for a nested proxy's handler: a
    /// ``DelegateChain`` or a ``ConcurrentDelegateChain``.
    var nestedChain: (any NestingChain)? { nil }
}

/// One handler of a `Message<Input, Output>`, taking its target type-erased. Immutable.
@usableFromInline
final class Handler<Input, Output>: AnyHandler {
    @usableFromInline
    let body: (AnyObject, Input) -> Output

    /// Set for a handler that forwards to its target, a dispatcher: a ``DelegateChain`` walks
    /// the target's answers in place of calling `body`, and asks the target whether it responds.
    @usableFromInline
    let forwarding: Forwarding<Input, Output>?

    @usableFromInline
    init(_ body: @escaping (AnyObject, Input) -> Output) {
        self.body = body
        forwarding = nil
        super.init()
    }

    /// A handler whose status starts as `status`: ``HandlerStatus/unverified`` for one that
    /// calls a requirement of a `@DelegateProxy` protocol (``Responses/on(requirement:_:)-(Message<Input,Output>,_)``).
    init(_ body: @escaping (AnyObject, Input) -> Output, status: HandlerStatus) {
        self.body = body
        forwarding = nil
        super.init(status: status)
    }

    /// A handler that forwards to its target (see ``Forwarding``).
    init(forwarding: Forwarding<Input, Output>) {
        self.forwarding = forwarding
        body = { _, _ in
            // Unreachable: `Responses.forwarding` goes to the single-thread dispatchers, all built
            // on DelegateChain, and a chain that holds one walks `forwarding` instead
            // (`DelegateChain.hasForwarders`).
            preconditionFailure("FastDelegates: a forwarding handler was called outside its chain's walk")
        }
        super.init()
    }

    /// A handler that forwards to its target and, called directly, calls `body`: a nested
    /// proxy's handler, whose `body` is the proxy's own method (it answers its default when none
    /// of its listeners does). A concurrent chain's send that read the chain's forwarding flag
    /// before the first such handler was added, and its snapshot after, calls `body`.
    init(forwarding: Forwarding<Input, Output>, calledDirectly body: @escaping (AnyObject, Input) -> Output) {
        self.forwarding = forwarding
        self.body = body
        super.init()
    }

    override var forwards: Bool { forwarding != nil }

    override var nestedChain: (any NestingChain)? { forwarding?.nestedChain }

    override func nested(_ message: UInt32, in chain: DelegateChain, link: NestedLink) -> AnyHandler {
        Handler(forwarding: .nested(Message(interned: message), in: chain, link: link), calledDirectly: body)
    }

    override func nested(_ message: UInt32, in chain: ConcurrentDelegateChain, link: NestedLink) -> AnyHandler {
        Handler(forwarding: .nested(Message(interned: message), in: chain, link: link), calledDirectly: body)
    }
}

extension Handler {
    /// A handler that calls `handler` with its target as a `Target`: what ``Responses`` and
    /// ``SendableResponses`` store for each message.
    ///
    /// `handler` itself becomes the handler's body, with no closure around it to cast the
    /// target (which would cost every call a frame): see ``TargetErasedBody``.
    @inlinable
    static func calling<Target: AnyObject>(_ handler: @escaping (Target, Input) -> Output) -> Handler {
        Handler(TargetErasedBody(handler).erased)
    }
}

/// A handler's closure, whose target parameter is a class-bound type parameter, seen as a
/// closure of `AnyObject`: the same closure, not a closure that calls it.
///
/// Sound on two grounds:
/// - Representation: a value of a class-bound type parameter and an `AnyObject` are both one
///   strong reference, passed the same way (`@guaranteed`, in one register): what satisfies
///   `AnyObject` is a class, `AnyObject` itself or an `@objc` protocol's existential, never an
///   existential with witness tables (the compiler rejects `any P` and `any C & P`). The fields of
///   a generic struct keep the lowering of their declared type whatever the arguments, so
///   `TargetErasedBody<Target, I, O>` and `TargetErasedBody<AnyObject, I, O>` hold the same
///   closure in the same layout (`HandlerTests` calls such closures with every kind of input
///   and output: trivial, reference-counted, existential, tuple, Void, Optional).
/// - Types: a handler only ever receives the target it was registered with, whose static type
///   was `Target` at registration (see `DelegateRegistering.register`).
@usableFromInline
struct TargetErasedBody<Target: AnyObject, Input, Output> {
    @usableFromInline
    let body: (Target, Input) -> Output

    @inlinable
    init(_ body: @escaping (Target, Input) -> Output) {
        self.body = body
    }

    /// `body`, taking its target as `AnyObject`.
    @inlinable
    var erased: (AnyObject, Input) -> Output {
        unsafeBitCast(self, to: TargetErasedBody<AnyObject, Input, Output>.self).body
    }
}

/// Whether a handler is known to answer its message.
///
/// A handler built by ``Responses/on(_:_:)-(Message<Input,Output>,_)`` answers: it is verified from birth. A handler that
/// calls a requirement of a `@DelegateProxy` protocol may call the protocol's generated default,
/// which declines (its conformer does not implement the requirement): it starts unverified, and
/// the first checking send of a requirement's ``PreparedMessage`` that calls it marks it verified or
/// declined. Handlers are shared by every target of one class (``ResponderCache``, and for the
/// proxies ``ResponderCache/responder(of:answering:_:)``), and a class implements a method or
/// not, so the status holds for all of them.
@usableFromInline
enum HandlerStatus: UInt8 {
    /// Answers: the sends call it on their fast path.
    case verified
    /// Not known yet: a checking send arms the declining record around its call.
    case unverified
    /// Its target's class does not implement the requirement: never called by a requirement send.
    case declined
}

/// How a handler forwards a message to its target, a dispatcher: the dispatcher's own walk over
/// its responders, and whether it responds now.
@usableFromInline
struct Forwarding<Input, Output> {
    /// Hands each answer of the target's responders to the outer walk's `body` until it returns
    /// true; returns whether it did.
    @usableFromInline
    let walk: (AnyObject, Input, (Output) -> Bool) -> Bool
    /// Whether the target has a live responder of the message now.
    @usableFromInline
    let responds: (AnyObject) -> Bool
    /// How the target sends the message as a requirement of a `@DelegateProxy` protocol, when it
    /// is a chain that can (``RequirementDispatching``); nil for the patterns.
    @usableFromInline
    let requirements: ForwardedRequirements<Input, Output>?
    /// The chain walked, for a nested proxy's handler (``DelegateChain/add(_:nesting:retention:)``).
    var nestedChain: (any NestingChain)? = nil

    /// The walk of a requirement's send through the target: its requirement walk, which asks
    /// the listeners that may decline (see ``RequirementDispatching``).
    @usableFromInline
    func walkRequirement(_ target: AnyObject, _ message: UInt32, _ input: Input, _ body: (Output) -> Bool) -> Bool {
        guard let requirements else {
            preconditionFailure(
                """
                FastDelegates: a requirement of a @DelegateProxy protocol (message \(message)) is forwarded \
                to \(type(of: target)), which cannot tell listeners that do not implement it from those \
                that do: forward requirements to a DelegateChain or a ConcurrentDelegateChain
                """)
        }
        return requirements.walk(target, input, body)
    }
}

/// What a forwarding handler needs of its target to forward a requirement: the target's
/// requirement walk, and, for the sends of `async` requirements, whether a listener is still in
/// it with its handler and the drop of one found declining.
@usableFromInline
struct ForwardedRequirements<Input, Output> {
    /// The target's ``RequirementDispatching/forEachAnswer(toRequirement:_:_:)``.
    @usableFromInline
    let walk: (AnyObject, Input, (Output) -> Bool) -> Bool
    /// Whether the listener (second) is still in the target (first), implementing the message.
    let stillImplements: (AnyObject, AnyObject) -> Bool
    /// Takes the listener's (second) handler out of the target (first): it declined.
    let dropDeclined: (AnyObject, AnyObject) -> Void
    /// Commits a call of the listener (second) in the target (first) if it still implements the
    /// message there, in one step with the target's removals; nil if it does not.
    let commit: (AnyObject, AnyObject) -> ForwardedCommitment?
}

/// A call of an `async` requirement committed in the chain it was reached through: how to end it.
struct ForwardedCommitment {
    /// Ends the call in that chain; nil when nothing needs ending (a single-thread chain).
    let end: (() -> Void)?
}
