import FastDelegates
import Foundation

/// Where and how a run was measured: the header of the Markdown report, so a published figure
/// always says which machine, toolchain and commit it came from.
struct RunInfo {
    /// The rows of the report's header table, in order: the date (when the run finished, UTC,
    /// ISO 8601), the machine (CPU model, logical cores and memory), the OS (distribution,
    /// kernel and architecture), Swift (the toolchain, and the build configuration of this
    /// binary), the commit (`git rev-parse --short HEAD`, "unknown" outside a checkout), the
    /// command line (as it can be typed again, in code style) and the settings (samples,
    /// warm-up, sample time, seed and whether allocations were counted).
    var rows: [(label: String, value: String)]

    /// Collects the information of the current process and machine.
    static func current(settings: HarnessSettings, quick: Bool, processes: Int = 1) -> RunInfo {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let mode = quick ? "quick (`--quick`: too few samples to publish)" : "full"
        return RunInfo(rows: [
            ("date", formatter.string(from: Date())),
            ("machine", machine()),
            ("OS", operatingSystem()),
            ("Swift", swiftVersion()),
            ("commit", commit()),
            ("command", "`\(commandLine())`"),
            (
                "settings",
                "\(mode); "
                    + (processes > 1
                        ? "\(processes) worker processes (each its own seed and placement of each variant's data), "
                            + "figures and ratios the medians over them; in each, "
                        : "")
                    + "\(settings.samples) timed samples of about "
                    + "\(readable(settings.sampleNanoseconds / 1_000_000)) ms per variant after "
                    + "\(settings.warmupSamples) warm-up, interleaved in a fresh seeded order each round; "
                    + "each variant's data after a random pad below \(settings.placement.randomBytes) bytes; "
                    + (settings.codePlacement.copiesPerProcess > 1
                        ? "each tick variant in \(settings.codePlacement.copiesPerProcess) copies of its loop "
                            + "at other code addresses, their samples pooled (each copy its share); "
                        : "")
                    + "a sample during which the harness thread was preempted taken again (up to \(settings.retakes) times); "
                    + "seed \(settings.seed); "
                    + (settings.countAllocations ? "allocations counted" : "allocations not counted")
            ),
        ])
    }

    static func machine() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        var model = field("model name", in: cpuinfo, separator: ":") ?? "unknown CPU"
        // A virtual machine's CPU may be named by its brand alone ("AMD EPYC"): the family, model
        // and stepping name its generation (family 25 model 1: Zen 3), whose timings differ.
        if let family = field("cpu family", in: cpuinfo, separator: ":"),
            let number = field("model", in: cpuinfo, separator: ":"),
            let stepping = field("stepping", in: cpuinfo, separator: ":")
        {
            model += " (family \(family), model \(number), stepping \(stepping))"
        }
        if let flags = field("flags", in: cpuinfo, separator: ":"), flags.split(separator: " ").contains("hypervisor") {
            model += " under a hypervisor"
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        return "\(model), \(cores) logical core\(cores == 1 ? "" : "s"), \(fixed(memory, 1)) GiB memory"
    }

    static func operatingSystem() -> String {
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let name =
            field("PRETTY_NAME", in: release, separator: "=")?
            .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            ?? ProcessInfo.processInfo.operatingSystemVersionString
        var system = utsname()
        uname(&system)
        func string<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let fences =
            ConcurrentDelegateChain.hasFenceFreeSends
            ? "ConcurrentDelegateChain sends fence-free (membarrier)"
            : "ConcurrentDelegateChain sends fenced (no process-wide barrier)"
        return "\(name), kernel \(string(system.release)), \(string(system.machine)); \(fences)"
    }

    /// `swift --version` of the toolchain on the path, and the compiler this binary was built with.
    static func swiftVersion() -> String {
        #if DEBUG
        let configuration = "debug build (not representative)"
        #else
        let configuration = "release build"
        #endif
        let toolchain = run("swift", ["--version"])?.split(separator: "\n").first.map(String.init)
        return "\(toolchain ?? "Swift \(compilerVersion)"); \(configuration)"
    }

    /// The compiler that built this binary, to the minor version.
    static var compilerVersion: String {
        #if compiler(>=7.0)
        return "7.0 or later"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    /// The short commit hash of the working directory's checkout, marked when it has changes that
    /// can affect a measurement (changes to Markdown files and `docs/`, which `make bench` itself
    /// rewrites, do not count).
    static func commit() -> String {
        guard let hash = run("git", ["rev-parse", "--short", "HEAD"])?.trimmingCharacters(in: .whitespacesAndNewlines),
            !hash.isEmpty
        else { return "unknown" }
        let measured = [":(top)", ":(top,exclude)docs", ":(top,exclude)*.md"]
        let changes = run("git", ["status", "--porcelain", "-uno", "--"] + measured) ?? ""
        return changes.isEmpty ? hash : "\(hash) (with uncommitted changes)"
    }

    /// The arguments, the program named by its base name, shell-quoted where needed.
    static func commandLine() -> String {
        var arguments = CommandLine.arguments
        if let program = arguments.first { arguments[0] = URL(fileURLWithPath: program).lastPathComponent }
        return arguments.map { argument in
            let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./,=:".contains($0) }
            return plain && !argument.isEmpty
                ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// The value of the first `key<separator>value` line.
    private static func field(_ key: String, in text: String, separator: Character) -> String? {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Standard output of a program found on the path, or nil if it cannot run or fails.
    private static func run(_ program: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
