// The tool behind `swift package generate-delegate-proxies`: writes (or, with --check, compares)
// the checked-in expansion of each given source file's @DelegateProxy protocols.
//
// Usage: fastdelegates-proxygen [--check] --module NAME SOURCE.swift…
// The plugin runs it once per target; a person runs the plugin. Exit status: 0 done, 1 errors or
// stale files, 2 usage (or no `Macros` trait), 3 no source file with protocols inside an `#if`.
import Foundation

#if Macros
struct Arguments {
    var check = false
    var module = ""
    var sources: [String] = []

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--check": check = true
            case "--module":
                guard let name = rest.popFirst() else { throw UsageError() }
                module = name
            default: sources.append(argument)
            }
        }
        if module.isEmpty || sources.isEmpty { throw UsageError() }
    }

    struct UsageError: Error {}
}

func run() -> Int32 {
    guard let arguments = try? Arguments(Array(CommandLine.arguments.dropFirst())) else {
        FileHandle.standardError.write(
            Data("usage: fastdelegates-proxygen [--check] --module NAME SOURCE.swift…\n".utf8))
        return 2
    }
    var outputs: [(path: String, text: String)] = []
    var errors: [String] = []
    for path in arguments.sources {
        let file = ProxyFile(sourcePath: path, moduleName: arguments.module)
        guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
            errors.append("\(path): error: cannot read the file")
            continue
        }
        switch file.generate(source) {
        case nil: continue
        case .success(let text): outputs.append((file.generatedPath, text))
        case .failure(let failure): errors += failure.messages
        }
    }
    // The macro's refusal of one protocol writes nothing at all.
    guard errors.isEmpty else {
        for error in errors { print(error) }
        print("generate-delegate-proxies: nothing written (\(errors.count) error\(errors.count == 1 ? "" : "s"))")
        return 1
    }
    // Exit status 3: nothing to generate (every file uses the macro directly).
    if outputs.isEmpty { return 3 }
    var stale = 0
    for output in outputs {
        let current = try? String(contentsOfFile: output.path, encoding: .utf8)
        if current == output.text {
            print("up to date: \(output.path)")
        } else if arguments.check {
            stale += 1
            let made = current.flatMap(generatorLine) ?? "no generator recorded"
            print(
                current == nil
                    ? "\(output.path): error: missing: run `swift package generate-delegate-proxies`"
                    : "\(output.path): error: stale (\(made); this is \(ProxyFile.generator)): run `swift package generate-delegate-proxies`"
            )
        } else {
            do {
                try output.text.write(toFile: output.path, atomically: true, encoding: .utf8)
                print("wrote: \(output.path)")
            } catch {
                print("\(output.path): error: cannot write: \(error)")
                return 1
            }
        }
    }
    return stale == 0 ? 0 : 1
}

/// What made an existing generated file, as its header records it.
func generatorLine(_ text: String) -> String? {
    guard let start = text.range(of: "generate-delegate-proxies` ("),
        let end = text[start.upperBound...].firstIndex(of: ")")
    else { return nil }
    return "made by " + text[start.upperBound..<end]
}

exit(run())
#else
FileHandle.standardError.write(
    Data(
        """
        generate-delegate-proxies needs FastDelegates' `Macros` trait (it runs the @DelegateProxy macro):
        enable it only while generating, through a trait of your own package, for example
            traits: [.trait(name: "GenerateProxies")],
            dependencies: [.package(url: "…/FastDelegates", from: "0.1.0",
                                    traits: [.trait(name: "Macros", condition: .when(traits: ["GenerateProxies"]))])]
        then run `swift package --traits GenerateProxies generate-delegate-proxies`.

        """.utf8))
exit(2)
#endif
