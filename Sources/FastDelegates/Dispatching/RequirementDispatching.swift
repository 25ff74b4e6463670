/// A chain that sends the requirements of `@DelegateProxy` protocols: ``DelegateChain`` and
/// ``ConcurrentDelegateChain``.
///
/// Conformers provide the walk over the listeners that implement a requirement
/// (``forEachAnswer(toRequirement:_:_:)``); the sends that answer with one value, a default or a
/// combination come with the protocol, as ``MessageDispatching``'s do for plain messages. A
/// listener that does not implement the requirement is asked once and then left out (see
/// below). A proxy over a ``DelegateChain`` sends its own requirements through prepared messages,
/// and these for the rest: a requirement it inherits from a parent protocol, and every
/// requirement over a ``ConcurrentDelegateChain``.
///
/// A protocol's listeners implement only the requirements they need; the protocol's generated
/// extension gives every other requirement a default implementation. A send cannot tell the two
/// apart without calling them, so the first send that meets a listener's handler for the
/// requirement (a handler of ``Responses/on(requirement:_:)-(Message<Input,Output>,_)``, *unverified*) asks it: it arms
/// this thread's declining record for the message and the listener, calls the handler, and reads
/// the record back. A generated default that finds the record armed for its own message and
/// listener claims it (``RequirementDefaults/declines(_:_:)``) and returns at once:
/// - a listener that declined is not counted: its answer is ignored, the walk goes on, and its
///   registration loses the requirement's handler at once. Listeners of the same class share
///   the handler (``ResponderCache``), so they lose it too as sends reach them, and a listener
///   of that class added later never registers it. From then on the chain's
///   ``DelegateChain/responds(to:)`` does not count them, and no send calls them;
/// - a listener that answered has its handler marked *verified*: its answer counts.
///
/// Until a send of the requirement has reached a listener, the chain counts it as responding
/// (``DelegateChain/responds(to:)`` is true for it).
///
/// A proxy prepares its own requirements' messages (``PreparedRequirement``):
/// a send whose responders are all verified is then an ordinary prepared send, one
/// compare while the table is unchanged, then the walk. Only the send that follows a change of
/// the table looks at the handlers' statuses, out of line. A ``ConcurrentDelegateChain``'s
/// snapshot records, for each message, whether its handlers were all verified when it was built:
/// a send of a requirement whose handlers were is an ordinary send, and the send that verifies
/// the last of them publishes a snapshot that records it.
public protocol RequirementDispatching: AnyObject {
    /// Whether a void requirement reaches every implementing listener or only the first.
    var mode: DelegateChain.Mode { get }

    /// Calls the live listeners that implement the requirement of `message` in order with
    /// `input`, handing each answer to `body`, until it returns true. A listener found not to
    /// implement it is not handed to `body`, and is not called for it again.
    /// - Returns: whether `body` stopped the walk.
    func forEachAnswer<Input, Output>(
        toRequirement message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool
}

extension RequirementDispatching {
    /// Sends a requirement's void message: every live listener that implements it, in order, or
    /// only the first of them in ``DelegateChain/Mode/breaking`` mode.
    /// - Complexity: O(1) expected to find the listeners, then one status check and call each.
    @inlinable @inline(__always)
    public func send<Input>(requirement message: Message<Input, Void>, _ input: Input) {
        // Two walks, so that neither tests the mode for each listener.
        if mode == .breaking {
            _ = forEachAnswer(toRequirement: message, input) { _ in true }
        } else {
            _ = forEachAnswer(toRequirement: message, input) { _ in false }
        }
    }

    /// Sends to the first live listener that implements a requirement, whatever the chain's
    /// mode: how a proxy hands a completion handler to exactly one listener.
    /// - Returns: whether a listener took it (when none did, the caller completes).
    @inlinable
    public func sendToFirst<Input>(requirement message: Message<Input, Void>, _ input: Input) -> Bool {
        forEachAnswer(toRequirement: message, input) { _ in true }
    }

    /// The first live implementing listener's answer to a requirement, or nil if none answers.
    ///
    /// Inlined whole, as the void send, so that a proxy's method is one frame with the walk.
    @inlinable @inline(__always)
    public func send<Input, Output>(requirement message: Message<Input, Output>, _ input: Input) -> Output? {
        var answer: Output?
        _ = forEachAnswer(toRequirement: message, input) { output in
            answer = output
            return true
        }
        return answer
    }

    /// The first live implementing listener's answer to a requirement whose answer is itself
    /// optional, not wrapped once more (nil also when it answers nil).
    @inlinable
    public func send<Input, Wrapped>(requirement message: Message<Input, Wrapped?>, _ input: Input) -> Wrapped? {
        firstAnswer { forEachAnswer(toRequirement: message, input, $0) } ?? nil
    }

    /// The first live implementing listener's answer to a requirement, or `defaultValue` when
    /// no live listener implements it. Inlined whole, as the send it wraps.
    @inlinable @inline(__always)
    public func send<Input, Output>(
        requirement message: Message<Input, Output>, _ input: Input,
        default defaultValue: @autoclosure () -> Output
    ) -> Output {
        send(requirement: message, input) ?? defaultValue()
    }

    /// The answers of every live listener that implements a requirement, combined; the
    /// combination's initial value when none does.
    @inlinable
    public func send<Input, Output, Result>(
        requirement message: Message<Input, Output>, _ input: Input,
        combining combination: AnswerCombination<Output, Result>
    ) -> Result {
        combinedAnswers(of: { forEachAnswer(toRequirement: message, input, $0) }, combination)
    }
}
