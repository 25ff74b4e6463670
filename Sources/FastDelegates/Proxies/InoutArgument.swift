/// The value of an `inout` parameter while a `@DelegateProxy` proxy forwards it: the message
/// carries this box, each listener that responds reads and writes `value` in turn (so it sees
/// the previous listener's write), and the proxy copies the last value back to its caller.
///
/// ```swift
/// @DelegateProxy protocol DragDelegate: AnyObject {
///     func willEndDragging(targetOffset: inout Double)
/// }
/// // DragDelegateMessages.willEndDraggingTargetOffset: Message<InoutArgument<Double>, Void>
/// ```
///
/// Not `Sendable`: it lives for one send.
public final class InoutArgument<Value> {
    /// The argument's current value: the caller's, then each listener's write.
    public var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
    }
}

@available(*, unavailable, message: "InoutArgument lives for one send, on one thread")
extension InoutArgument: Sendable {}
