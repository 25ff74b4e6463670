/// One variant set up for one scenario and target count. `run` is the measured work.
protocol Runner: AnyObject {
    /// Performs `count` dispatches with the values `base`, `base &+ 1`, …
    func run(_ count: Int, base: Int)
    /// What the work produced so far (target sums, answers, or true counts).
    var checksum: Int { get }
    /// Whether `run` is timed with the harness thread's CPU time instead of the wall clock: for
    /// runners that keep a second thread busy, so that the harness thread being preempted by
    /// it (on a machine with few free cores) is not counted as dispatch time.
    var timesThreadCPU: Bool { get }
}

extension Runner {
    var timesThreadCPU: Bool { false }
}

/// A way of multiplexing delegate messages, benchmarked against the others.
struct Variant: Sendable {
    /// Stable name used in reports and by `--filter`.
    let name: String
    /// Whether a void message reaches only the first responder.
    var breaking = false
    /// Builds a runner for a scenario and target count, or nil if the variant does not take part.
    let make: @Sendable (Scenario, Int) -> Runner?
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
    ConcurrentVariant.weak,
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
]

/// The name of the baseline variant: FastDelegates, weak, non-breaking.
let baselineVariantName = "fastdelegates-weak"
