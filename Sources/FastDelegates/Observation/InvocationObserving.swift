/// A dispatcher whose sends can be observed as `AsyncStream`s: every dispatcher of this library
/// (``DelegateChain``, ``ConcurrentDelegateChain``, ``DelegateSlot``, ``DelegateRouter``,
/// ``DelegateInterceptor``).
///
/// A conformer implements ``invocations(of:timing:bufferingPolicy:)``; the shorthand for the
/// inputs before the responders, ``invocations(of:bufferingPolicy:)``, comes with the protocol.
///
/// Observing is not responding: it never changes `responds(to:)`, a breaking-mode stop or an
/// answer. Every send is seen (also one nobody answers), on the sending thread. The observer
/// goes away when the consuming task ends or the stream is dropped (at the dispatcher's next
/// send), and the stream finishes when the dispatcher is gone. Events are buffered as the
/// buffering policy says (by default none is dropped).
public protocol InvocationObserving: AnyObject {
    /// A stream of every send of `message` through this dispatcher, from now on, seen at
    /// `timing`: its input before the responders run (``InvocationTiming/beforeResponders``,
    /// RxCocoa's `sentMessage`), or its input and first answer once they ran
    /// (``InvocationTiming/afterResponders``, RxCocoa's `methodInvoked`).
    ///
    /// ```swift
    /// for await zoom in chain.invocations(of: Scroll.viewForZooming, timing: .afterResponders) {
    ///     print(zoom.input, zoom.answer as Any)            // nil answer: nobody answered
    /// }
    /// ```
    func invocations<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
    ) -> AsyncStream<Element>
}

extension InvocationObserving {
    /// A stream of the input of every send of `message` through this dispatcher, from now on,
    /// seen before the responders run: ``invocations(of:timing:bufferingPolicy:)`` with
    /// ``InvocationTiming/beforeResponders`` (RxCocoa's `sentMessage` timing).
    public func invocations<Input: Sendable, Output>(
        of message: Message<Input, Output>,
        bufferingPolicy: AsyncStream<Input>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Input> {
        invocations(of: message, timing: .beforeResponders, bufferingPolicy: bufferingPolicy)
    }
}
