import Foundation
import UnpromptKit
// Re-exported, so a test that runs only the binary (and imports only this module) can read its JSON output and
// draw seeded numbers.
@_exported import enum UnpromptKit.FixtureJSON
@_exported import struct UnpromptKit.SeededRandom

/// Runs the built `unprompt-scan` as a person would, for tests that check what it prints.
public enum Binary: Sendable {
    public struct Output: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The binary built beside the test bundle.
    public static var path: String {
        #if os(macOS)
            let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }!.bundleURL
                .deletingLastPathComponent()
        #else
            let products = Bundle.main.bundleURL
        #endif
        return products.appendingPathComponent("unprompt-scan").path
    }

    /// The binary, ready to start with `arguments`: an environment that names no real tool home (plus
    /// `environment`), the checkout's readers, the UTC zone, and no standard input; started in `directory`
    /// when given.
    public static func process(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil)
        -> Process
    {
        let process = Process()
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // TZ is fixed so times written without a zone read the same on every machine.
        var base = [
            "PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "UNPROMPT_READERS_DIR": Repository.readers, "TZ": "UTC",
        ]
        base.merge(environment) { $1 }
        process.environment = base
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// Runs to the end and returns what it printed; with `input`, that is its standard input; started in
    /// `directory` when given.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, directory: String? = nil
    ) throws -> Output {
        let process = process(arguments, environment: environment, directory: directory)
        if let input {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-input-\(UUID().uuidString)").path
            try input.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            process.standardInput = FileHandle(forReadingAtPath: file)
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Paths inside the checkout the tests were built from.
public enum Repository: Sendable {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    public static var readers: String { root + "/readers" }
    public static var fixtures: String { root + "/Fixtures" }
    /// The corpus generator (`python3 bench/corpus claude|codex …`, see bench/README.md).
    public static var corpusGenerator: String { root + "/bench/corpus" }
}

/// The fixture runner's JSON values, by the name the tests use.
public typealias JSONTree = FixtureJSON

/// The corpus generator in `bench/corpus`: deterministic log trees with their expected totals.
public enum Generator: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes a `tool` (`claude` or `codex`) tree into a new temporary root and returns the root and its
    /// `expected_totals.json`.
    public static func run(_ tool: String, _ arguments: [String]) throws -> (root: String, expected: JSONTree) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-gen-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.corpusGenerator, tool, "--root", root] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "bench/corpus \(tool) exited \(process.terminationStatus)")
        }
        return (root, try JSONTree(contentsOf: root + "/expected_totals.json"))
    }
}
