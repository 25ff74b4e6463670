/// How a chain holds a target.
public enum Retention: Sendable, Hashable {
    /// The chain does not keep the target alive; once it dies it is skipped and its slot reclaimed.
    case weak
    /// The chain keeps the target alive until the target is removed or the chain is gone.
    case strong
}
