/// A target together with the messages it answers, its type erased.
///
/// Use it where the target's static type is a protocol rather than a class, as with a
/// host's `delegate` property typed `(any ScrollViewDelegate)?`. Declare the responses once,
/// in an extension of your delegate protocol, and every conformer (final or not) gets them.
/// In a `@MainActor` delegate protocol the extension is isolated to the main actor too, so the
/// handlers call the conformer's methods directly:
///
/// ```swift
/// @MainActor protocol ScrollViewDelegate: AnyObject {
///     func scrollViewDidScroll(_ offset: Double)
/// }
/// extension ScrollViewDelegate {
///     var responder: AnyResponder {
///         AnyResponder(self, responses: Responses<Self>()
///             .on(Scroll.didScroll) { me, offset in me.scrollViewDidScroll(offset) })
///     }
/// }
/// chain.add(someDelegate.responder)      // someDelegate: any ScrollViewDelegate
/// ```
///
/// An `AnyResponder` is for the single-thread dispatchers; ``AnySendableResponder`` is its
/// `@Sendable` form. It keeps its target alive only while the value exists; a chain it is
/// added to holds the target as the `retention` of that call says.
public struct AnyResponder {
    /// The target that answers.
    public let target: AnyObject

    @usableFromInline
    let handlers: [UInt32: AnyHandler]

    /// `target` answering `responses`.
    public init<Target: AnyObject>(_ target: Target, responses: Responses<Target>) {
        requireSwiftReferenceCounting(Target.self)
        self.target = target
        handlers = responses.handlers
    }

    /// `target` answering `responses` in another form, such as a type's ``SendableResponses``.
    public init<Target: AnyObject>(_ target: Target, responses: some ResponseSet<Target>) {
        requireSwiftReferenceCounting(Target.self)
        self.target = target
        handlers = responses.responses.handlers
    }

    /// `target` answering its type's ``DelegateResponder/responses``.
    public init<Target: DelegateResponder>(_ target: Target) {
        self.init(target, responses: Target.responses)
    }

    /// `target` with handlers built for a target of its class (``ResponderCache``).
    @usableFromInline
    init(_ target: AnyObject, handlers: [UInt32: AnyHandler]) {
        self.target = target
        self.handlers = handlers
    }

    /// `responder`'s target and handlers.
    public init(_ responder: AnySendableResponder) {
        target = responder.target
        handlers = responder.handlers
    }

    /// Whether the target answers `message`.
    public func answers<Input, Output>(_ message: Message<Input, Output>) -> Bool {
        handlers[message.id] != nil
    }
}
