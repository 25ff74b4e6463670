import Synchronization

/// A registration in a ``ConcurrentDelegateChain``; ``cancel()`` removes its target.
///
/// Dropping a token does not remove the target (weak targets leave by dying). A token does not
/// keep its chain alive. It may be used from any thread.
public final class ConcurrentDelegateToken: Sendable {
    private let link: ChainLink
    let serial: UInt64

    /// A token that removes nothing: what adding a target that a proxy refuses returns.
    public init() {
        link = ChainLink()
        serial = 0
    }

    init(link: ChainLink, serial: UInt64) {
        self.link = link
        self.serial = serial
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
    /// after the chain is gone.
    public func cancel() {
        link.chain?.removeRegistration(serial: serial)
    }
}
