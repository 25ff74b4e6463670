// The stored properties are named exactly as the JSON schema's snake_case keys.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// One row of the report; its JSON form is the stable schema documented in docs/bench-schema.md.
struct ResultRow: Codable, Equatable {
    /// Variant name, e.g. `fastdelegates-weak`.
    let variant: String
    /// Scenario name: `tick`, `first`, `responds`, `lookup-<messages>` or `churn`.
    let scenario: String
    /// Number of targets on the chain.
    let targets: Int
    /// Median nanoseconds per dispatch over the timed samples.
    let median_ns: Double
    /// 90th percentile nanoseconds per dispatch.
    let p90_ns: Double
    /// Heap allocations per dispatch (malloc calls), or nil if counting is unavailable.
    let allocs_per_dispatch: Double?
    /// median_ns / median_ns of `fastdelegates-weak` in the same scenario and target count,
    /// or nil when that baseline was not measured; with several worker processes, the median
    /// over them of this ratio in each (``WorkerAggregation``).
    let ratio_to_fastdelegates: Double?
    /// The verified checksum of the variant's work (equal to the computed expectation).
    let checksum: Int

    /// Encodes every key, writing `null` for unknown values (the default would omit the key).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(variant, forKey: .variant)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(targets, forKey: .targets)
        try container.encode(median_ns, forKey: .median_ns)
        try container.encode(p90_ns, forKey: .p90_ns)
        try container.encode(allocs_per_dispatch, forKey: .allocs_per_dispatch)
        try container.encode(ratio_to_fastdelegates, forKey: .ratio_to_fastdelegates)
        try container.encode(checksum, forKey: .checksum)
    }

    /// Rows for `measurements`, with ratios to the baseline of the same scenario and targets.
    static func rows(_ measurements: [Measurement]) -> [ResultRow] { rows(measurements.map(\.summary)) }

    /// Rows for `summaries` (one process's, or combined over worker processes), with ratios to
    /// the baseline of the same scenario and targets.
    static func rows(_ measurements: [Summary]) -> [ResultRow] {
        measurements.map { m in
            let baseline = measurements.first {
                $0.variant == baselineVariantName(scenario: m.scenario) && $0.scenario == m.scenario
                    && $0.targets == m.targets
            }
            return ResultRow(
                variant: m.variant, scenario: m.scenario, targets: m.targets,
                median_ns: m.median, p90_ns: m.p90, allocs_per_dispatch: m.allocationsPerDispatch,
                ratio_to_fastdelegates: m.processRatios.isEmpty
                    ? baseline.map { m.median / $0.median } : WorkerAggregation.median(m.processRatios),
                checksum: m.checksum)
        }
    }
}
