import ArgumentParser
import CDispatchTable
import Foundation

/// Output formats of the report.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv, markdown
}

/// `fastdelegates-bench`: FastDelegates against the other ways to multiplex delegate messages.
@main
struct FastDelegatesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fastdelegates-bench",
        abstract: "Benchmarks FastDelegates' DelegateChain against other delegate multiplexers.",
        discussion: """
            Every variant does the same checked work: a void "scroll tick" (each of N targets adds \
            the Int into its own sum) and a non-void "first responder" query. Scenarios: tick, \
            first, responds (responds(to:)), lookup-<M> (one tick to 1 target with M distinct \
            messages registered), churn (a target removed or dying, one added, then a tick). \
            Variants run interleaved (round-robin per sample) in one process; figures are the \
            median and p90 of ns per dispatch over the samples after warm-up, allocations per \
            dispatch counted by malloc-interposer, and the ratio to fastdelegates-weak in the \
            same scenario and N. A checksum mismatch fails the run (exit code 1).

            JSON schema (stable; see docs/bench-schema.md): an array of objects with keys \
            variant (string), scenario (string), targets (int), median_ns (number), p90_ns \
            (number), allocs_per_dispatch (number or null), ratio_to_fastdelegates (number or \
            null), checksum (int). CSV has the same columns. Markdown (docs/benchmarks.md, \
            written by `make bench`) adds the date, machine, OS, Swift version, commit and \
            command line of the run, a summary of the tick scenario as ratios, and the bars.
            """)

    @Option(help: "Only run measurements whose \"scenario/variant\" contains this text.")
    var filter: String?

    @Option(help: "Comma-separated target counts.")
    var targets: String = "1,4,16,64"

    @Flag(help: "A few seconds in total, for CI smoke tests (fewer, shorter samples).")
    var quick = false

    @Option(help: "Report format: table, json, csv or markdown.")
    var format: OutputFormat = .table

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: "Also write an SVG chart of the tick scenario to this file.")
    var chart: String?

    @Option(
        help: ArgumentHelp(
            "Also write the Markdown report to this file (what --format markdown prints).", valueName: "file"))
    var markdown: String?

    @Option(
        help:
            "Seed of the dispatched values, of the interleaving order and, with --profile, of the chains' hash multipliers."
    )
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "Run exactly this many tick dispatches per selected variant and target count, untimed, "
                + "then exit: for instruction counts under valgrind --tool=callgrind (scripts/callgrind.sh). "
                + "With --filter churn/VARIANT or first/VARIANT, that many churn steps or first-responder "
                + "queries instead.",
            valueName: "dispatches"))
    var profile: Int?

    func validate() throws {
        guard let counts = targetCounts, !counts.isEmpty, counts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--targets takes positive integers separated by commas, e.g. 1,4,16,64")
        }
    }

    var targetCounts: [Int]? {
        let parts = targets.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        return parts.contains(nil) ? nil : parts.compactMap { $0 }
    }

    func run() throws {
        if let profile { return try runProfile(dispatches: profile) }
        AllocationCounter.ensurePreloaded()
        let counting = AllocationCounter.selfTest()
        if !counting {
            Progress.note("allocation counting unavailable (malloc-interposer not preloaded); allocs are null")
        }
        let settings =
            quick
            ? HarnessSettings.quick(seed: seed, countAllocations: counting)
            : HarnessSettings.normal(seed: seed, countAllocations: counting)
        let harness = Harness(settings: settings)

        // Each group is measured interleaved; the lookup sizes form one group so they compare
        // under the same noise.
        var plan: [([Scenario], Int)] = []
        for scenario in [Scenario.tick, .first, .responds] {
            for n in targetCounts ?? [] { plan.append(([scenario], n)) }
        }
        plan.append(([1, 100, 10_000].map { Scenario.lookup(messages: $0) }, 1))
        for n in targetCounts ?? [] { plan.append(([.churn], n)) }
        // Foundation's XMLParser fanned out to 3 listeners (whole parses, so at one N only).
        plan.append(([.xml], 3))

        var measurements: [Measurement] = []
        for (index, (scenarios, n)) in plan.enumerated() {
            let chosen = scenarios.filter { scenario in
                allVariants.contains { selected(scenario: scenario, variant: $0.name) }
            }
            guard !chosen.isEmpty else { continue }
            let names = chosen.map(\.description).joined(separator: ", ")
            Progress.update("[\(index + 1)/\(plan.count)] \(names), \(n) target\(n == 1 ? "" : "s")")
            measurements += harness.measure(chosen, targets: n, variants: allVariants) {
                selected(scenario: $0, variant: $1.name)
            }
        }
        Progress.finish()
        let discarded = measurements.reduce(0) { $0 + $1.discarded }
        let interrupted = measurements.reduce(0) { $0 + $1.interruptedKept }
        if discarded > 0 {
            Progress.note(
                "\(discarded) samples taken again (the harness thread was preempted during them)"
                    + (interrupted > 0 ? "; \(interrupted) kept preempted after \(settings.retakes) retakes" : ""))
        }
        measurements.sort { order(of: $0).lexicographicallyPrecedes(order(of: $1)) }

        let rows = ResultRow.rows(measurements)
        let info = RunInfo.current(settings: settings, quick: quick)
        let report: String
        switch format {
        case .table: report = Table.render(rows) + "\n" + Bars.render(rows)
        case .json: report = try JSON.render(rows)
        case .csv: report = CSV.render(rows)
        case .markdown:
            report = Markdown.render(
                rows, info: info, chart: chartLink(from: output),
                kept: output.flatMap(Markdown.keptSections(inFileAt:)))
        }
        if let output {
            try report.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            FileHandle.standardOutput.write(Data(report.utf8))
        }
        if let markdown {
            try Markdown.render(
                rows, info: info, chart: chartLink(from: markdown),
                kept: Markdown.keptSections(inFileAt: markdown)
            )
            .write(toFile: markdown, atomically: true, encoding: .utf8)
        }
        if let chart {
            try SVGChart.render(rows).write(toFile: chart, atomically: true, encoding: .utf8)
        }

        let wrong = measurements.filter { $0.checksum != $0.expectedChecksum }
        for m in wrong {
            Progress.note(
                "CHECKSUM MISMATCH \(m.scenario)/\(m.variant) N=\(m.targets): got \(m.checksum), expected \(m.expectedChecksum)"
            )
        }
        if !wrong.isEmpty { throw ExitCode.failure }
        Progress.note("all \(measurements.count) checksums verified")
    }

    /// Runs `dispatches` ticks (values 0, 1, …) per selected variant and N, and checks them; a
    /// filter beginning with "churn/", "first/" or "xml/" runs that many churn steps,
    /// first-responder queries or XMLParser parses instead.
    func runProfile(dispatches: Int) throws {
        // The same hash multipliers in every run, so that instruction counts repeat exactly.
        cdt_debug_set_hash_seed(seed)
        let valueSum = dispatches &* (dispatches &- 1) / 2
        let profiled: [(name: String, scenario: Scenario)] = [("churn", .churn), ("first", .first), ("xml", .xml)]
        let (name, scenario) = profiled.first { filter?.hasPrefix("\($0.name)/") == true } ?? ("tick", .tick)
        // A filter naming one variant exactly ("tick/fastdelegates-weak") selects only that one.
        let exact = allVariants.contains { "\(name)/\($0.name)" == filter }
        for variant in allVariants
        where exact ? "\(name)/\(variant.name)" == filter : selected(scenario: name, variant: variant.name) {
            for n in targetCounts ?? [] {
                guard let runner = variant.make(scenario, n) else { continue }
                runner.run(dispatches, base: 0)
                let expected = scenario.expectedChecksum(
                    targets: n, breaking: variant.breaking, dispatches: dispatches, valueSum: valueSum)
                print("profile \(name)/\(variant.name) N=\(n): \(dispatches) dispatches, checksum \(runner.checksum)")
                if runner.checksum != expected {
                    Progress.note("CHECKSUM MISMATCH \(name)/\(variant.name) N=\(n): expected \(expected)")
                    throw ExitCode.failure
                }
            }
        }
    }

    /// The chart as a Markdown report at `reportPath` links to it: by file name when both are in
    /// one directory, else as given; nil without `--chart`.
    func chartLink(from reportPath: String?) -> String? {
        guard let chart else { return nil }
        let chartURL = URL(fileURLWithPath: chart).standardizedFileURL
        if let reportPath,
            URL(fileURLWithPath: reportPath).standardizedFileURL.deletingLastPathComponent()
                == chartURL.deletingLastPathComponent()
        {
            return chartURL.lastPathComponent
        }
        return chart
    }

    /// Report order: the plan's scenario order, then target count, then variant order.
    func order(of m: Measurement) -> [Int] {
        let scenarios = ["tick", "first", "responds", "lookup-1", "lookup-100", "lookup-10000", "churn", "xml"]
        return [
            scenarios.firstIndex(of: m.scenario) ?? 99, m.targets,
            allVariants.firstIndex { $0.name == m.variant } ?? 99,
        ]
    }

    func selected(scenario: Scenario, variant: String) -> Bool {
        selected(scenario: scenario.description, variant: variant)
    }

    func selected(scenario: String, variant: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        return "\(scenario)/\(variant)".contains(filter)
    }
}
