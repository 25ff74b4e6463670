/// Formerly the way to put a target on the fast zeroing hold: a target that told its chains
/// when it died.
///
/// Every native Swift class now gets that hold by default, with no conformance and no stored
/// property, so this protocol changes nothing: a conforming target is held exactly like any
/// other instance of its class. Chains learn of deaths by themselves (a call whose
/// `swift_tryRetain` fails, and the amortized sweep on each add), and measurements showed the
/// early death reports no faster than that (see `docs/benchmarks.md`).
@available(
    *, deprecated,
    message:
        "Not needed: chains hold every native Swift class on the zeroing fast path by default. Remove the conformance and the delegateLifetime property."
)
public protocol DelegateLifetimeTracking: AnyObject {
    /// The lifetime this object owns (no longer read by chains).
    var delegateLifetime: DelegateLifetime { get }
}

/// Formerly what a ``DelegateLifetimeTracking`` target stored to report its death; chains no
/// longer read it.
@available(
    *, deprecated,
    message:
        "Not needed: chains hold every native Swift class on the zeroing fast path by default. Remove the stored DelegateLifetime."
)
public final class DelegateLifetime: Sendable {
    /// A lifetime (it reports nothing: chains no longer need it).
    public init() {}
}
