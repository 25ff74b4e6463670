/// Settings of one benchmark run.
struct HarnessSettings {
    /// Timed samples per runner, after warm-up.
    var samples: Int
    /// Untimed warm-up samples per runner.
    var warmupSamples: Int
    /// The wall time one sample aims for; the batch size of each runner is calibrated to it.
    var sampleNanoseconds: Double
    /// Dispatches counted for the allocation figure (at most; fewer for very slow runners).
    var allocationDispatches: Int
    /// Whether allocation counting works (see ``AllocationCounter/selfTest()``).
    var countAllocations: Bool
    /// Seed of the dispatched values and of the order of the samples in each round.
    var seed: UInt64
    /// How many times a sample during which the harness thread was preempted is taken again
    /// (see ``SampleTaking``).
    var retakes = 20
    /// The padding before each runner's data (``Placement``).
    var placement = Placement.none
    /// Which copy of its timed loop each variant runs (``CodePlacement``).
    var codePlacement = CodePlacement.single

    static func normal(seed: UInt64, countAllocations: Bool) -> HarnessSettings {
        HarnessSettings(
            samples: 101, warmupSamples: 5, sampleNanoseconds: 2_000_000,
            allocationDispatches: 2_000, countAllocations: countAllocations, seed: seed)
    }

    static func quick(seed: UInt64, countAllocations: Bool) -> HarnessSettings {
        HarnessSettings(
            samples: 7, warmupSamples: 1, sampleNanoseconds: 300_000,
            allocationDispatches: 200, countAllocations: countAllocations, seed: seed)
    }
}

/// The measured figures of one variant in one scenario at one target count.
struct Measurement {
    let variant: String
    let scenario: String
    let targets: Int
    /// Nanoseconds per dispatch of each timed sample.
    let samples: [Double]
    let allocationsPerDispatch: Double?
    let checksum: Int
    let expectedChecksum: Int
    /// Dispatches per timed sample, as calibrated.
    let batch: Int
    /// Timed batches thrown away because the harness thread was preempted while they ran (each
    /// was taken again).
    var discarded = 0
    /// Samples kept although every attempt at them was interrupted (the fastest attempt).
    var interruptedKept = 0
    /// The copies of its timed loop that the runner ran, one runner each (``CodePlacement``).
    var codeCopies = [0]

    var median: Double { percentile(0.5) }
    var p90: Double { percentile(0.9) }

    /// Nearest-rank percentile of the samples.
    func percentile(_ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// One measurement per variant and scenario: the copies of a runner (``CodePlacement``), which
    /// follow one another in `measurements`, pooled into one whose samples are all of theirs, so
    /// that its median is taken over every placement of the loop. Allocations are those of the
    /// first copy, the preemption counts are summed, and the checksum is that of the first copy
    /// whose checksum is wrong, else the sum of all.
    static func pooling(_ measurements: [Measurement]) -> [Measurement] {
        var pooled: [Measurement] = []
        for m in measurements {
            guard let last = pooled.last, last.variant == m.variant, last.scenario == m.scenario else {
                pooled.append(m)
                continue
            }
            let wrong = [last, m].first { $0.checksum != $0.expectedChecksum }
            pooled[pooled.count - 1] = Measurement(
                variant: m.variant, scenario: m.scenario, targets: m.targets, samples: last.samples + m.samples,
                allocationsPerDispatch: last.allocationsPerDispatch,
                checksum: wrong?.checksum ?? last.checksum &+ m.checksum,
                expectedChecksum: wrong?.expectedChecksum ?? last.expectedChecksum &+ m.expectedChecksum,
                batch: last.batch, discarded: last.discarded + m.discarded,
                interruptedKept: last.interruptedKept + m.interruptedKept, codeCopies: last.codeCopies + m.codeCopies)
        }
        return pooled
    }
}

/// Runs every variant of one scenario and target count, interleaved: each round times one
/// sample of every runner, in a fresh seeded order each round (``RoundOrder``), so machine noise
/// hits all alike; a sample during which the thread was preempted is taken again
/// (``SampleTaking``).
struct Harness {
    let settings: HarnessSettings

    /// A runner with its bookkeeping: the values it was sent, so its checksum can be verified.
    private final class Contestant {
        let variant: Variant
        let scenario: Scenario
        let runner: AnyRunner
        var batch = 1
        var cursor = 0
        var dispatches = 0
        var valueSum = 0
        let firstValue: Int
        /// The copy of its timed loop the runner runs (``CodePlacement``).
        let codeCopy: Int

        init(variant: Variant, scenario: Scenario, runner: AnyRunner, firstValue: Int, codeCopy: Int) {
            self.variant = variant
            self.scenario = scenario
            self.runner = runner
            self.firstValue = firstValue
            self.codeCopy = codeCopy
        }

        /// Runs `count` dispatches and returns the elapsed nanoseconds.
        func timed(_ count: Int) -> UInt64 { sample(count).nanoseconds }

        /// Runs `count` dispatches: the elapsed nanoseconds, and whether the thread was preempted
        /// meanwhile (read outside the timed interval).
        func sample(_ count: Int) -> Sample {
            let base = firstValue &+ cursor
            let clock = runner.timesThreadCPU ? threadCPUNanoseconds : monotonicNanoseconds
            let before = ThreadSchedule.now()
            let start = clock()
            runner.run(count, base: base)
            let elapsed = clock() &- start
            let after = ThreadSchedule.now()
            account(count, base: base)
            // A runner timed on its thread's CPU time does not count the time it was preempted.
            return Sample(
                nanoseconds: elapsed, interrupted: !runner.timesThreadCPU && before.wasInterrupted(before: after))
        }

