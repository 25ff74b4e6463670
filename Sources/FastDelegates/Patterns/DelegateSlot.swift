/// A host's delegate slot: one replaceable *primary* delegate and any number of *secondary*
/// listeners, which never displace each other.
///
/// A host type (a scroll view, say) owns a slot and exposes its primary as its `delegate`
/// property; other objects attach as secondaries to hear the same messages:
///
/// ```swift
/// @MainActor final class ScrollView {
///     let delegates = DelegateSlot()
///     var delegate: (any ScrollViewDelegate)? {
///         get { delegates.primary as? any ScrollViewDelegate }
///         set { delegates.setPrimary(newValue?.responder) }
///     }
///     func didScroll(to offset: Double) { delegates.send(Scroll.didScroll, offset) }
/// }
/// let token = scrollView.delegates.attach(analytics)   // the primary is untouched
/// scrollView.delegate = newController                  // and the secondary stays attached
/// ```
///
/// Semantics:
/// - The primary answers first. A void message then reaches every live secondary in attach
///   order; a message with an answer returns the primary's answer if it responds, else the
///   first responding secondary's (or `nil`, or the caller's default).
/// - Setting, replacing or clearing the primary never touches the secondaries, and attaching
///   or detaching a secondary never touches the primary (the flaw of the Objective-C
///   `secondaryDelegate` proxy, which a later `delegate =` silently dropped, is gone).
/// - Targets are held weakly unless added with ``Retention/strong``, as in a ``DelegateChain``,
///   and handlers may change the slot while it dispatches with the same rules.
///
/// Not thread-safe, and not `Sendable`: a slot lives in its owner's isolation domain (a
/// `@MainActor` view's, say), and its handlers, which may be any closure, run there.
public final class DelegateSlot: MessageDispatching {
    @usableFromInline
    let primaryChain = DelegateChain()
    @usableFromInline
    let secondaryChain = DelegateChain()

    @usableFromInline
    @exclusivity(unchecked) var observers: ObserverTable?

    /// A slot with no primary and no secondaries.
    public init() {}

    // MARK: - Primary

    /// The primary delegate, or nil if none is set or it has died.
    public var primary: AnyObject? { primaryChain.targets.first }

    /// Makes `responder` the primary delegate, replacing the previous one; `nil` clears it.
    /// Secondaries are untouched.
    public func setPrimary(_ responder: AnyResponder?, retention: Retention = .weak) {
        primaryChain.removeAll()
        if let responder { primaryChain.add(responder, retention: retention) }
    }

    /// Makes `target` the primary delegate, answering its type's responses.
    public func setPrimary<Target: DelegateResponder>(_ target: Target, retention: Retention = .weak) {
        setPrimary(AnyResponder(target), retention: retention)
    }

    /// Makes `target` the primary delegate, answering `responses`.
    public func setPrimary<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: Responses<Target>
    ) {
        setPrimary(AnyResponder(target, responses: responses), retention: retention)
    }

    /// As the overload taking ``Responses``, with `responses` in another form, such as
    /// a type's ``SendableResponses``.
    public func setPrimary<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: some ResponseSet<Target>
    ) {
        setPrimary(AnyResponder(target, responses: responses), retention: retention)
    }

    // MARK: - Secondaries

    /// The live secondaries, in attach order.
    public var secondaries: [AnyObject] { secondaryChain.targets }

    /// Attaches `responder` as a secondary, after the others.
    /// - Returns: a token whose ``DelegateToken/cancel()`` detaches it.
    @discardableResult
    public func attach(_ responder: AnyResponder, retention: Retention = .weak) -> DelegateToken {
        secondaryChain.add(responder, retention: retention)
    }

    /// Attaches `target` as a secondary, answering its type's responses.
    @discardableResult
    public func attach<Target: DelegateResponder>(_ target: Target, retention: Retention = .weak) -> DelegateToken {
        secondaryChain.add(target, retention: retention)
    }

    /// Attaches `target` as a secondary, answering `responses`.
    @discardableResult
    public func attach<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: Responses<Target>
    ) -> DelegateToken {
        secondaryChain.add(target, retention: retention, responses: responses)
    }

    /// As the overload taking ``Responses``, with `responses` in another form, such as
    /// a type's ``SendableResponses``.
    @discardableResult
    public func attach<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak, responses: some ResponseSet<Target>
    ) -> DelegateToken {
        secondaryChain.add(target, retention: retention, responses: responses)
    }

    /// Attaches `target` as a secondary, answering the responses `build` declares.
    @discardableResult
    public func attach<Target: AnyObject>(
        _ target: Target, retention: Retention = .weak,
        _ build: (Responses<Target>) -> Responses<Target>
    ) -> DelegateToken {
        secondaryChain.add(target, retention: retention, build)
    }

    /// Detaches the secondary `target`; it receives nothing more, even from a running send.
    /// - Returns: whether `target` was attached.
    @discardableResult
    public func detach(_ target: AnyObject) -> Bool {
        secondaryChain.remove(target)
    }

    // MARK: - Membership

    /// Removes every target: the primary and every secondary, as ``DelegateChain/removeAll()``
    /// does for a chain. Each receives nothing more, even from a running send.
    ///
    /// To clear only the primary, use `setPrimary(nil)`; to detach one secondary, ``detach(_:)``.
    public func removeAll() {
        primaryChain.removeAll()
        secondaryChain.removeAll()
    }

    /// Whether `target` is the primary or a secondary.
    public func contains(_ target: AnyObject) -> Bool {
        primaryChain.contains(target) || secondaryChain.contains(target)
    }

    /// Whether the slot has no live primary and no live secondary.
    public var isEmpty: Bool { primaryChain.isEmpty && secondaryChain.isEmpty }

    // MARK: - Dispatch

    /// Calls the primary, then the secondaries, that answer `message`, handing each answer to
    /// `body` until it returns true.
    @inlinable
    public func forEachAnswer<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        observedWalk(message, input, body)
    }

    /// The primary's answers, then the secondaries'.
    @inlinable
    func walk<Input, Output>(_ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool) -> Bool {
        primaryChain.forEachAnswer(to: message, input, body) || secondaryChain.forEachAnswer(to: message, input, body)
    }

    /// Whether the primary or some secondary answers `message`.
    public func responds<Input, Output>(to message: Message<Input, Output>) -> Bool {
        primaryChain.responds(to: message) || secondaryChain.responds(to: message)
    }

    /// A stream of every send of `message` through this slot, from now on, seen at `timing`
    /// (see ``InvocationObserving``).
    public func invocations<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        ObserverTable.stream(of: message, timing: timing, in: &observers, bufferingPolicy: bufferingPolicy)
    }
}

@available(*, unavailable, message: "DelegateSlot is not thread-safe; confine it to one thread or actor")
extension DelegateSlot: Sendable {}

extension DelegateSlot: ObservedDispatcher, InvocationObserving {}
