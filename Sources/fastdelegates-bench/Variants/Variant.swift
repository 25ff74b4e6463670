/// A way of multiplexing delegate messages, benchmarked against the others.
struct Variant: Sendable {
    /// Stable name used in reports and by `--filter`.
    let name: String
    /// Whether a void message reaches only the first responder.
    var breaking = false
    /// Builds a runner for a scenario and target count, or nil if the variant does not take part.
    let make: @Sendable (Scenario, Int) -> AnyRunner?
}

/// Every variant, in report order. The first is the baseline of every ratio.
let allVariants: [Variant] = [
    FastDelegatesVariant.variant(retention: .weak, mode: .nonBreaking),
    FastDelegatesVariant.variant(retention: .strong, mode: .nonBreaking),
    FastDelegatesVariant.variant(retention: .weak, mode: .breaking),
    FastDelegatesVariant.variant(retention: .strong, mode: .breaking),
    FastDelegatesWeakReferenceVariant.variant,
    MainActorVariant.variant,
    ProxyVariant.variant,
    ProxyVariant.handWritten,
    ProxySparseVariant.variant,
    ConcurrentVariant.weak,
    ConcurrentProxyVariant.variant,
    ConcurrentProxyVariant.handWritten,
    ConcurrentVariant.twoThreadsShared,
    ConcurrentVariant.twoThreadsSeparate,
    PureSwiftProxyVariant.variant,
    HandWrittenWeakVariant.variant,
    ZeroingFloorVariants.zeroingFloor,
    ZeroingFloorVariants.unownedSafe,
    StrongArrayVariant.variant,
    NaiveMulticastVariant.variant,
    NotificationCenterVariant.variant,
    OpenCombineVariant.variant,
    XMLFanOutVariant.proxy,
    XMLFanOutVariant.handWritten,
    // The lifecycle scenario (issue 53): create, add, send once, destroy.
    LifecycleVariants.variant(LifecycleVariants.HandWrittenForwarder.self),
    LifecycleVariants.variant(LifecycleVariants.NaiveMulticast.self),
    LifecycleVariants.variant(LifecycleVariants.Chain.self),
    LifecycleVariants.variant(LifecycleVariants.Concurrent.self),
    LifecycleVariants.variant(LifecycleVariants.GeneratedProxy.self),
    LifecycleVariants.variant(LifecycleVariants.GeneratedProxy8.self),
    LifecycleVariants.variant(LifecycleVariants.XMLProxy.self),
]

/// The name of the baseline variant: FastDelegates, weak, non-breaking.
let baselineVariantName = "fastdelegates-weak"

/// The variant a scenario's ratios are to: the hand-written forwarder in the lifecycle scenario
/// (what one instance costs against the forwarder it replaces), else ``baselineVariantName``.
func baselineVariantName(scenario: String) -> String {
    scenario == Scenario.lifecycle.description ? LifecycleVariants.HandWrittenForwarder.name : baselineVariantName
}
