import Foundation

/// What one process measured of one variant in one scenario at one target count: what a worker
/// process hands its parent (as JSON on its standard output), and, combined over the workers,
/// what the report shows.
struct Summary: Codable, Equatable {
    var variant: String
    var scenario: String
    var targets: Int
    /// Median ns per dispatch: of the samples in one process; once combined, the median of the
    /// workers' medians.
    var median: Double
    /// 90th percentile ns per dispatch: of the samples in one process; the median of the
    /// workers' p90s once combined.
    var p90: Double
    var allocationsPerDispatch: Double?
    var checksum: Int
    var expectedChecksum: Int
    /// Samples taken again because the thread was preempted (summed over workers).
    var discarded: Int
    /// Samples kept preempted after every retake (summed over workers).
    var interruptedKept: Int
    /// The median of each process that measured this row, in worker order (one entry in a
    /// single-process run).
    var processMedians: [Double]
    /// The copies of its timed loop that each process ran (``CodePlacement``), in worker order.
    var processCodeCopies: [[Int]] = []
    /// Once combined: in each process that measured both, the ratio of this row's median to the
    /// baseline's (``baselineVariantName``, same scenario and N); empty in one process's figures.
    var processRatios: [Double] = []

    /// Whether the checksum matches its expectation (in every worker, once combined).
    var verified: Bool { checksum == expectedChecksum }
}

extension Measurement {
    /// This process's figures.
    var summary: Summary {
        Summary(
            variant: variant, scenario: scenario, targets: targets, median: median, p90: p90,
            allocationsPerDispatch: allocationsPerDispatch, checksum: checksum, expectedChecksum: expectedChecksum,
            discarded: discarded, interruptedKept: interruptedKept, processMedians: [median],
            processCodeCopies: [codeCopies])
    }
}

/// Combines the figures of several worker processes into one report.
///
/// On a shared virtual machine (issue 46: AMD EPYC, Zen 3, under KVM), samples that no
/// preemption touched still fall into two or three speed levels that hold for a whole process:
/// which variant lands on a slow level changes from one process to the next, at the same
/// instruction count and even at the same address layout (ASLR off, same seed, same pads), and
/// the baseline draws its own level too. One process's median then reports its own draw for
/// each variant. Each worker process draws afresh (its own seed, so its own order of the samples
/// and placement of each variant's data, see ``Placement``); the report's ratio of a row is the
/// median over the processes of its ratio to the baseline measured in the same process (a paired
/// comparison), so a level that some processes drew, for the variant or for the baseline, does
/// not move it while fewer than half the processes drew it. Tried first and not kept: the median
/// of each row's medians, and the lowest of them (a baseline that drew a fast level in one
/// process made every other variant slower by as much).
enum WorkerAggregation {
    /// The median of `values`: the middle one, or the mean of the two middle ones; NaN when empty.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// One summary per (scenario, variant, targets), in the order of their first appearance:
    /// the medians over the workers that measured it of its median, p90 and allocations, its
    /// ratio to the baseline in each of them (``Summary/processRatios``); the
    /// preemption counts summed; the checksum of the first worker whose checksum was wrong, else
    /// of the first worker.
    static func combine(_ workers: [[Summary]]) -> [Summary] {
        struct Key: Hashable {
            let scenario: String
            let variant: String
            let targets: Int
        }
        var order: [Key] = []
        var groups: [Key: [Summary]] = [:]
        for worker in workers {
            for summary in worker {
                let key = Key(scenario: summary.scenario, variant: summary.variant, targets: summary.targets)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(summary)
            }
        }
        return order.map { key in
            let group = groups[key]!
            let checked = group.first { !$0.verified } ?? group[0]
            let allocations = group.compactMap(\.allocationsPerDispatch)
            return Summary(
                variant: key.variant, scenario: key.scenario, targets: key.targets,
                median: median(group.map(\.median)), p90: median(group.map(\.p90)),
                allocationsPerDispatch: allocations.count == group.count ? median(allocations) : nil,
                checksum: checked.checksum, expectedChecksum: checked.expectedChecksum,
                discarded: group.reduce(0) { $0 + $1.discarded },
                interruptedKept: group.reduce(0) { $0 + $1.interruptedKept },
                processMedians: group.flatMap(\.processMedians),
                processCodeCopies: group.flatMap(\.processCodeCopies),
                processRatios: workers.compactMap { ratio(of: key.variant, key.scenario, key.targets, in: $0) })
        }
    }

    /// The ratio of a row's median to the baseline's in one worker's figures; nil when that
    /// worker measured either not.
    static func ratio(of variant: String, _ scenario: String, _ targets: Int, in worker: [Summary]) -> Double? {
        func find(_ name: String) -> Summary? {
            worker.first { $0.variant == name && $0.scenario == scenario && $0.targets == targets }
        }
        guard let row = find(variant), let baseline = find(baselineVariantName(scenario: scenario)) else { return nil }
        return row.median / baseline.median
    }

    /// The seed of worker `index` of a run with seed `seed`: the run's own seed for the first
    /// worker (so a one-process run measures as before), a distinct one for each other.
    static func seed(ofWorker index: Int, runSeed seed: UInt64) -> UInt64 {
        guard index > 0 else { return seed }
        var random = SplitMix64(seed: seed ^ UInt64(truncatingIfNeeded: index) &* 0xA24B_AED4_963E_E407)
        return random.next()
    }

    /// How many timed samples each of `processes` workers takes so that they take `samples` in
    /// all (at least 5 each, so that each worker's median means something).
    static func samplesPerWorker(total samples: Int, processes: Int) -> Int {
        max(5, (samples + processes - 1) / max(1, processes))
    }
}

/// Where the harness places each variant's data: before it makes each runner it allocates a
/// padding block and keeps it alive until the runner's figures are taken, so that the runner's
/// chain and targets start at another offset in the heap than they would otherwise, relative to
/// the other runners' data, to the stack, and to page boundaries (4 KiB aliasing compares
/// address bits 0–11 only).
///
/// Each worker process draws its own pads from its seed; ``extra`` adds a fixed pad before the
/// named variants, for a deliberate perturbation of the layout (`--pad VARIANT=BYTES`).
struct Placement {
    /// The upper bound (exclusive) of the random pad, in bytes; 0 draws no random pad.
    var randomBytes: Int
    /// Fixed extra bytes before the runners of these variants (added to the random pad).
    var extra: [String: Int] = [:]

    /// No padding at all.
    static let none = Placement(randomBytes: 0)

    /// The pad before `variant`'s runner: a multiple of 16 bytes below ``randomBytes`` drawn from
    /// `random`, plus its ``extra`` bytes.
    func pad(for variant: String, random: inout SplitMix64) -> Int {
        let drawn = randomBytes >= 16 ? Int(random.next() % UInt64(randomBytes / 16)) * 16 : 0
        return drawn + (extra[variant] ?? 0)
    }

    /// Parses `VARIANT=BYTES` (as `--pad` takes it); nil when malformed.
    static func parseExtra(_ text: String) -> (variant: String, bytes: Int)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, let bytes = Int(parts[1]), bytes >= 0 else { return nil }
        return (parts[0], bytes)
    }
}
