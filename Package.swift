// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "unprompt-scan",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "unprompt-scan", targets: ["unprompt-scan"]),
        .library(name: "UnpromptKit", targets: ["UnpromptKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // zstd frames kept in database columns (Zed's threads), for `decompress: zstd`.
        .systemLibrary(
            name: "CZstd", pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        // QR codes of share codes (`unprompt-scan share`), drawn in the terminal and on the share card.
        .systemLibrary(
            name: "CQRencode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]),
        // simdjson is C++: the system library gives headers and link flags through pkg-config,
        // and CSimdJSON wraps it in a small extern "C" API that Swift can import.
        .systemLibrary(
            name: "CSimdJSONSystem", pkgConfig: "simdjson",
            providers: [.apt(["libsimdjson-dev"]), .brew(["simdjson"])]),
        .target(
            name: "CSimdJSON",
            dependencies: ["CSimdJSONSystem"],
            cxxSettings: [.unsafeFlags(["-O3"])]),
        .target(
            name: "CByteScan",
            cSettings: [.unsafeFlags(["-O2"])]),
        .target(
            name: "UnpromptKit",
            dependencies: ["CYAML", "CSQLite", "CZstd", "CSimdJSON", "CByteScan", "CQRencode"],
            // ICU's own regex diagnostics, for descriptor errors (RegexProblem): Foundation's copy of ICU on Linux.
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]),
        // `--version` names the commit the binary was built from.
        .plugin(name: "BuildCommit", capability: .buildTool()),
        .executableTarget(
            name: "unprompt-scan",
            dependencies: ["UnpromptKit"],
            plugins: ["BuildCommit"]),
        .testTarget(
            name: "UnpromptKitTests",
            dependencies: ["UnpromptKit", "UnpromptTestSupport"]),
        .target(
            name: "UnpromptTestSupport",
            dependencies: ["UnpromptKit"]),
        // Both run the built binary, as a person would; the fixture cases also go through the library's scan
        // into a store (UnpromptTestSupport's FixtureStoreRun).
        .testTarget(
            name: "ReaderFixtureTests",
            dependencies: ["unprompt-scan", "UnpromptKit", "UnpromptTestSupport"]),
        .testTarget(
            name: "CLITests",
            dependencies: ["unprompt-scan", "UnpromptTestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)

// What every Swift target is built with (after swift-log's Package.swift): the compiler, not habit, holds these.
// (`treatWarning` needs tools 6.2.)
let strictSettings: [SwiftSetting] = [
    // Swift 6: data races are compile errors; what crosses threads is Sendable as the compiler checks it.
    .swiftLanguageMode(.v6),
    // SE-0335: an existential is spelled `any P`, so its cost shows where it is used.
    .enableUpcomingFeature("ExistentialAny"),
    .treatWarning("ExistentialAny", as: .error),
    // SE-0444: a file sees a module's members only when it imports that module itself.
    .enableUpcomingFeature("MemberImportVisibility"),
    // Every public type says whether it is Sendable (what `-require-explicit-sendable` asked for).
    .treatWarning("ExplicitSendable", as: .error),
]
// The system libraries and the two C targets compile no Swift; a plugin takes no build settings.
for target in package.targets
where target.type != .system && target.type != .plugin && !["CSimdJSON", "CByteScan"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
