// swift-tools-version:6.2
// The libFuzzer target (`make fuzz`): a package of its own, so that neither `swift build` nor `swift test` of the
// main package ever builds it. It is built with `-sanitize=fuzzer,address` (scripts/fuzz.sh), which only Linux's
// toolchain links; UnpromptKit is built the same way, so the fuzzer sees its coverage.
import PackageDescription

let package = Package(
    name: "unprompt-fuzz",
    dependencies: [.package(name: "unprompt-scan", path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .executableTarget(
            name: "UnpromptFuzz",
            dependencies: ["CFuzzDriver", .product(name: "UnpromptKit", package: "unprompt-scan")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
