import Synchronization

/// A weak reference to a chain, shared by its tokens. Written once, before the chain is shared;
/// a weak load is safe from any thread.
final class ChainLink: @unchecked Sendable {
    // Sound: `chain` is written once, in the chain's `init`, before the chain or any token is
    // shared; afterwards it is only read, and a weak load is safe from any thread (also while
    // the chain deinitializes on another one).
    weak var chain: ConcurrentDelegateChain?
}
