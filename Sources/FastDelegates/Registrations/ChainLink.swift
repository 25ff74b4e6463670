import Synchronization

/// A weak reference to a chain, shared by its tokens. Written once, before the chain is shared;
/// a weak load is safe from any thread.
final class ChainLink: @unchecked Sendable {
    weak var chain: ConcurrentDelegateChain?
}
