import Testing

@testable import fastdelegates_bench

/// How the figures of several worker processes become one report, and where each variant's data
/// is placed. No timing: scripted figures and seeded pads.
@Suite struct WorkerAggregationTests {
    static func summary(
        _ variant: String, targets: Int = 1, median: Double, p90: Double? = nil, allocations: Double? = 0,
        checksum: Int = 7, expected: Int = 7, discarded: Int = 0
    ) -> Summary {
        Summary(
            variant: variant, scenario: "tick", targets: targets, median: median, p90: p90 ?? median * 1.1,
            allocationsPerDispatch: allocations, checksum: checksum, expectedChecksum: expected,
            discarded: discarded, interruptedKept: 0, processMedians: [median])
    }

    @Test func theMedianIsTheMiddleValueOrTheMeanOfTheTwoMiddleOnes() {
        #expect(WorkerAggregation.median([3, 1, 2]) == 2)
        #expect(WorkerAggregation.median([4, 1, 3, 2]) == 2.5)
        #expect(WorkerAggregation.median([5]) == 5)
        #expect(WorkerAggregation.median([]).isNaN)
    }

    /// Issue 46's shape: in each process some variants land on a slow level (2–3× at the same
    /// instruction count), a different one in each process; a whole process may be slow; and the
    /// baseline may draw a fast level of its own. The median of the ratios taken within each
    /// process follows the instruction counts; the ratio of the medians over the processes, of
    /// their lowest, or any one process would not.
    @Test func levelsDrawnPerProcessDoNotMoveTheRatio() throws {
        let weak = [11.5, 12.0, 30.0, 8.0, 30.0]
        let mainactor = [33.0, 12.1, 30.5, 11.9, 30.2]
        let proxy = [11.6, 24.0, 30.2, 12.0, 30.4]
        let workers = (0..<5).map { k in
            [
                Self.summary("fastdelegates-weak", median: weak[k]),
                Self.summary("fastdelegates-mainactor", median: mainactor[k]),
                Self.summary("fastdelegates-proxy", median: proxy[k]),
            ]
        }
        let combined = WorkerAggregation.combine(workers)
        #expect(combined.map(\.variant) == ["fastdelegates-weak", "fastdelegates-mainactor", "fastdelegates-proxy"])
        for row in ResultRow.rows(combined) {
            let ratio = try #require(row.ratio_to_fastdelegates)
            #expect(abs(ratio - 1) < 0.05, "\(row.variant): \(ratio)")
        }
        #expect(combined[0].median == 12.0)
        #expect(combined[1].processMedians == mainactor)
        #expect(combined[1].processRatios.count == 5)
        #expect(abs(combined[1].processRatios[0] - 33.0 / 11.5) < 1e-9)
        // One process alone (the first) would have reported mainactor at 2.9×, the ratio of the
        // medians 2.5× (30.2 / 12), the ratio of the lowest 1.3× (11.9 / 8; proxy 1.5×).
        #expect(try #require(ResultRow.rows(workers[0])[1].ratio_to_fastdelegates) > 2.5)
        #expect(combined[1].median / combined[0].median > 2.4)
        #expect(mainactor.min()! / weak.min()! > 1.15)
    }

    /// A cost of the code itself is in every process, and stays in the report.
    @Test func aSlowdownInEveryProcessStays() throws {
        let workers = (0..<5).map { k in
            [
                Self.summary("fastdelegates-weak", median: 12 + Double(k)),
                Self.summary("fastdelegates-mainactor", median: 2.5 * (12 + Double(k))),
            ]
        }
        let rows = ResultRow.rows(WorkerAggregation.combine(workers))
        #expect(abs(try #require(rows[1].ratio_to_fastdelegates) - 2.5) < 1e-9)
    }

    /// Without the baseline (filtered out) there is no ratio, as in one process.
    @Test func noBaselineNoRatio() {
        let combined = WorkerAggregation.combine([[Self.summary("a", median: 1)], [Self.summary("a", median: 2)]])
        #expect(combined[0].processRatios.isEmpty)
        #expect(ResultRow.rows(combined)[0].ratio_to_fastdelegates == nil)
    }

