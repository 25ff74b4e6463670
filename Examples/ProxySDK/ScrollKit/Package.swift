// swift-tools-version: 6.1
// An SDK that ships @DelegateProxy proxies without imposing swift-syntax on its users: its proxied
// protocols are ordinary Swift files inside `#if GenerateProxies`, and
// `swift package --traits GenerateProxies generate-delegate-proxies` writes their expansions
// beside them (`*+Generated.swift`, compiled when the trait is off). The trait turns on
// FastDelegates' `Macros` only for the author; the SDK's users never enable it.
import PackageDescription

let package = Package(
    name: "ScrollKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ScrollKit", targets: ["ScrollKit"])
    ],
    traits: [
        .trait(
            name: "GenerateProxies",
            description: "Compiles the @DelegateProxy sources with FastDelegates' macro: only while generating.")
    ],
    dependencies: [
        .package(
            path: "../FastDelegates",
            traits: [.trait(name: "Macros", condition: .when(traits: ["GenerateProxies"]))])
    ],
    targets: [
        .target(name: "ScrollKit", dependencies: [.product(name: "FastDelegates", package: "FastDelegates")])
    ],
    swiftLanguageModes: [.v6]
)
