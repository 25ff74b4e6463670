import Foundation
import Testing

/// Runs `fastdelegates-bench --quick` as a subprocess and checks its reports: the JSON and CSV
/// schema (docs/bench-schema.md), the Markdown report and the chart `make bench` writes.
@Suite struct CLISmokeTests {
    /// The benchmark binary: in the products directory of the test bundle (SwiftPM builds it as
    /// a dependency), else in `swift build --show-bin-path`.
    static func benchBinary() throws -> URL {
        var candidates: [URL] = []
        if let image = testImage() { candidates.append(productsDirectory(ofTestImage: image)) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for candidate in candidates {
            let binary = candidate.appendingPathComponent("fastdelegates-bench")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        let output = try run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "build", "--show-bin-path"]).stdout
        let binPath = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: binPath).appendingPathComponent("fastdelegates-bench")
    }

    /// The test bundle's executable, on any platform: the bundle of a class of this module (on
    /// Linux the process's executable; on macOS the loaded `.xctest` bundle's, not the process's:
    /// a runner, `xctest` or `swiftpm-testing-helper`, loads the bundle).
    static func testImage() -> URL? {
        Bundle(for: BundleMarker.self).executableURL?.resolvingSymlinksInPath()
    }

    /// The directory holding the test bundle, where SwiftPM also puts the products it built:
    /// the image's own directory on Linux (`….xctest` is the executable), the bundle's parent on
    /// macOS (`….xctest/Contents/MacOS/…`).
    static func productsDirectory(ofTestImage image: URL) -> URL {
        var directory = image.deletingLastPathComponent()
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        return directory
    }

    static func run(_ executable: URL, _ arguments: [String]) throws -> (stdout: Data, status: Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus)
    }

    /// Where the benchmark binary is looked for, from the test image's path on each platform.
    @Test func theProductsDirectoryIsFoundFromTheTestImageOnLinuxAndMacOS() throws {
        let linux = URL(fileURLWithPath: "/p/.build/x86_64-unknown-linux-gnu/debug/FastDelegatesPackageTests.xctest")
        #expect(productsPath(linux) == "/p/.build/x86_64-unknown-linux-gnu/debug")
        let macOS = URL(
            fileURLWithPath:
                "/p/.build/arm64-apple-macosx/debug/FastDelegatesPackageTests.xctest/Contents/MacOS/FastDelegatesPackageTests"
        )
        #expect(productsPath(macOS) == "/p/.build/arm64-apple-macosx/debug")
        // Here, the image found is this test bundle, and the binary SwiftPM built sits next to it.
        let image = try #require(Self.testImage())
        #expect(image.lastPathComponent.hasPrefix("FastDelegatesPackageTests"))
        let binary = Self.productsDirectory(ofTestImage: image).appendingPathComponent("fastdelegates-bench")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path))
    }

    private func productsPath(_ image: URL) -> String {
        Self.productsDirectory(ofTestImage: image).path
    }

    @Test func quickJSONHasTheSchema() throws {
        let binary = try Self.benchBinary()
        let result = try Self.run(binary, ["--quick", "--format", "json", "--targets", "1,4"])
        #expect(result.status == 0, "checksums must verify")
        let json = try JSONSerialization.jsonObject(with: result.stdout)
        let rows = try #require(json as? [[String: Any]])
        #expect(!rows.isEmpty)
        let keys: Set<String> = [
            "variant", "scenario", "targets", "median_ns", "p90_ns", "allocs_per_dispatch",
            "ratio_to_fastdelegates", "checksum",
        ]
        for row in rows {
            #expect(Set(row.keys) == keys)
            #expect(row["variant"] is String)
            #expect(row["scenario"] is String)
            #expect(row["targets"] is Int)
            #expect((row["median_ns"] as? Double).map { $0 > 0 } == true)
            #expect(row["p90_ns"] is Double)
            #expect(row["allocs_per_dispatch"] is Double || row["allocs_per_dispatch"] is NSNull)
            #expect(row["ratio_to_fastdelegates"] is Double || row["ratio_to_fastdelegates"] is NSNull)
            #expect(row["checksum"] is Int)
        }
        let variants = Set(rows.compactMap { $0["variant"] as? String })
        for expected in [
            "fastdelegates-weak", "fastdelegates-weak-reference", "fastdelegates-strong", "pure-swift-proxy",
            "handwritten-weak-var", "strong-array", "naive-weak-multicast", "notificationcenter", "opencombine",
            "fastdelegates-proxy", "fastdelegates-proxy-sparse", "handwritten-forwarder", "concurrent-proxy",
            "handwritten-concurrent-forwarder", "foundation-proxy", "handwritten-xml-forwarder",
            "handwritten-forwarder-lifecycle", "naive-weak-multicast-lifecycle", "fastdelegates-lifecycle",
            "concurrent-lifecycle", "fastdelegates-proxy-lifecycle", "fastdelegates-proxy8-lifecycle",
            "foundation-proxy-lifecycle",
        ] {
            #expect(variants.contains(expected))
        }
        let scenarios = Set(rows.compactMap { $0["scenario"] as? String })
        #expect(
            scenarios == [
                "tick", "first", "responds", "lookup-1", "lookup-100", "lookup-10000", "churn", "xml", "lifecycle",
            ])
    }

    /// The lifecycle scenario (issue 53): every variant at N = 1 and 4, timed with its ratio to the
    /// hand-written forwarder, and its heap bytes and blocks per live instance in the Markdown.
    @Test func lifecycleReportsTimeAndHeapPerInstance() throws {
        let binary = try Self.benchBinary()
        let result = try Self.run(binary, ["--quick", "--format", "markdown", "--filter", "lifecycle/"])
        #expect(result.status == 0, "checksums must verify")
        let report = String(decoding: result.stdout, as: UTF8.self)
        #expect(report.contains("## Lifecycle: what one instance costs"))
        let variants = [
            "handwritten-forwarder-lifecycle", "naive-weak-multicast-lifecycle", "fastdelegates-lifecycle",
            "concurrent-lifecycle", "fastdelegates-proxy-lifecycle", "fastdelegates-proxy8-lifecycle",
            "foundation-proxy-lifecycle",
        ]
        // | variant | N | bytes | blocks | ns | ratio |
        let rows = report.split(separator: "\n").map(String.init).filter { line in
            variants.contains { line.hasPrefix("| \($0) | ") }
        }.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        for variant in variants {
            for n in ["1", "4"] {
                let row = try #require(rows.first { $0[0] == variant && $0[1] == n }, "\(variant) N=\(n)")
                #expect(Double(row[4]).map { $0 > 0 } == true, "ns per cycle of \(variant) N=\(n)")
                if variant == variants[0] { #expect(row[5] == "1.00×") }
                #if os(Linux)
                // Under a sanitizer (make unit-tests builds the CLI with TSan) glibc's figures
                // count none of its allocator's memory, and the report says n/a.
                let sanitized = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
                if sanitized {
                    #expect(row[2] == "n/a", "bytes per instance of \(variant) N=\(n) under a sanitizer")
                } else {
                    #expect(Double(row[2]).map { $0 > 0 } == true, "bytes per instance of \(variant) N=\(n)")
                }
                #endif
            }
        }
    }

    @Test func filterAndCSV() throws {
        let binary = try Self.benchBinary()
        let result = try Self.run(
            binary, ["--quick", "--format", "csv", "--targets", "4", "--filter", "tick/strong-array"])
        #expect(result.status == 0)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(
            lines.first
                == "variant,scenario,targets,median_ns,p90_ns,allocs_per_dispatch,ratio_to_fastdelegates,checksum")
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix("strong-array,tick,4,") == true)
    }

    /// With worker processes: the parent runs itself as workers, combines their figures into the
    /// same schema (every checksum verified, in every worker), and names them in the settings;
    /// a deliberate pad of one variant's data runs too, and a malformed pad is refused.
    @Test func workerProcessesReportOneCombinedTable() throws {
        let binary = try Self.benchBinary()
        let result = try Self.run(
            binary,
            [
                "--quick", "--processes", "3", "--format", "csv", "--targets", "1,4", "--filter", "tick/fastdelegates",
                "--pad", "fastdelegates-mainactor=2064",
            ])
        #expect(result.status == 0, "checksums must verify in every worker")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // One row per variant and N, not one per worker.
        #expect(Set(rows.map { "\($0[0])@\($0[2])" }).count == rows.count)
        #expect(rows.contains { $0[0] == "fastdelegates-mainactor" && $0[2] == "4" })
        #expect(rows.contains { $0[0] == "fastdelegates-weak" && $0[2] == "1" && $0[6] == "1.0000" })
        for row in rows { #expect(Double(row[3]).map { $0 > 0 } == true) }

        let markdown = try Self.run(
            binary,
            ["--quick", "--processes", "2", "--format", "markdown", "--targets", "1", "--filter", "tick/strong"])
        #expect(markdown.status == 0)
        #expect(String(decoding: markdown.stdout, as: UTF8.self).contains("2 worker processes"))
        #expect(
            try Self.run(binary, ["--quick", "--pad", "fastdelegates-weak", "--filter", "tick/strong"]).status != 0)
    }

    /// The variants that take part in the tick scenario, as the CSV report names them.
    static func tickVariants(_ binary: URL, targets: String) throws -> [String] {
        let csv = try run(binary, ["--quick", "--format", "csv", "--targets", targets, "--filter", "tick/"]).stdout
        return String(decoding: csv, as: UTF8.self).split(separator: "\n").dropFirst()
            .map { String($0.prefix { $0 != "," }) }
    }

    @Test func markdownReportsTheRunAndTheFullTable() throws {
        let binary = try Self.benchBinary()
        let result = try Self.run(binary, ["--quick", "--format", "markdown", "--targets", "1,4", "--filter", "tick/"])
        #expect(result.status == 0)
        let report = String(decoding: result.stdout, as: UTF8.self)
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "# Benchmark results")
        func header(_ key: String) -> String? {
            lines.first { $0.hasPrefix("| \(key) | ") }.map { String($0.dropFirst(key.count + 5).dropLast(2)) }
        }
        #expect(header("date")?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        #expect(header("machine")?.contains("logical core") == true)
        #expect(header("machine")?.contains("GiB memory") == true)
        #expect(header("OS")?.isEmpty == false)
        #expect(header("Swift")?.contains("Swift") == true)
        let commit = try #require(header("commit"))
        #expect(commit.hasPrefix("unknown") || commit.range(of: "^[0-9a-f]{7,}", options: .regularExpression) != nil)
        #expect(header("command") == "`fastdelegates-bench --quick --format markdown --targets 1,4 --filter tick/`")
        #expect(header("settings")?.hasPrefix("quick") == true)

        // The full table: one row per variant and N, each with a positive median and a ratio.
        let section = try #require(lines.firstIndex(of: "### tick"))
        let rows = lines[(section + 4)...].prefix { $0.hasPrefix("| ") }.map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let variants = try Self.tickVariants(binary, targets: "1,4")
        #expect(rows.count == variants.count)
        #expect(Set(rows.map { "\($0[1])@\($0[0])" }).count == rows.count)
        for row in rows {
            #expect(row.count == 7)
            #expect(["1", "4"].contains(row[0]))
            #expect(Double(row[2]).map { $0 > 0 } == true)
            #expect(row[5].hasSuffix("×"))
        }
        #expect(rows.contains { $0[1] == "fastdelegates-weak" && $0[5] == "1.00×" })
        // The summary: one ratio row per variant other than the baseline, one column per N.
        #expect(lines.contains("## Summary: tick, relative to fastdelegates-weak"))
        #expect(lines.contains("| variant | N = 1 | N = 4 |"))
        #expect(lines.contains { $0.hasPrefix("| handwritten-weak-var | ") && $0.hasSuffix("× |") })
    }

    /// What `make bench` does: the table on standard output, the Markdown report and the chart
    /// written beside each other, the report embedding the chart by its file name.
    @Test func markdownFileAndChartBesideTheTable() throws {
        let binary = try Self.benchBinary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let markdown = directory.appendingPathComponent("benchmarks.md"),
            chart = directory.appendingPathComponent("bench.svg")
        // The sections other tools wrote (callgrind.sh, bench-objc.sh) survive the rewrite.
        let callgrind = "<!-- callgrind:begin (kept) -->\n## Instructions\n<!-- callgrind:end -->"
        let objc = "<!-- objc:begin (kept) -->\n## Objective-C\n<!-- objc:end -->"
        try "# Old\n\n\(callgrind)\n\nold rows\n\n\(objc)\n".write(to: markdown, atomically: true, encoding: .utf8)
        let result = try Self.run(
            binary,
            [
                "--quick", "--targets", "1,4", "--filter", "tick/", "--markdown", markdown.path, "--chart", chart.path,
            ])
        #expect(result.status == 0)
        let table = String(decoding: result.stdout, as: UTF8.self)
        #expect(table.hasPrefix("scenario  "))
        #expect(table.contains("performance bars"))
        let report = try String(contentsOf: markdown, encoding: .utf8)
        #expect(report.hasPrefix("# Benchmark results\n"))
        #expect(report.contains("](bench.svg)"))
        #expect(report.contains(callgrind + "\n\n" + objc))
        #expect(!report.contains("old rows"))
        #expect(report.contains("| command | `fastdelegates-bench --quick --targets 1,4 --filter tick/ --markdown "))

        // The chart: one line per single-thread variant, FastDelegates' bold, the peers dashed,
        // all in the legend; variants sending from several threads are named as left out.
        let svg = try String(contentsOf: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg "))
        let polylines = svg.split(separator: "\n").filter { $0.hasPrefix("<polyline ") }
        let variants = Set(try Self.tickVariants(binary, targets: "1").filter { !$0.isEmpty })
        let multithreaded = variants.filter { $0.contains("threads") }
        let drawn = variants.subtracting(multithreaded)
        let own = drawn.filter { $0.hasPrefix("fastdelegates") || $0.hasPrefix("concurrent") }
        #expect(!multithreaded.isEmpty && !own.isEmpty && own.count < drawn.count)
        #expect(polylines.count == drawn.count)
        #expect(polylines.filter { $0.contains("stroke-width=\"3\"") }.count == own.count)
        #expect(polylines.filter { $0.contains("stroke-dasharray") }.count == drawn.count - own.count)
        for variant in drawn { #expect(svg.contains(">\(variant)</text>")) }
        for variant in multithreaded { #expect(svg.contains(">not drawn: \(variant)</text>")) }
        let colors = polylines.compactMap { line in
            line.range(of: ##"stroke="#[0-9a-f]{6}""##, options: .regularExpression).map { line[$0] }
        }
        #expect(Set(colors).count == polylines.count, "a distinct colour per series")
    }
}

/// A class of the test bundle, to find the bundle with `Bundle(for:)`.
private final class BundleMarker {}
