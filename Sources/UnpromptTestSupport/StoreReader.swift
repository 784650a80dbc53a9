import Foundation
import UnpromptKit

/// Token totals as the store keeps them (disjoint counts, as in `buckets`).
public struct StoreTotals: Equatable, Sendable, CustomStringConvertible {
    public var input: Int64
    public var output: Int64
    public var cacheRead: Int64
    public var cacheWrite5m: Int64
    public var cacheWrite1h: Int64
    public var cacheWrite12h: Int64
    public var reasoning: Int64
    public var events: Int64

    public init(
        input: Int64 = 0, output: Int64 = 0, cacheRead: Int64 = 0, cacheWrite5m: Int64 = 0, cacheWrite1h: Int64 = 0,
        cacheWrite12h: Int64 = 0, reasoning: Int64 = 0, events: Int64 = 0
    ) {
        self.input = input
        self.output = output
        self.cacheRead = cacheRead
        self.cacheWrite5m = cacheWrite5m
        self.cacheWrite1h = cacheWrite1h
        self.cacheWrite12h = cacheWrite12h
        self.reasoning = reasoning
        self.events = events
    }

    public static let zero = StoreTotals()

    public static func + (a: StoreTotals, b: StoreTotals) -> StoreTotals {
        StoreTotals(
            input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead,
            cacheWrite5m: a.cacheWrite5m + b.cacheWrite5m, cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h,
            cacheWrite12h: a.cacheWrite12h + b.cacheWrite12h, reasoning: a.reasoning + b.reasoning, events: a.events + b.events)
    }

    public static func += (a: inout StoreTotals, b: StoreTotals) { a = a + b }

    public var description: String {
        "input \(input), output \(output), cacheRead \(cacheRead), cacheWrite5m \(cacheWrite5m), "
            + "cacheWrite1h \(cacheWrite1h), cacheWrite12h \(cacheWrite12h), reasoning \(reasoning), events \(events)"
    }
}

/// Reads the totals in a store with Python's standard `sqlite3` module (the test targets do not link
/// SQLite, and no `sqlite3` binary is guaranteed on CI).
///
/// The store file and its `-wal` are first copied aside and the copy is read, so reading never changes
/// the store: it neither checkpoints nor recovers its write-ahead log in place (a crash test must leave
/// that to the next scan). Call it only while no scan is writing the store.
public enum StoreReader: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Totals per tool. A store that does not exist yet, or holds no tables yet, has none.
    public static func totals(store: String) throws -> [String: StoreTotals] {
        var result: [String: StoreTotals] = [:]
        for (key, totals) in try totalsByModel(store: store) {
            result[String(key.split(separator: "/", maxSplits: 1)[0]), default: .zero] += totals
        }
        return result
    }

    /// Runs `body` on a copy of the store (and of its `-wal`), so reading it changes nothing.
    static func onACopy<T>(of store: String, _ body: (String) throws -> T) throws -> T {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-store-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        let copied = copy.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: store, toPath: copied)
        if FileManager.default.fileExists(atPath: store + "-wal") {
            try FileManager.default.copyItem(atPath: store + "-wal", toPath: copied + "-wal")
        }
        return try body(copied)
    }

    /// Totals per `tool/model`.
    public static func totalsByModel(store: String) throws -> [String: StoreTotals] {
        guard FileManager.default.fileExists(atPath: store) else { return [:] }
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            if db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'buckets'").fetchone()[0] == 0:
                sys.exit(0)
            for row in db.execute(
                "SELECT tool, model, sum(input), sum(output), sum(cache_read), sum(cache_write_5m), "
                "sum(cache_write_1h), sum(cache_write_12h), sum(reasoning), sum(events) FROM buckets "
                "GROUP BY tool, model ORDER BY tool, model"):
                print("\\t".join(str(v) for v in row))
            """
        let output = try onACopy(of: store) { copied in try Python.run(script, arguments: [copied]) }
        var result: [String: StoreTotals] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 10 else { throw Failure(description: "unexpected row from the store: \(line)") }
            let n = fields[2...].map { Int64($0) ?? 0 }
            result[fields[0] + "/" + fields[1]] = StoreTotals(
                input: n[0], output: n[1], cacheRead: n[2], cacheWrite5m: n[3], cacheWrite1h: n[4], cacheWrite12h: n[5],
                reasoning: n[6], events: n[7])
        }
        return result
    }
}

/// Runs a Python 3 script from the standard library only.
public enum Python: Sendable {
    public static func run(_ script: String, arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StoreReader.Failure(
                description: "python3 failed (\(process.terminationStatus)): \(String(decoding: stderr, as: UTF8.self))")
        }
        return String(decoding: stdout, as: UTF8.self)
    }
}

/// A run of the binary that the test can watch, wait for or kill.
public final class BinaryRun: Sendable {
    public let process: Process
    private let out: Pipe?
    private let err: Pipe?

    /// Starts `unprompt-scan` with the same clean environment as `Binary.run`. With `captureOutput` false,
    /// its output goes to /dev/null (a killed run's pipes need no draining).
    public init(_ arguments: [String], environment: [String: String] = [:], captureOutput: Bool = true) throws {
        process = Binary.process(arguments, environment: environment)
        if captureOutput {
            out = Pipe()
            err = Pipe()
            process.standardOutput = out
            process.standardError = err
        } else {
            out = nil
            err = nil
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
    }

    /// Waits for the end and returns what it printed (small outputs only: the pipes are read after it).
    public func wait() -> Binary.Output {
        let stdout = out?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let stderr = err?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return Binary.Output(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Sends `signal` if the run has not ended yet (never to a pid that may have been reused).
    public func send(_ signal: Int32) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// Sends SIGKILL and waits for the end. True when the signal is what ended it (it had not exited yet).
    @discardableResult
    public func kill() -> Bool {
        send(SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }
}
