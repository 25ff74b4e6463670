/// A middle man in front of a delegate: it answers the messages it intercepts, and every other
/// message falls through to the *receiver* with no forwarding code per method.
///
/// This is the Swift form of a subclass that makes itself its own delegate, handles a few
/// messages and hand-forwards the rest to the outer delegate:
///
/// ```swift
/// @MainActor final class HeaderScrollView {
///     lazy var delegates = DelegateInterceptor(middleMan: self, interceptions: .init()
///         .on(Scroll.didScroll) { me, offset, callThrough in
///             me.stretchHeader(offset)
///             callThrough(offset)                  // like calling super: the receiver hears it too
///         })
///     var delegate: (any ScrollViewDelegate)? {
///         get { delegates.receiver as? any ScrollViewDelegate }
///         set { delegates.setReceiver(newValue?.responder) }
///     }
/// }
/// ```
///
/// Semantics:
/// - A message the middle man intercepts goes to the middle man only. Its handler gets a
///   `callThrough` closure that sends the message (with any input) to the receiver and returns
///   the receiver's answer, or `nil` if the receiver does not answer, so the handler can use
///   or alter it.
/// - Any other message goes to the receiver, as if the middle man were not there.
/// - ``responds(to:)`` is true if the middle man intercepts the message or the receiver
///   answers it.
/// - The receiver can be replaced or cleared at any time, also from inside a handler.
/// - The middle man is held weakly by default (it usually owns the interceptor), the receiver
///   weakly unless set with ``Retention/strong``.
///
/// Not thread-safe, and not `Sendable`: an interceptor lives in its owner's isolation domain,
/// so a `@MainActor` middle man's handlers use its isolated state directly.
public final class DelegateInterceptor<MiddleMan: AnyObject>: MessageDispatching {
    @usableFromInline
    let middle = DelegateChain()
    @usableFromInline
    let link: ReceiverLink

    @usableFromInline
    @exclusivity(unchecked) var observers: ObserverTable?

    /// An interceptor with `middleMan` answering `interceptions`, and no receiver yet.
    public init(middleMan: MiddleMan, retention: Retention = .weak, interceptions: Interceptions<MiddleMan>) {
        let link = ReceiverLink()
        self.link = link
        var responses = Responses<MiddleMan>()
        responses.handlers = interceptions.makers.mapValues { $0(link) }
        middle.add(middleMan, retention: retention, responses: responses)
    }

    /// The middle man, or nil once it has died.
    public var middleMan: MiddleMan? {
        middle.targets.first.map { unsafeDowncast($0, to: MiddleMan.self) }
    }

    /// The receiver, or nil if none is set or it has died.
    public var receiver: AnyObject? { link.chain.targets.first }

    /// Makes `responder` the receiver, replacing the previous one; `nil` clears it.
    public func setReceiver(_ responder: AnyResponder?, retention: Retention = .weak) {
        link.chain.removeAll()
        if let responder { link.chain.add(responder, retention: retention) }
    }

    /// Removes the receiver, as `setReceiver(nil)` does: the membership vocabulary every
    /// dispatcher shares. The middle man stays: its interceptions are what this interceptor is.
    public func removeAll() {
        link.chain.removeAll()
    }

    /// Whether `target` is the middle man or the receiver.
    public func contains(_ target: AnyObject) -> Bool {
        middle.contains(target) || link.chain.contains(target)
    }

    /// Whether the interceptor has neither a live middle man nor a live receiver.
    public var isEmpty: Bool { middle.isEmpty && link.chain.isEmpty }

    /// Makes `target` the receiver, answering its type's responses.
    public func setReceiver<Target: DelegateResponder>(_ target: Target, retention: Retention = .weak) {
        setReceiver(AnyResponder(target), retention: retention)
    }

    /// Makes `target` the receiver, answering `responses`.
    public func setReceiver<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: Responses<Target>
    ) {
        setReceiver(AnyResponder(target, responses: responses), retention: retention)
    }

    /// As the overload taking ``Responses``, with `responses` in another form, such as
    /// a type's ``SendableResponses``.
    public func setReceiver<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: some ResponseSet<Target>
    ) {
        setReceiver(AnyResponder(target, responses: responses), retention: retention)
    }

    /// Hands `message` to the middle man if it intercepts it, else to the receiver, passing
    /// the answer to `body`.
    @inlinable
    public func forEachAnswer<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        observedWalk(message, input, body)
    }

    /// The middle man's answer if it intercepts `message`, else the receiver's answers.
    @inlinable
    func walk<Input, Output>(_ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool) -> Bool {
        var intercepted = false
        var stopped = false
        _ = middle.forEachAnswer(to: message, input) { answer in
            intercepted = true
            stopped = body(answer)
            return true
        }
        if intercepted { return stopped }
        return link.chain.forEachAnswer(to: message, input, body)
    }

    /// Whether the middle man intercepts `message` or the receiver answers it.
    public func responds<Input, Output>(to message: Message<Input, Output>) -> Bool {
        middle.responds(to: message) || link.chain.responds(to: message)
    }

    /// A stream of every send of `message` through this interceptor, from now on, seen at `timing`
    /// (see ``InvocationObserving``).
    public func invocations<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        ObserverTable.stream(of: message, timing: timing, in: &observers, bufferingPolicy: bufferingPolicy)
    }
}

@available(*, unavailable, message: "DelegateInterceptor is not thread-safe; confine it to one thread or actor")
extension DelegateInterceptor: Sendable {}

extension DelegateInterceptor: ObservedDispatcher, InvocationObserving {}
