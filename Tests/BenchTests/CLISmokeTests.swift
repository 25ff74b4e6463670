import Foundation
import Testing

/// Runs `fastdelegates-bench --quick --format json` as a subprocess and checks the report's
/// schema (docs/bench-schema.md).
@Suite struct CLISmokeTests {
    /// The benchmark binary: next to the test bundle (SwiftPM builds it as a dependency), else
    /// in `swift build --show-bin-path`.
    static func benchBinary() throws -> URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // On macOS the test binary is inside an .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        for candidate in [directory, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let binary = candidate.appendingPathComponent("fastdelegates-bench")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        let output = try run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "build", "--show-bin-path"]).stdout
        let binPath = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: binPath).appendingPathComponent("fastdelegates-bench")
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
        ] {
            #expect(variants.contains(expected))
        }
        let scenarios = Set(rows.compactMap { $0["scenario"] as? String })
        #expect(scenarios == ["tick", "first", "responds", "lookup-1", "lookup-100", "lookup-10000", "churn"])
    }

    @Test func filterAndCSV() throws {
        let binary = try Self.benchBinary()
        let result = try Self.run(binary, ["--quick", "--format", "csv", "--targets", "4", "--filter", "tick/strong-array"])
        #expect(result.status == 0)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "variant,scenario,targets,median_ns,p90_ns,allocs_per_dispatch,ratio_to_fastdelegates,checksum")
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix("strong-array,tick,4,") == true)
    }
}
