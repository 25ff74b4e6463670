/// How a chain holds a target.
public enum Retention: Sendable, Hashable {
    /// The chain does not keep the target alive; it is never called during or after its
    /// `deinit`, and once dead it is skipped and its slot reclaimed. A native Swift class is held
    /// on the zeroing fast path (an unowned reference, each call under `swift_tryRetain`), an
    /// Objective-C-rooted object with a Swift `weak` reference (see <doc:ChoosingADispatchMode>).
    case weak
    /// The chain keeps the target alive until the target is removed or the chain is gone.
    case strong
}
