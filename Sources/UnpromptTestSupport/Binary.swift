import Foundation

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
    /// `environment`), the checkout's readers, the UTC zone, and no standard input.
    public static func process(_ arguments: [String], environment: [String: String] = [:]) -> Process {
        let process = Process()
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

    /// Runs to the end and returns what it printed; with `input`, that is its standard input.
    public static func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Output {
        let process = process(arguments, environment: environment)
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

/// Parsed JSON reduced to values that compare exactly: every number as a Double (token counts fit).
public indirect enum JSONTree: Sendable, Equatable, CustomStringConvertible {
    case object([String: JSONTree])
    case array([JSONTree])
    case string(String)
    case number(Double)
    case null

    public init(parsing text: String) throws {
        self.init(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
    }

    public init(contentsOf path: String) throws {
        self.init(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)), options: []))
    }

    public init(_ value: Any) {
        switch value {
        case let object as [String: Any]: self = .object(object.mapValues(JSONTree.init))
        case let array as [Any]: self = .array(array.map(JSONTree.init))
        case let string as String: self = .string(string)
        case let number as NSNumber: self = .number(number.doubleValue)
        default: self = .null
        }
    }

    public subscript(key: String) -> JSONTree? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var description: String {
        switch self {
        case .object(let object):
            return "{" + object.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        case .array(let array): return "[" + array.map(\.description).joined(separator: ",") + "]"
        case .string(let string): return "\"\(string)\""
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .null: return "null"
        }
    }
}

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
