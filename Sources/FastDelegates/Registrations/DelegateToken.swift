/// A registration in a ``DelegateChain``; ``cancel()`` removes its target.
///
/// Dropping a token does not remove the target (weak targets leave by dying). Cancelling is
/// idempotent, and safe after the target was removed another way or after the chain is gone.
public final class DelegateToken {
    private weak var chain: DelegateChain?
    /// The registration's serial in its chain: never reused, so a stale token cannot remove a
    /// later registration.
    let serial: UInt64

    /// A token that removes nothing: what adding a target that a chain or proxy refuses returns
    /// (see ``DelegateChain``'s notes on adding a chain to itself).
    public init() {
        serial = 0
    }

    init(chain: DelegateChain, serial: UInt64) {
        self.chain = chain
        self.serial = serial
    }

    /// Removes the target this token registered, if it is still in the chain.
    public func cancel() {
        chain?.removeRegistration(serial: serial)
        chain = nil
    }
}

@available(*, unavailable, message: "a DelegateToken belongs to its chain's thread or actor")
extension DelegateToken: Sendable {}
