/// A target together with `@Sendable` handlers for the messages it answers, its type erased:
/// the ``AnyResponder`` that a ``ConcurrentDelegateChain`` may take.
///
/// Declare it in an extension of a nonisolated delegate protocol, with ``SendableResponses``:
///
/// ```swift
/// protocol TickListener: AnyObject, Sendable {
///     func tick(_ value: Int)
/// }
/// extension TickListener {
///     var sendableResponder: AnySendableResponder {
///         AnySendableResponder(self, responses: SendableResponses<Self>()
///             .on(Clock.tick) { me, value in me.tick(value) })
///     }
/// }
/// ```
///
/// Its target is `Sendable` (`Target: AnyObject & Sendable`), since a concurrent chain hands it
/// to its handlers on any thread: the compiler rejects a non-`Sendable` one (`error: type
/// 'Counter' does not conform to the 'Sendable' protocol`). Not `Sendable` itself: its handlers
/// are `@Sendable`, but their storage type is shared with ``AnyResponder``.
public struct AnySendableResponder {
    /// The target that answers.
    public let target: any AnyObject & Sendable

    @usableFromInline
    let handlers: [UInt32: AnyHandler]

    /// `target` answering `responses`.
    public init<Target: AnyObject & Sendable>(_ target: Target, responses: SendableResponses<Target>) {
        requireSwiftReferenceCounting(Target.self)
        self.target = target
        handlers = responses.handlers
    }

    /// `target` answering its type's ``DelegateResponder/responses``, declared `@Sendable`.
    public init<Target: DelegateResponder & Sendable>(_ target: Target)
    where Target.DeclaredResponses == SendableResponses<Target> {
        self.init(target, responses: Target.responses)
    }

    /// `target` with handlers built for a target of its class (``SendableResponderCache``).
    @usableFromInline
    init(_ target: any AnyObject & Sendable, handlers: [UInt32: AnyHandler]) {
        self.target = target
        self.handlers = handlers
    }

    /// Whether the target answers `message`.
    public func answers<Input, Output>(_ message: Message<Input, Output>) -> Bool {
        handlers[message.id] != nil
    }
}
