// swift-tools-version: 6.1
// A package that depends on FastDelegates as a new user's would, with the `Macros` trait: a
// library declares public delegate protocols with `@DelegateProxy` and the hosts that call
// them; an app puts the generated proxies into the hosts' delegate slots. `scripts/dependent-check.sh`
// copies it beside a link named FastDelegates to this checkout, builds and runs it, and reads its
// Package.resolved.
import PackageDescription

let package = Package(
    name: "DependentPackage",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: "../FastDelegates", traits: ["Macros"])
    ],
    targets: [
        .target(name: "FeedKit", dependencies: [.product(name: "FastDelegates", package: "FastDelegates")]),
        .executableTarget(
            name: "FeedApp",
            dependencies: ["FeedKit", .product(name: "FastDelegates", package: "FastDelegates")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
