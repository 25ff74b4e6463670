import Foundation
import PackagePlugin

/// `swift package generate-delegate-proxies [--target NAME]… [--check]`: writes, beside each
/// source file whose `@DelegateProxy` protocols sit inside `#if TRAIT`, the macro's expansion as a
/// checked-in `Name+Generated.swift` under `#if !(TRAIT)`, so that the target builds without
/// FastDelegates' `Macros` trait. Without `--target`, every target but the test targets; files
/// that use the macro directly are left alone. `--check` changes nothing and fails, naming each file, when a checked-in file differs
/// from what this version of the macro generates.
@main
struct GenerateDelegateProxies: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let named = extractor.extractOption(named: "target")
        let check = extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError(
                "unknown arguments: \(extractor.remainingArguments.joined(separator: " ")) (usage: generate-delegate-proxies [--target NAME]… [--check])"
            )
        }
        let targets: [any Target]
        if named.isEmpty {
            // Every target that ships: a test target's proxied protocols use the macro directly.
            targets = context.package.targets.filter { ($0 as? SourceModuleTarget)?.kind != .test }
        } else {
            targets = try context.package.targets(named: named)
        }
        let tool = try context.tool(named: "fastdelegates-proxygen")
        var generated = 0
        for case let target as SourceModuleTarget in targets {
            let sources = target.sourceFiles(withSuffix: "swift")
                .map(\.url)
                .filter { !$0.lastPathComponent.hasSuffix("+Generated.swift") }
                .filter { (try? String(contentsOf: $0, encoding: .utf8))?.contains("@DelegateProxy") ?? false }
            if sources.isEmpty {
                if !named.isEmpty { throw PluginError("target '\(target.name)' declares no @DelegateProxy protocol") }
                continue
            }
            var arguments = ["--module", target.moduleName]
            if check { arguments.insert("--check", at: 0) }
            arguments += sources.map(\.path)
            let process = Process()
            process.executableURL = tool.url
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus == 3 {
                if !named.isEmpty {
                    throw PluginError(
                        "target '\(target.name)' has no @DelegateProxy protocol inside an #if TRAIT (its files use the macro directly)"
                    )
                }
                continue
            }
            guard process.terminationStatus == 0 else {
                throw PluginError(
                    check
                        ? "target '\(target.name)': checked-in proxies are stale or refused (above)"
                        : "target '\(target.name)': nothing written (above)")
            }
            generated += sources.count
        }
        if generated == 0 && named.isEmpty {
            print(
                "generate-delegate-proxies: no target of \(context.package.displayName) declares a @DelegateProxy protocol"
            )
        }
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
