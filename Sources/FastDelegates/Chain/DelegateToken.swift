/// A registration in a ``DelegateChain``; ``cancel()`` removes its target.
///
/// Dropping a token does not remove the target (weak targets leave by dying). Cancelling is
/// idempotent, and safe after the target was removed another way or after the chain is gone.
public final class DelegateToken {
    private weak var chain: DelegateChain?
    private let generation: UInt32

    init(chain: DelegateChain, generation: UInt32) {
        self.chain = chain
        self.generation = generation
    }

    /// Removes the target this token registered, if it is still in the chain.
    public func cancel() {
        chain?.removeRegistration(generation: generation)
        chain = nil
    }
}

@available(*, unavailable, message: "a DelegateToken belongs to its chain's thread or actor")
extension DelegateToken: Sendable {}