        func account(_ count: Int, base: Int) {
            cursor &+= count
            dispatches &+= count
            // Σ (base + i) for i in 0..<count; count is far below 2^31, so no overflow before /2.
            valueSum &+= count &* base &+ (count * (count - 1)) / 2
        }
    }

    /// Measures every variant in each of `scenarios` (all interleaved together, so scenarios
    /// that are compared with each other, like the lookup sizes, share the same noise).
    func measure(
        _ scenarios: [Scenario], targets: Int, variants: [Variant],
        including include: (Scenario, Variant) -> Bool = { _, _ in true }
    ) -> [Measurement] {
        var random = SplitMix64(seed: settings.seed ^ UInt64(truncatingIfNeeded: targets &* 7919))
        var contestants: [Contestant] = []
        // The pads stay allocated until the figures are taken, so each runner's data keeps its
        // shifted place (``Placement``).
        var placing = SplitMix64(seed: settings.seed ^ 0x5EED_1A70_0000 ^ UInt64(truncatingIfNeeded: targets))
        var pads: [[UInt8]] = []
        defer { withExtendedLifetime(pads) {} }
        for scenario in scenarios {
            for variant in variants where include(scenario, variant) {
                // The tick scenario's runners in several copies of their loop (CodePlacement),
                // each a contestant of its own, with its own pad.
                let copies = scenario == .tick ? settings.codePlacement.copies(for: variant.name) : [0]
                for copy in copies {
                    let pad = settings.placement.pad(for: variant.name, random: &placing)
                    if pad > 0 { pads.append([UInt8](repeating: 0, count: pad)) }
                    guard
                        let runner = CodePlacement.$current.withValue(
                            copy, operation: { variant.make(scenario, targets) })
                    else { break }
                    contestants.append(
                        Contestant(
                            variant: variant, scenario: scenario, runner: runner,
                            firstValue: Int(random.next() % 1_000_000), codeCopy: copy))
                }
            }
        }
        guard !contestants.isEmpty else { return [] }
        // Each copy of a runner takes its share of the samples, so that a run with copies lasts
        // about as long as one without.
        let rounds =
            scenarios.contains(.tick)
            ? CodePlacement.samplesPerCopy(total: settings.samples, copies: settings.codePlacement.copiesPerProcess)
            : settings.samples

        // Calibrate each runner's batch to the sample time, after one untimed dispatch: a
        // runner's first pays one-time costs (lazy initialization, first page faults), which can
        // last longer than a sample. Calibrated on it, a batch of a few dispatches, each sample
        // then pays the caches that the other runners' samples left cold: a slow peer
        // (NotificationCenter) measured 3–8× its steady state per dispatch.
        for entry in contestants {
            _ = entry.timed(1)
            var batch = 1
            while true {
                let elapsed = Double(entry.timed(batch))
                if elapsed >= settings.sampleNanoseconds / 8 || batch >= 1 << 24 {
                    batch = max(1, Int(Double(batch) * settings.sampleNanoseconds / max(elapsed, 1)))
                    break
                }
                batch *= 4
            }
            entry.batch = batch
        }

        // A sample during which the thread was preempted is taken again: on a
        // loaded machine a preemption adds a whole time slice to one sample, and preemptions in
        // step with the rounds would move one variant's median (SampleTaking).
        var samples = Array(repeating: [Double](), count: contestants.count)
        var discarded = Array(repeating: 0, count: contestants.count)
        var interruptedKept = Array(repeating: 0, count: contestants.count)
        let taking = SampleTaking(retakes: settings.retakes)
        var order = RoundOrder(seed: random.next())
        for round in 0..<(settings.warmupSamples + rounds) {
            for index in order.next(contestants.count) {
                let entry = contestants[index]
                guard round >= settings.warmupSamples else {
                    _ = entry.timed(entry.batch)
                    continue
                }
                let (sample, thrown) = taking.take { entry.sample(entry.batch) }
                samples[index].append(Double(sample.nanoseconds) / Double(entry.batch))
                discarded[index] += thrown
                if sample.interrupted { interruptedKept[index] += 1 }
            }
        }

        let measured = contestants.indices.map { index in
            let entry = contestants[index]
            var allocations: Double?
            if settings.countAllocations {
                let count = max(1, min(settings.allocationDispatches, entry.batch))
                let base = entry.firstValue &+ entry.cursor
                let counted = AllocationCounter.count { entry.runner.run(count, base: base) }
                entry.account(count, base: base)
                allocations = Double(counted) / Double(count)
            }
            return Measurement(
                variant: entry.variant.name, scenario: entry.scenario.description, targets: targets,
                samples: samples[index], allocationsPerDispatch: allocations,
                checksum: entry.runner.checksum,
                expectedChecksum: entry.scenario.expectedChecksum(
                    targets: targets, breaking: entry.variant.breaking,
                    dispatches: entry.dispatches, valueSum: entry.valueSum),
                batch: entry.batch, discarded: discarded[index], interruptedKept: interruptedKept[index],
                codeCopies: [entry.codeCopy])
        }
        return Measurement.pooling(measured)
    }
}

/// A small deterministic generator (SplitMix64) for seeded values.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
