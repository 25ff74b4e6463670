// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "Measure",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "FastDelegates", path: "../..")],
    targets: [.executableTarget(name: "Measure", dependencies: [.product(name: "FastDelegates", package: "FastDelegates")])]
)
