/// When a stream from `invocations(of:timing:)` sees a send, and what it receives: the send's
/// input before the responders run, or the input and the answer after they ran.
///
/// ```swift
/// let scrolls = chain.invocations(of: Scroll.didScroll, timing: .beforeResponders)  // Double
/// let zooms = chain.invocations(of: Scroll.viewForZooming, timing: .afterResponders)
/// for await zoom in zooms { print(zoom.input, zoom.answer as Any) }              // Invocation
/// ```
///
/// `.beforeResponders` is RxCocoa's `sentMessage` (and what `invocations(of:)` does);
/// `.afterResponders` is RxCocoa's `methodInvoked`, with the answer the send produced.
public struct InvocationTiming<Input, Output, Element>: Sendable {
    /// Whether the stream sees a send after its responders ran (else before they run).
    @usableFromInline
    let isAfterResponders: Bool

    private init(isAfterResponders: Bool) {
        self.isAfterResponders = isAfterResponders
    }
}

extension InvocationTiming where Element == Input {
    /// Each send's input, before any responder runs (RxCocoa's `sentMessage`): also a send nobody
    /// answers, and a send that a responder interrupts (by throwing no error, but by sending
    /// again, say) is seen before its nested sends.
    public static var beforeResponders: Self { Self(isAfterResponders: false) }
}

extension InvocationTiming where Element == Invocation<Input, Output> {
    /// Each send's input and first answer, once every responder the send called has returned
    /// (RxCocoa's `methodInvoked`): a send nobody answers is seen too, with no answer.
    public static var afterResponders: Self { Self(isAfterResponders: true) }
}

/// One send seen by an ``InvocationTiming/afterResponders`` stream: its input, and the first
/// answer a responder gave (nil if none answered).
///
/// The first answer is what `send(_:_:)` returns. For a void message it is `()` when some
/// responder ran. For a message whose answer is itself optional, `answer` keeps both levels:
/// `nil` when nobody answered, `.some(nil)` when the first responder answered nil.
public struct Invocation<Input, Output> {
    /// The input the message was sent with.
    public let input: Input
    /// The first responder's answer, or nil if no responder answered.
    public let answer: Output?

    /// An invocation with `input` and `answer`.
    @inlinable
    public init(input: Input, answer: Output?) {
        self.input = input
        self.answer = answer
    }
}

extension Invocation: Sendable where Input: Sendable, Output: Sendable {}
