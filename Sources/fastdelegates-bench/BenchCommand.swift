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
            Variants run interleaved (one sample each per round, in a fresh seeded order) in each \
            of several worker processes (--processes); each process takes the median and p90 of \
            ns per dispatch over its samples after warm-up, and the report shows the medians \
            over the processes of these, allocations per dispatch counted by malloc-interposer, \
            and the median over the processes of the ratio to fastdelegates-weak in the same \
            scenario and N. A checksum mismatch in any process fails the run (exit code 1).

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

    @Option(
        help: ArgumentHelp(
            "Measure in this many worker processes, one after another, each with its own seed (order of "
                + "the samples, placement of each variant's data) and its share of the samples; report "
                + "the medians over them, of the ns and of the ratios. Default: 7, or 1 with --quick.",
            valueName: "count"))
    var processes: Int?

    @Option(
        help: ArgumentHelp(
            "Pad VARIANT's data by BYTES more (a deliberate change of its memory layout; repeatable), "
                + "to check that the reported ratios do not follow the layout.",
            valueName: "VARIANT=BYTES"))
    var pad: [String] = []

    @Option(
        help: ArgumentHelp(
            "Bound (exclusive) of the random pad before each variant's data, in bytes (0: none).",
            visibility: .hidden))
    var placementBytes = 4096

    @Option(
        help: ArgumentHelp(
            "Copies of each tick variant's timed loop, at other code addresses, that each process "
                + "measures and pools, 1 to 4 (with fewer than 4 the processes take them in turn).",
            visibility: .hidden))
    var codeCopies = CodePlacement.copies

    @Option(
        help: ArgumentHelp(
            "Run VARIANT's tick loop COPIES copies further on in every process (a deliberate move of its "
                + "code; repeatable), to check that the reported ratios do not follow the code's placement.",
            valueName: "VARIANT=COPIES"))
    var shiftCode: [String] = []

    @Flag(help: "Also print, on standard error, each tick variant's ratio to fastdelegates-weak in each process.")
    var processRatios = false

    /// Set in a worker process: its index among the run's workers; it writes its figures as JSON
    /// on standard output for the parent (see ``WorkerAggregation``).
    @Option(help: .hidden)
    var worker: Int?

    func validate() throws {
        if let processes, processes < 1 { throw ValidationError("--processes takes a positive count") }
        for entry in pad where Placement.parseExtra(entry) == nil {
            throw ValidationError("--pad takes VARIANT=BYTES, e.g. fastdelegates-mainactor=2064")
        }
        for entry in shiftCode where CodePlacement.parseShift(entry) == nil {
            throw ValidationError("--shift-code takes VARIANT=COPIES, e.g. fastdelegates-proxy=1")
        }
        guard (1...CodePlacement.copies).contains(codeCopies) else {
            throw ValidationError("--code-copies takes 1 to \(CodePlacement.copies)")
        }
        guard let counts = targetCounts, !counts.isEmpty, counts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--targets takes positive integers separated by commas, e.g. 1,4,16,64")
        }
    }

    /// The copies `--shift-code` moves each named variant's loop by (repeated entries add up).
    var codeShifts: [String: Int] {
        Dictionary(shiftCode.compactMap(CodePlacement.parseShift), uniquingKeysWith: +)
    }

    var targetCounts: [Int]? {
        let parts = targets.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        return parts.contains(nil) ? nil : parts.compactMap { $0 }
    }

    func run() throws {
        if let profile { return try runProfile(dispatches: profile) }
        AllocationCounter.ensurePreloaded()
        let counting = AllocationCounter.selfTest()
        if !counting && worker == nil {
            Progress.note("allocation counting unavailable (malloc-interposer not preloaded); allocs are null")
        }
        let processCount = processes ?? (quick ? 1 : 7)
        var settings =
            quick
            ? HarnessSettings.quick(seed: seed, countAllocations: counting)
            : HarnessSettings.normal(seed: seed, countAllocations: counting)
        settings.placement = Placement(
            randomBytes: placementBytes, extra: Dictionary(pad.compactMap(Placement.parseExtra), uniquingKeysWith: +))
        settings.codePlacement = CodePlacement(copiesPerProcess: codeCopies, worker: worker ?? 0, shift: codeShifts)
        let totalSamples = settings.samples
        settings.samples = WorkerAggregation.samplesPerWorker(total: totalSamples, processes: processCount)
        if processCount == 1 {
            settings.samples = totalSamples
        } else {
            // Each worker warms up its own caches and predictors; 2 rounds are enough for that,
            // and keep the run's length near a one-process run's.
            settings.warmupSamples = min(settings.warmupSamples, 2)
        }

        let summaries: [Summary]
        if let worker {
            settings.seed = WorkerAggregation.seed(ofWorker: worker, runSeed: seed)
            Progress.prefix = "worker \(worker + 1)/\(processCount) "
            let measured = measureHere(settings).map(\.summary)
            FileHandle.standardOutput.write(try JSONEncoder().encode(measured))
            return
        } else if processCount == 1 {
            summaries = measureHere(settings).map(\.summary)
        } else {
            summaries = try measureInWorkers(processCount)
        }
        // Bytes and blocks per live instance, measured here (not in a worker): one pass, untimed.
        let memory =
            LifecycleVariants.targetCounts.isEmpty
            ? []
            : LifecycleMemory.measure(instances: quick ? 10_000 : 100_000, counting: counting) {
                selected(scenario: .lifecycle, variant: $0)
            }
        try report(summaries, settings: settings, processes: processCount, memory: memory)
    }

    /// Measures the selected scenarios and variants in this process.
    func measureHere(_ settings: HarnessSettings) -> [Measurement] {
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
        // What one instance costs: create, add, send once, drop (issue 53), at the N it takes.
        for n in LifecycleVariants.targetCounts { plan.append(([.lifecycle], n)) }

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
        return measurements
    }

    /// Runs `count` worker processes of this executable, one after another, with this command's
    /// selection, and combines their figures (``WorkerAggregation``).
    func measureInWorkers(_ count: Int) throws -> [Summary] {
        guard let executable = Bundle.main.executableURL else {
            throw ValidationError("cannot find this executable to start its worker processes")
        }
        var arguments = ["--targets", targets, "--seed", String(seed), "--processes", String(count)]
        if let filter { arguments += ["--filter", filter] }
        if quick { arguments.append("--quick") }
        arguments += ["--placement-bytes", String(placementBytes)]
        for entry in pad { arguments += ["--pad", entry] }
        arguments += ["--code-copies", String(codeCopies)]
        for entry in shiftCode { arguments += ["--shift-code", entry] }
        var workers: [[Summary]] = []
        for index in 0..<count {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments + ["--worker", String(index)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0, let figures = try? JSONDecoder().decode([Summary].self, from: data)
            else {
                Progress.note("worker \(index + 1)/\(count) failed (status \(process.terminationStatus))")
                throw ExitCode.failure
            }
            workers.append(figures)
        }
        return WorkerAggregation.combine(workers)
    }

    /// Writes the reports of `summaries` and checks their checksums.
    func report(
        _ unsorted: [Summary], settings: HarnessSettings, processes: Int, memory: [LifecycleMemory.Row] = []
    ) throws {
        let discarded = unsorted.reduce(0) { $0 + $1.discarded }
        let interrupted = unsorted.reduce(0) { $0 + $1.interruptedKept }
        if discarded > 0 {
            Progress.note(
                "\(discarded) samples taken again (the harness thread was preempted during them)"
                    + (interrupted > 0 ? "; \(interrupted) kept preempted after \(settings.retakes) retakes" : ""))
        }
        let measurements = unsorted.sorted { order(of: $0).lexicographicallyPrecedes(order(of: $1)) }
        if processRatios { printProcessRatios(measurements) }

        let rows = ResultRow.rows(measurements)
        let info = RunInfo.current(settings: settings, quick: quick, processes: processes)
        let report: String
        switch format {
        case .table:
            report = Table.render(rows) + "\n" + Bars.render(rows) + (memory.isEmpty ? "" : "\n" + Table.render(memory))
        case .json: report = try JSON.render(rows)
        case .csv: report = CSV.render(rows)
        case .markdown:
            report = Markdown.render(
                rows, info: info, chart: chartLink(from: output),
                kept: output.flatMap(Markdown.keptSections(inFileAt:)), memory: memory)
        }
        if let output {
            try report.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            FileHandle.standardOutput.write(Data(report.utf8))
        }
        if let markdown {
            try Markdown.render(
                rows, info: info, chart: chartLink(from: markdown),
                kept: Markdown.keptSections(inFileAt: markdown), memory: memory
            )
            .write(toFile: markdown, atomically: true, encoding: .utf8)
        }
        if let chart {
            try SVGChart.render(rows).write(toFile: chart, atomically: true, encoding: .utf8)
        }

        let wrong = measurements.filter { !$0.verified }
        for m in wrong {
            Progress.note(
                "CHECKSUM MISMATCH \(m.scenario)/\(m.variant) N=\(m.targets): got \(m.checksum), expected \(m.expectedChecksum)"
            )
        }
        for row in memory where !row.verified {
            Progress.note("CHECKSUM MISMATCH lifecycle memory \(row.variant) N=\(row.targets)")
        }
        if !wrong.isEmpty || memory.contains(where: { !$0.verified }) { throw ExitCode.failure }
        Progress.note("all \(measurements.count) checksums verified")
    }

    /// Runs `dispatches` ticks (values 0, 1, …) per selected variant and N, and checks them; a
    /// filter beginning with "churn/", "first/" or "xml/" runs that many churn steps,
    /// first-responder queries or XMLParser parses instead.
    func runProfile(dispatches: Int) throws {
        // The same hash multipliers in every run, so that instruction counts repeat exactly.
        cdt_debug_set_hash_seed(seed)
        let valueSum = dispatches &* (dispatches &- 1) / 2
        let profiled: [(name: String, scenario: Scenario)] = [
            ("churn", .churn), ("first", .first), ("xml", .xml), ("lifecycle", .lifecycle),
        ]
        let (name, scenario) = profiled.first { filter?.hasPrefix("\($0.name)/") == true } ?? ("tick", .tick)
        // A filter naming one variant exactly ("tick/fastdelegates-weak") selects only that one.
        let exact = allVariants.contains { "\(name)/\($0.name)" == filter }
        let shifts = codeShifts
        for variant in allVariants
        where exact ? "\(name)/\(variant.name)" == filter : selected(scenario: name, variant: variant.name) {
            // Copy 0 of a tick variant's loop, or the copy `--shift-code` moves it to (CodePlacement).
            let copy = shifts[variant.name] ?? 0
            for n in targetCounts ?? [] {
                guard let runner = CodePlacement.$current.withValue(copy, operation: { variant.make(scenario, n) })
                else { continue }
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

    /// Each tick variant's ratio to the baseline in each process, on standard error: how far the
    /// processes disagree (a median over them is what the report shows).
    func printProcessRatios(_ summaries: [Summary]) {
        for m in summaries where m.scenario == "tick" && !m.processRatios.isEmpty {
            let ratios = m.processRatios.map { fixed($0, 2) }.joined(separator: " ")
            let medians = m.processMedians.map { readable($0) }.joined(separator: " ")
            let copies = m.processCodeCopies.map { $0.map(String.init).joined(separator: ",") }.joined(separator: " ")
            Progress.note(
                "tick/\(m.variant) N=\(m.targets): ratio per process \(ratios) (ns \(medians); code copy \(copies))")
        }
    }

    /// Report order: the plan's scenario order, then target count, then variant order.
    func order(of m: Summary) -> [Int] {
        let scenarios = [
            "tick", "first", "responds", "lookup-1", "lookup-100", "lookup-10000", "churn", "xml", "lifecycle",
        ]
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
