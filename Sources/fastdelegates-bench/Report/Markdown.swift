import Foundation

/// The Markdown report (`--format markdown`, `--markdown FILE`): the run's provenance, a summary of
/// the tick scenario as ratios, the performance bars and the full results table. `make bench`
/// writes it to docs/benchmarks.md, the page the README and the DocC articles link to.
enum Markdown {
    /// The markers of the instruction-count section, which `scripts/callgrind.sh --publish` writes
    /// into the report and a rewrite of the report keeps.
    static let instructionsBegin = "<!-- callgrind:begin"
    static let instructionsEnd = "<!-- callgrind:end -->"
    /// The markers of the Objective-C multicaster's section, which `scripts/bench-objc.sh
    /// --publish` writes into the report and a rewrite of the report keeps.
    static let objcBegin = "<!-- objc:begin"
    static let objcEnd = "<!-- objc:end -->"

    /// The sections other tools wrote into the report at `path` (each from its begin marker
    /// through its end marker: the instruction counts, then the Objective-C section), joined by a
    /// blank line; nil when there is none.
    static func keptSections(inFileAt path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let sections = [(instructionsBegin, instructionsEnd), (objcBegin, objcEnd)].compactMap { begin, end in
            section(of: text, from: begin, through: end)
        }
        return sections.isEmpty ? nil : sections.joined(separator: "\n\n")
    }

