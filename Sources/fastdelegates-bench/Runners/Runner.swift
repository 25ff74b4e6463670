/// The measured work of one variant in one scenario at one target count: `TickRunner` (tick,
/// lookup), `FirstRunner`, `RespondsRunner` and `ChurnRunner`, one runner per workload shape,
/// each generic over the variant's multiplexer (a value of a small type the variant declares:
/// how it calls its library) and holding the targets it keeps alive and sums.
///
/// A runner's `run` is `@inline(never)` and its multiplexer's methods are `@inline(__always)`,
/// so that the loop a variant is timed on (and callgrind counts) is the variant's own code,
/// specialized for its multiplexer: nothing is called through a protocol or a closure inside it.
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

/// A runner as the harness holds it, whatever its type.
///
/// Not `any Runner`: a generic runner reached through a protocol runs its unspecialized code
/// (its multiplexer's methods called through a witness table, per dispatch). `AnyRunner` is made
/// where the runner's type is known and calls the runner's specialized `run` through a closure:
/// one indirect call per batch, outside the measured loop.
struct AnyRunner {
    private let body: (_ count: Int, _ base: Int) -> Void
    private let sum: () -> Int
    let timesThreadCPU: Bool

    init(_ runner: some Runner) {
        body = { count, base in runner.run(count, base: base) }
        sum = { runner.checksum }
        timesThreadCPU = runner.timesThreadCPU
    }

    /// Performs `count` dispatches with the values `base`, `base &+ 1`, …
    func run(_ count: Int, base: Int) { body(count, base) }

    /// What the work produced so far.
    var checksum: Int { sum() }
}

extension AnyRunner {
    /// The tick or the first scenario on `host`, a host calling its delegate, which answers
    /// through `n` new targets, each given to `add`; nil for the other scenarios (a protocol's
    /// proxy answers only these), before any target is made.
    static func hosted(
        _ scenario: Scenario, _ n: Int, _ host: some Ticking & FirstAnswering, adding add: (BenchTarget) -> Void
    ) -> AnyRunner? {
        hosted(scenario, n, host, making: BenchTarget.self, adding: add)
    }

    /// The same with targets of another kind.
    static func hosted<Target: SummingTarget>(
        _ scenario: Scenario, _ n: Int, _ host: some Ticking & FirstAnswering, making _: Target.Type,
        adding add: (Target) -> Void
    ) -> AnyRunner? {
        guard scenario == .tick || scenario == .first else { return nil }
        let targets = Target.make(n)
        for target in targets { add(target) }
        return scenario == .tick ? .tick(host, targets: targets) : .first(host, targets: targets)
    }
}
