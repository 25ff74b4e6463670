/// A registration in a ``DelegateChain``; ``cancel()`` removes its target.
///
/// Dropping a token does not remove the target (weak targets leave by dying). Cancelling is
/// idempotent, and safe after the target was removed another way or after the chain is gone.
///
/// A token costs its chain nothing lasting: it holds the chain as the zeroing hold holds a
/// target (an unowned reference, a strong one taken for the cancel only), so it never keeps the
/// chain alive, and a token that is dropped unused leaves nothing behind on the chain. While a
/// token lives after its chain died, it keeps the chain's memory (not its registrations or
/// tables), which ``cancel()`` or dropping the token gives back.
public final class DelegateToken {
    // Both stored properties and the chain's initializer are inlinable: an `add` whose token the
    // caller drops then makes the token in the caller's code, where the optimizer keeps it on
    // the stack (no heap allocation).

    /// The chain, under an unowned reference; nil for a token that removes nothing, and once
    /// cancelled.
    // Unchecked: each access is a plain read or write (`cancel` clears it before the removal).
    @usableFromInline @exclusivity(unchecked)
    var chain: ZeroingHold?
    /// The registration's serial in its chain: never reused, so a stale token cannot remove a
    /// later registration.
    @usableFromInline
    let serial: UInt64

    /// A token that removes nothing: what adding a target that a chain or proxy refuses returns
    /// (see ``DelegateChain``'s notes on adding a chain to itself).
    public init() {
        serial = 0
    }

    /// A token that removes the registration `serial` of `chain`.
    @inlinable
    init(chain: DelegateChain, serial: UInt64) {
        self.chain = ZeroingHold(chain)
        self.serial = serial
    }

    deinit {
        chain?.release()
    }

    /// Removes the target this token registered, if it is still in the chain.
    public func cancel() {
        guard let hold = chain else { return }
        // Before the removal: a deinit it runs may cancel this token again.
        chain = nil
        if let chain = hold.target {
            unsafeDowncast(chain, to: DelegateChain.self).removeRegistration(serial: serial)
        }
        hold.release()
    }
}

@available(*, unavailable, message: "a DelegateToken belongs to its chain's thread or actor")
extension DelegateToken: Sendable {}
