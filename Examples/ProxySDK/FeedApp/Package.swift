// swift-tools-version: 6.1
// An app that uses ScrollKit, an SDK that ships checked-in @DelegateProxy proxies: it resolves
// ScrollKit and FastDelegates only, and builds no swift-syntax (`scripts/proxy-sdk-check.sh`).
import PackageDescription

let package = Package(
    name: "FeedApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: "../ScrollKit")
    ],
    targets: [
        .executableTarget(name: "FeedApp", dependencies: [.product(name: "ScrollKit", package: "ScrollKit")])
    ],
    swiftLanguageModes: [.v6]
)
