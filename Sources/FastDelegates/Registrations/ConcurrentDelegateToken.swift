/// A registration in a ``ConcurrentDelegateChain``; ``cancel()`` removes its target.
///
/// Dropping a token does not remove the target (weak targets leave by dying). A token does not
/// keep its chain alive. It may be used from any thread.
///
/// A token costs its chain nothing lasting: it holds the chain as the zeroing hold holds a
/// target (an unowned reference, a strong one taken with `swift_tryRetain` for the cancel only),
/// so a token that is dropped unused leaves nothing behind on the chain. While a token lives
/// after its chain died, it keeps the chain's memory (not its registrations or snapshots), which
/// dropping the token gives back.
public final class ConcurrentDelegateToken: @unchecked Sendable {
    // Sound: both properties are written in `init` only. The hold's unowned reference keeps the
    // chain's memory for the token's life, so `swift_tryRetain` through it is safe from any
    // thread, also while the chain deinitializes on another one (it then fails), and the
    // reference is given back once, in `deinit`, when no other thread uses the token.

    /// The chain, under an unowned reference; nil for a token that removes nothing.
    @usableFromInline let chain: ZeroingHold?
    /// The registration's serial in its chain.
    @usableFromInline let serial: UInt64

    /// A token that removes nothing: what adding a target that a proxy refuses returns.
    public init() {
        chain = nil
        serial = 0
    }

    /// A token of `chain`'s registration `serial`. Inlined into the caller of the `add`, so that
    /// a token that the caller drops can stay on its stack (no heap block).
    @inlinable
    init(chain: ConcurrentDelegateChain, serial: UInt64) {
        self.chain = Self.hold(chain)
        self.serial = serial
    }

    /// The unowned reference a token holds its chain by.
    @usableFromInline
    static func hold(_ chain: ConcurrentDelegateChain) -> ZeroingHold {
        ZeroingHold(chain)
    }

    deinit {
        chain?.release()
    }

    /// Removes the target this token registered, if it is still in the chain, with the
    /// guarantees of ``ConcurrentDelegateChain/remove(_:)``: when it returns, no call to the
    /// target is running on another thread (also if another thread removed it first), unless it
    /// is called from inside a handler.
    ///
    /// It waits for those calls, so, as for `remove`, the target's handler must not wait for
    /// it: no synchronous hop to a thread that cancels the handler's own token (that thread
    /// waits for the handler, which waits for it), and no cancelling while holding a lock the
    /// handler takes.
    ///
    /// Idempotent; safe after the target was removed another way, after the target died, and
    /// after the chain is gone (also while it deinitializes on another thread).
    public func cancel() {
        guard let chain = chain?.target else { return }
        unsafeDowncast(chain, to: ConcurrentDelegateChain.self).removeRegistration(serial: serial)
    }
}
