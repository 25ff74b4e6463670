/// The receiver side of an interceptor, reachable from the middle man's handlers.
/// Used only on the interceptor's thread.
@usableFromInline
final class ReceiverLink {
    @usableFromInline
    let chain = DelegateChain()

    init() {}
}