    /// Rows are kept apart by scenario, variant and N; p90 and allocations are medians, the
    /// preemption counts add up, and a row measured by fewer workers combines what there is.
    @Test func rowsCombinePerScenarioVariantAndTargets() {
        let workers = [
            [
                Self.summary("a", targets: 1, median: 10, p90: 20, allocations: 0, discarded: 2),
                Self.summary("a", targets: 4, median: 40, allocations: 1),
            ],
            [
                Self.summary("a", targets: 1, median: 12, p90: 14, allocations: 0, discarded: 1),
                Self.summary("a", targets: 4, median: 44, allocations: 1),
            ],
            [Self.summary("a", targets: 1, median: 11, p90: 30, allocations: 0)],
        ]
        let combined = WorkerAggregation.combine(workers)
        #expect(combined.count == 2)
        #expect(combined[0].targets == 1 && combined[1].targets == 4)
        #expect(combined[0].median == 11 && combined[0].p90 == 20)
        #expect(combined[0].discarded == 3)
        #expect(combined[0].processMedians == [10, 12, 11])
        #expect(combined[1].median == 42 && combined[1].allocationsPerDispatch == 1)
    }

    /// A checksum that is wrong in any one worker stays wrong in the combined row (the CLI then
    /// fails), and allocations unknown in any worker are unknown.
    @Test func aWrongChecksumInAnyWorkerFailsTheCombinedRow() {
        let workers = [
            [Self.summary("a", median: 10, checksum: 7, expected: 7)],
            [Self.summary("a", median: 10, allocations: nil, checksum: 8, expected: 9)],
            [Self.summary("a", median: 10, checksum: 5, expected: 5)],
        ]
        let combined = WorkerAggregation.combine(workers)
        #expect(!combined[0].verified)
        #expect(combined[0].checksum == 8 && combined[0].expectedChecksum == 9)
        #expect(combined[0].allocationsPerDispatch == nil)
        #expect(WorkerAggregation.combine([workers[0], workers[2]])[0].verified)
    }

    /// The first worker keeps the run's seed; the others get distinct ones, the same every run.
    @Test func eachWorkerHasItsOwnRepeatableSeed() {
        #expect(WorkerAggregation.seed(ofWorker: 0, runSeed: 1) == 1)
        let seeds = (0..<8).map { WorkerAggregation.seed(ofWorker: $0, runSeed: 1) }
        #expect(Set(seeds).count == seeds.count)
        #expect(seeds == (0..<8).map { WorkerAggregation.seed(ofWorker: $0, runSeed: 1) })
        #expect(WorkerAggregation.seed(ofWorker: 1, runSeed: 2) != seeds[1])
    }

    /// The workers share the samples of a one-process run, at least 5 each.
    @Test func theWorkersShareTheSamples() {
        #expect(WorkerAggregation.samplesPerWorker(total: 101, processes: 5) == 21)
        #expect(WorkerAggregation.samplesPerWorker(total: 101, processes: 1) == 101)
        #expect(WorkerAggregation.samplesPerWorker(total: 7, processes: 3) == 5)
    }

    /// Random pads are multiples of 16 below the bound, vary, and repeat for a seed; a named
    /// variant's extra bytes are added to its pad only.
    @Test func padsAreAlignedBoundedSeededAndExtraForTheNamedVariant() {
        let placement = Placement(randomBytes: 4096, extra: ["b": 2064])
        var random = SplitMix64(seed: 9)
        var again = SplitMix64(seed: 9)
        var pads: [Int] = []
        for _ in 0..<200 {
            let pad = placement.pad(for: "a", random: &random)
            #expect(pad == placement.pad(for: "a", random: &again))
            #expect(pad % 16 == 0 && pad >= 0 && pad < 4096)
            pads.append(pad)
        }
        #expect(Set(pads).count > 100)
        var one = SplitMix64(seed: 3)
        var other = SplitMix64(seed: 3)
        #expect(placement.pad(for: "b", random: &one) == placement.pad(for: "a", random: &other) + 2064)
        var none = SplitMix64(seed: 3)
        #expect(Placement.none.pad(for: "a", random: &none) == 0)
        let parsed = Placement.parseExtra("fastdelegates-mainactor=2064")
        #expect(parsed?.variant == "fastdelegates-mainactor" && parsed?.bytes == 2064)
        #expect(Placement.parseExtra("x") == nil)
        #expect(Placement.parseExtra("x=-1") == nil)
        #expect(Placement.parseExtra("=16") == nil)
    }
}