    /// The part of `text` from `begin` through `end`, or nil when it has none.
    static func section(of text: String, from begin: String, through end: String) -> String? {
        guard let start = text.range(of: begin),
            let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.lowerBound..<stop.upperBound])
    }

    /// - Parameters:
    ///   - chart: the chart's path relative to the report, embedded when given.
    ///   - kept: the sections other tools wrote, to keep (see `keptSections`), placed after the
    ///     summary.
    ///   - memory: the lifecycle scenario's heap per live instance, shown with its ns per cycle.
    static func render(
        _ rows: [ResultRow], info: RunInfo, chart: String? = nil, kept: String? = nil,
        memory: [LifecycleMemory.Row] = []
    ) -> String {
        var out = """
            # Benchmark results

            Written by `fastdelegates-bench --format markdown` (`make bench` writes this page and \
            `docs/bench.svg`): do not edit by hand, run the benchmark again. Columns, scenarios, \
            variants and method: [bench-schema.md](bench-schema.md). Compare ratios measured in one \
            run; absolute figures depend on the machine and its load.

            | run | |
            |---|---|

            """
        for (label, value) in info.rows { out += "| \(label) | \(cell(value)) |\n" }
        if let chart {
            out += "\n![ns per dispatch of the tick scenario against N, log-log](\(chart))\n"
        }
        out += summary(rows)
        out += lifecycle(rows, memory: memory)
        if let kept { out += "\n" + kept + "\n" }
        let bars = Bars.render(rows).split(separator: "\n").dropFirst()
        if !bars.isEmpty {
            out += "\n## Performance bars\n\nEach ratio is first / second, from this run's medians.\n\n```text\n"
            out += bars.joined(separator: "\n") + "\n```\n"
        }
        out += "\n## Full results\n"
        var scenarios: [String] = []
        for row in rows where !scenarios.contains(row.scenario) { scenarios.append(row.scenario) }
        for scenario in scenarios {
            out += """

                ### \(scenario)

                | N | variant | median ns | p90 ns | allocs/op | × \(baselineVariantName(scenario: scenario)) | checksum (verified) |
                |---:|---|---:|---:|---:|---:|---:|

                """
            for row in rows where row.scenario == scenario {
                let cells = [
                    String(row.targets), row.variant, readable(row.median_ns), readable(row.p90_ns),
                    row.allocs_per_dispatch.map { fixed($0, 2) } ?? "n/a",
                    row.ratio_to_fastdelegates.map { fixed($0, 2) + "×" } ?? "–",
                    String(row.checksum),
                ]
                out += "| " + cells.map(cell).joined(separator: " | ") + " |\n"
            }
        }
        return out
    }

    /// The tick scenario pivoted: one row per variant, one column per N, each cell the variant's
    /// median over the baseline's at that N, under a row of the baseline's own figures.
    static func summary(_ rows: [ResultRow], scenario: String = "tick") -> String {
        let data = rows.filter { $0.scenario == scenario }
        let counts = Array(Set(data.map(\.targets))).sorted()
        guard data.contains(where: { $0.variant == baselineVariantName }) else { return "" }
        var variants: [String] = []
        for row in data where !variants.contains(row.variant) { variants.append(row.variant) }
        let baseline = counts.map { n in
            data.first { $0.variant == baselineVariantName && $0.targets == n }.map { readable($0.median_ns) } ?? "–"
        }
        var out = """

            ## Summary: \(scenario), relative to \(baselineVariantName)

            Each variant's median ns per dispatch divided by `\(baselineVariantName)`'s at the same N \
            in the same process, and with several worker processes the median of that ratio over \
            them (FastDelegates' default: a plain class added with `add`). Above 1× the variant is \
            slower.

            | variant | \(counts.map { "N = \($0)" }.joined(separator: " | ")) |
            |---|\(counts.map { _ in "---:|" }.joined())
            | `\(baselineVariantName)`, ns per dispatch | \(baseline.joined(separator: " | ")) |

            """
        for variant in variants where variant != baselineVariantName {
            let cells = counts.map { n in
                data.first { $0.variant == variant && $0.targets == n }?.ratio_to_fastdelegates
                    .map { fixed($0, 2) + "×" } ?? "–"
            }
            out += "| \(variant) | \(cells.joined(separator: " | ")) |\n"
        }
        return out
    }

    /// The lifecycle scenario (issue 53): per variant and N, heap bytes and blocks per live
    /// instance, ns per create, add, send once, destroy cycle, and its ratio to the hand-written
    /// forwarder; empty when neither was measured.
    static func lifecycle(_ rows: [ResultRow], memory: [LifecycleMemory.Row]) -> String {
        let timed = rows.filter { $0.scenario == Scenario.lifecycle.description }
        guard !timed.isEmpty || !memory.isEmpty else { return "" }
        var keys: [(String, Int)] = memory.map { ($0.variant, $0.targets) }
        for row in timed where !keys.contains(where: { $0 == (row.variant, row.targets) }) {
            keys.append((row.variant, row.targets))
        }
        let instances = memory.first?.instances ?? 0
        let left = memory.compactMap(\.bytesLeftAfterFree)
        var out = """

            ## Lifecycle: what one instance costs

            One cycle: create the dispatcher, add N listeners, send one message (each listener adds \
            the value into its sum), drop it. Bytes and blocks per live instance: \
            \(instances.formatted()) instances kept alive, glibc's in-use heap \
            (`mallinfo2().uordblks`, less the 16-byte header malloc-interposer puts before each block) \
            and malloc-interposer's allocations minus frees, before and after, divided by their count. Once all were dropped, the in-use heap was back within \
            \(left.max().map { "\($0) bytes" } ?? "(not measured)") of its baseline. The ratio is to \
            `\(LifecycleVariants.HandWrittenForwarder.name)`, a final class with one `weak var` per \
            listener. Instructions per cycle: the callgrind section.

            | variant | N | bytes per instance | blocks per instance | ns per cycle | × hand-written |
            |---|---:|---:|---:|---:|---:|

            """
        for (variant, n) in keys.sorted(by: { ($0.1, order($0.0)) < ($1.1, order($1.0)) }) {
            let heap = memory.first { $0.variant == variant && $0.targets == n }
            let time = timed.first { $0.variant == variant && $0.targets == n }
            let cells = [
                variant, String(n), heap?.bytesPerInstance.map { fixed($0, 0) } ?? "n/a",
                heap?.blocksPerInstance.map { fixed($0, 1) } ?? "n/a",
                time.map { readable($0.median_ns) } ?? "–",
                time?.ratio_to_fastdelegates.map { fixed($0, 2) + "×" } ?? "–",
            ]
            out += "| " + cells.map(cell).joined(separator: " | ") + " |\n"
        }
        return out
    }

    /// A lifecycle variant's place in the report.
    private static func order(_ variant: String) -> Int {
        LifecycleMemory.subjects.firstIndex { $0.name == variant } ?? 99
    }

    /// Text safe inside a table cell.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
