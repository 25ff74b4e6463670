// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

/// Products of swift-syntax, needed only with the `Macros` trait: each carries the trait's
/// condition too, so that a dependent without the trait does not even fetch swift-syntax.
func swiftSyntax(_ product: String) -> Target.Dependency {
    .product(name: product, package: "swift-syntax", condition: .when(traits: ["Macros"]))
}

let package = Package(
    name: "FastDelegates",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    // Two products: the library, and its Objective-C front for Apple's own delegate slots. A
    // dependent resolves no other package: the dependencies below serve the
    // benchmark executable target, which is deliberately not a product (`swift run fastdelegates-bench`
    // still runs it here), and the DocC plugin, which no target uses.
    products: [
        .library(name: "FastDelegates", targets: ["FastDelegates"]),
        // Objective-C: many listeners behind a framework's own delegate slot (UIKit, WebKit).
        .library(name: "FastDelegatesObjC", targets: ["FastDelegatesObjC"]),
        // Ready-made proxies for Foundation's delegate protocols (XMLParser, NSCache, FileManager,
        // NSKeyedArchiver/Unarchiver, URLSession), with Foundation's own defaults.
        .library(name: "FastDelegatesFoundation", targets: ["FastDelegatesFoundation"]),
        // `swift package generate-delegate-proxies`: checked-in `@DelegateProxy` expansions, so
        // that a package's dependents build without swift-syntax.
        .plugin(name: "GenerateDelegateProxies", targets: ["GenerateDelegateProxies"]),
    ],
    // `Macros` (off by default) adds `@DelegateProxy` to the FastDelegates module. Only a
    // dependent that enables it resolves and builds swift-syntax.
    traits: [
        .trait(name: "Macros", description: "The @DelegateProxy macro (builds swift-syntax)."),
    ],
    dependencies: [
        // Benchmark-only dependencies (the library itself depends on nothing).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.0"),
        // `swift package generate-documentation --target FastDelegates` (DocC).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The `Macros` trait's compiler plugin (and its expansion tests).
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        // libbsd supplies arc4random to the C core on Linux; Apple platforms have their own.
        .systemLibrary(
            name: "CBSD",
            path: "Sources/CBSD",
            pkgConfig: "libbsd",
            providers: [.apt(["libbsd-dev"])]
        ),
        // The C core. Rooted at the package root so its public headers live in `include/`.
        .target(
            name: "CDispatchTable",
            dependencies: [.target(name: "CBSD", condition: .when(platforms: [.linux]))],
            path: ".",
            sources: ["Sources/CDispatchTable"],
            publicHeadersPath: "include",
            linkerSettings: [.linkedLibrary("bsd", .when(platforms: [.linux]))]
        ),
        // The Objective-C multicaster over the C core (ARC on Apple platforms). Its sources are
        // guarded by `__APPLE__ || GNUSTEP`: on Linux SwiftPM compiles it as an empty unit, and
        // `make objc-tests` builds it against GNUstep instead (flags SwiftPM cannot pass safely).
        .target(
            name: "FastDelegatesObjC",
            dependencies: ["CDispatchTable"],
            linkerSettings: [.linkedFramework("Foundation", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS]))]
        ),
        .target(
            name: "FastDelegates",
            dependencies: [
                "CDispatchTable",
                .target(name: "FastDelegatesMacros", condition: .when(traits: ["Macros"])),
            ]
        ),
        // Ready-made proxies for Foundation's delegate protocols: checked-in `@DelegateProxy`
        // expansions (`make generate`), so it builds without the `Macros` trait.
        .target(
            name: "FastDelegatesFoundation",
            dependencies: ["FastDelegates"]
        ),
        // The compiler plugin behind `@DelegateProxy`: built only with the `Macros` trait.
        .macro(
            name: "FastDelegatesMacros",
            dependencies: [
                .target(name: "FastDelegatesProxyGeneration", condition: .when(traits: ["Macros"])),
                swiftSyntax("SwiftSyntax"),
                swiftSyntax("SwiftSyntaxMacros"),
                swiftSyntax("SwiftCompilerPlugin"),
            ]
        ),
        // What `@DelegateProxy` generates and rejects: the macro's implementation, shared by the
        // compiler plugin and the `generate-delegate-proxies` tool (empty without the trait).
        .target(
            name: "FastDelegatesProxyGeneration",
            dependencies: [
                swiftSyntax("SwiftSyntax"),
                swiftSyntax("SwiftSyntaxBuilder"),
                swiftSyntax("SwiftSyntaxMacros"),
                swiftSyntax("SwiftDiagnostics"),
            ]
        ),
        // The command plugin `generate-delegate-proxies` and the tool it runs: the macro's
        // expansion of a target's `@DelegateProxy` protocols, written beside them (the tool
        // needs the `Macros` trait; without it, it says so).
        .plugin(
            name: "GenerateDelegateProxies",
            capability: .command(
                intent: .custom(
                    verb: "generate-delegate-proxies",
                    description: "Writes the @DelegateProxy expansions of a target's protocols as checked-in Swift files"),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes each proxied protocol's expansion beside its source file")
                ]),
            dependencies: ["fastdelegates-proxygen"]
        ),
        .executableTarget(
            name: "fastdelegates-proxygen",
            dependencies: [
                .target(name: "FastDelegatesProxyGeneration", condition: .when(traits: ["Macros"])),
                swiftSyntax("SwiftSyntax"),
                swiftSyntax("SwiftParser"),
                swiftSyntax("SwiftDiagnostics"),
                swiftSyntax("SwiftSyntaxMacros"),
                swiftSyntax("SwiftSyntaxMacroExpansion"),
            ]
        ),
        // A plain-Swift delegate proxy with the same semantics as DelegateChain: a benchmark
        // variant and a reference model for differential tests. Internal: not a product.
        .target(
            name: "PureSwiftProxy"
        ),
        // The benchmark's code pads: copies of a runner's timed loop at other offsets (issue 46).
        .target(
            name: "CCodePlacement"
        ),
        // glibc's in-use heap bytes (mallinfo2), for the benchmark's bytes per instance and the
        // tests that check made and dropped objects give their memory back (issue 53).
        .target(
            name: "CHeapStats"
        ),
        .executableTarget(
            name: "fastdelegates-bench",
            dependencies: [
                "FastDelegates",
                "FastDelegatesFoundation",
                // The Swift runtime's entry points, for the zeroing floor (cdt_swift_runtime.h).
                "CDispatchTable",
                "CCodePlacement",
                "CHeapStats",
                "PureSwiftProxy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        .testTarget(
            name: "CDispatchTableTests",
            dependencies: ["CDispatchTable"]
        ),
        // What the library's tests share (swift-collections' `_CollectionsTestSupport` is the model):
        // the fixtures and lifetime probes, the seeded generator, the misuse checks, and
        // `ChainUnderTest`, through which one suite runs over every chain. Internal: not a product.
        .target(
            name: "FastDelegatesTestSupport",
            dependencies: ["FastDelegates"],
            path: "Tests/FastDelegatesTestSupport"
        ),
        .testTarget(
            name: "FastDelegatesTests",
            dependencies: [
                "FastDelegates", "FastDelegatesTestSupport", "CDispatchTable", "MessageFixtureA", "MessageFixtureB",
            ]
        ),
        // Two tiny libraries that each declare a message named "scrollViewDidScroll:" with other
        // types, for the message identity tests. Internal: not products.
        .target(
            name: "MessageFixtureA",
            dependencies: ["FastDelegates"],
            path: "Tests/Fixtures/MessageFixtureA"
        ),
        .target(
            name: "MessageFixtureB",
            dependencies: ["FastDelegates"],
            path: "Tests/Fixtures/MessageFixtureB"
        ),
        // A C++ object imported as a foreign reference type, and the tests that every registration
        // refuses it (C++ interoperability). Internal: not products.
        .target(
            name: "CxxCanary",
            path: "Tests/Fixtures/CxxCanary"
        ),
        .testTarget(
            name: "ForeignReferenceTests",
            dependencies: ["FastDelegates", "CxxCanary"],
            swiftSettings: [.interoperabilityMode(.Cxx)]
        ),
        // A library that declares public `@DelegateProxy` protocols, used from the proxy tests as
        // another module would. Internal: not a product.
        .target(
            name: "ProxyFixture",
            dependencies: ["FastDelegates"],
            path: "Tests/Fixtures/ProxyFixture"
        ),
        // Two libraries unaware of each other that declare one `@DelegateProxy` protocol name with the
        // same requirements over a view class of a third module, as two SDKs over UIKit do: the
        // composition tests use both in one app (with the `Macros` trait). Internal: not products.
        .target(
            name: "CompositionViews",
            path: "Tests/Fixtures/CompositionViews"
        ),
        .target(
            name: "RefreshKitA",
            dependencies: ["FastDelegates", "CompositionViews"],
            path: "Tests/Fixtures/RefreshKitA"
        ),
        .target(
            name: "RefreshKitB",
            dependencies: ["FastDelegates", "CompositionViews"],
            path: "Tests/Fixtures/RefreshKitB"
        ),
        // Eight of Apple's delegate protocols transcribed as Apple declares them, with stand-ins for
        // the UIKit/WebKit types, plus only `@DelegateProxy` and `@DelegateDefault`: the acceptance
        // material of the proxy (with the `Macros` trait; empty without it). Internal: not a product.
        .target(
            name: "AppleDelegates",
            dependencies: ["FastDelegates"],
            path: "Tests/Fixtures/AppleDelegates",
            exclude: ["README.md"]
        ),
        // The transcriptions at run time: listeners that implement only a few requirements, hosts
        // that call their delegates as the frameworks do (with the `Macros` trait).
        .testTarget(
            name: "AppleDelegateTests",
            dependencies: ["FastDelegates", "AppleDelegates"]
        ),
        // A module compiled with default main-actor isolation (SwiftPM 6.2), whose protocol states
        // no isolation: its proxy is main-actor isolated like the rest of the module.
        .target(
            name: "DefaultMainActorFixture",
            dependencies: ["FastDelegates"],
            path: "Tests/Fixtures/DefaultMainActorFixture",
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        // A module compiled with `NonisolatedNonsendingByDefault`, whose nonisolated protocol's
        // `async` requirements run on their caller's isolation (with the `Macros` trait).
        .target(
            name: "NonsendingFixture",
            dependencies: ["FastDelegates"],
            path: "Tests/Fixtures/NonsendingFixture",
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        // What `@DelegateProxy` expands to and what it rejects (with the `Macros` trait; debug only:
        // a release build of swift-syntax takes minutes).
        .testTarget(
            name: "FastDelegatesMacrosTests",
            dependencies: [
                .target(name: "FastDelegatesProxyGeneration", condition: .when(traits: ["Macros"])),
                swiftSyntax("SwiftSyntax"),
                swiftSyntax("SwiftParser"),
                swiftSyntax("SwiftSyntaxMacros"),
                swiftSyntax("SwiftSyntaxMacroExpansion"),
                swiftSyntax("SwiftSyntaxMacrosGenericTestSupport"),
            ]
        ),
        // The generated proxies at run time (compiled with the `Macros` trait: `swift test --traits Macros`).
        .testTarget(
            name: "DelegateProxyTests",
            dependencies: [
                "FastDelegates", "ProxyFixture", "DefaultMainActorFixture", "NonsendingFixture", "CompositionViews",
                "RefreshKitA", "RefreshKitB",
            ]
        ),
        // The examples, as a dependent package writes them in Swift 6: each Objective-C seed's
        // scenario rebuilt on a small @MainActor host type, @MainActor targets on every
        // single-thread dispatcher, non-Sendable captures, the issue-12 snippets as written.
        // Depends on the FastDelegates library alone, like a user's package.
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["FastDelegates"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The ready-made Foundation proxies against the real components (XMLParser, NSCache,
        // NSKeyedArchiver/Unarchiver, FileManager, URLSession on a loopback server).
        .testTarget(
            name: "FoundationDelegatesTests",
            dependencies: ["FastDelegatesFoundation", "FastDelegates", "CHeapStats"]
        ),
        // Smoke test of the benchmark CLI (runs its quick mode) and the pure-Swift proxy's semantics.
        .testTarget(
            name: "BenchTests",
            dependencies: ["PureSwiftProxy", "FastDelegates", "fastdelegates-bench"]
        ),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)

// libbsd is for Linux only (Apple platforms have arc4random in libc). Off Linux, drop its
// system-library target, so that SwiftPM neither asks pkg-config for libbsd nor warns that it
// is missing (on macOS). Self-contained on purpose: the targets above stay as they are.
#if !os(Linux)
package.targets.removeAll { $0.name == "CBSD" }
for target in package.targets {
    target.dependencies.removeAll {
        if case .targetItem(name: "CBSD", _) = $0 { return true }
        return false
    }
}
#endif
