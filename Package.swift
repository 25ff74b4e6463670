// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FastDelegates",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "FastDelegates", targets: ["FastDelegates"]),
        .executable(name: "fastdelegates-bench", targets: ["fastdelegates-bench"]),
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
        .target(
            name: "FastDelegates",
            dependencies: ["CDispatchTable"]
        ),
        .executableTarget(
            name: "fastdelegates-bench",
            dependencies: ["FastDelegates"]
        ),
        .testTarget(
            name: "CDispatchTableTests",
            dependencies: ["CDispatchTable"]
        ),
        .testTarget(
            name: "FastDelegatesTests",
            dependencies: ["FastDelegates", "CDispatchTable"]
        ),
    ],
    cLanguageStandard: .c11
)
