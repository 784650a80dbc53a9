import Foundation
import Testing
import UnpromptTestSupport

/// `unprompt-scan watch` run as a person runs it, once: started, fed an appended line, stopped with a signal.
/// When it scans is `WatchLoop`'s and what a round counts `WatchScan`'s, both tested on a scripted clock in
/// UnpromptKitTests; the lines it prints are `WatchLineTests`'. No test asserts speed; every wait is a bounded
/// poll for a condition, with a deadline well above what a pass needs (the latency measured is printed).
final class WatchTests {
    /// A fixture tree: `<tmp>/claude/projects/...` copied from Fixtures/claude-code/content-blocks.
    let directory: String
    var claude: String { directory + "/claude" }
    var store: String { directory + "/s.sqlite" }
    var environment: [String: String] { ["CLAUDE_CONFIG_DIR": claude] }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: claude, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repository.fixtures + "/claude-code/content-blocks/projects", toPath: claude + "/projects")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The fixture's one session file.
    func session() throws -> String {
        let projects = claude + "/projects"
        let project = try #require(try FileManager.default.contentsOfDirectory(atPath: projects).first)
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: projects + "/" + project).first { $0.hasSuffix(".jsonl") })
        return projects + "/" + project + "/" + file
    }

    /// One assistant line with usage the store has not seen (shape from the fixture).
    static func assistantLine(_ id: String) -> String {
        #"{"parentUuid":"p-\#(id)","isSidechain":false,"userType":"external","cwd":"/home/dev/project","sessionId":"e88b7591-31db-4e32-98dc-b35f94c662cd","version":"2.1.12","gitBranch":"main","message":{"model":"claude-sonnet-4-5-20250929","id":"msg_01Watch\#(id)","type":"message","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":1200,"output_tokens":42,"service_tier":"standard"}},"requestId":"req_011Watch\#(id)","type":"assistant","uuid":"a-\#(id)","timestamp":"2026-01-05T10:00:00.000Z"}"#
            + "\n"
    }

    static func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try handle.close()
    }

    /// `+N events` of a text line.
    static func events(_ line: String) -> Int? {
        guard let plus = line.firstIndex(of: "+") else { return nil }
        return Int(line[line.index(after: plus)...].prefix { $0.isNumber || $0 == "," }.filter(\.isNumber))
    }

    /// What a plain scan of the same store finds new: 0 when the watch left nothing behind.
    func eventsOfAScan(store: String) throws -> Double? {
        let output = try Binary.run(["--store", store, "--json"], environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        guard case .number(let events)? = try JSONTree(parsing: output.stdout)["scan"]?["events"] else { return nil }
        return events
    }

    @Test func anAppendedLineReachesTheStoreOnceAndAStopLosesNothing() throws {
        let watch = try RunningWatch(["watch", "--store", store], environment: environment)
        defer { watch.kill() }
        let first = try #require(watch.line(1, within: 20), "the first scan's line; stderr: \(watch.stderr)")
        let initial = try #require(Self.events(first), "\(first)")
        #expect(initial > 0 && first.contains("claude-code: \(initial)"), "\(first)")

        let clock = ContinuousClock()
        let start = clock.now
        try Self.append(Self.assistantLine("A1"), to: try session())
        let line = try #require(watch.line(2, within: 5), "an appended line within 5 s; stderr: \(watch.stderr)")
        print("watch: append → printed line, seconds:", String(format: "%.3f", Self.seconds(start.duration(to: clock.now))))
        #expect(Self.events(line) == 1 && line.contains("+1 event (claude-code: 1)"), "\(line)")

        watch.signal(SIGTERM)
        let status = try #require(watch.exit(within: 10), "watch did not stop on SIGTERM")
        #expect(status == .exited(0), "stderr: \(watch.stderr)")
        #expect(watch.lines.count == 2, "one line per scan that counted something: \(watch.lines)")
        // Every round of the watch is a measurement: the live estimate starts from the last one.
        let today = try Binary.run(["today", "--no-scan", "--json", "--store", store], environment: environment)
        if case .string(let measured)? = try JSONTree(parsing: today.stdout)["measuredAt"] {
            #expect(measured.hasSuffix("Z") && measured.count == 24, "\(measured)")
        } else {
            Issue.record("no measurement recorded by the watch: \(today.stdout) \(today.stderr)")
        }

        // Nothing lost: a scan of the same store finds nothing new. Nothing doubled: the watch's lines add
        // up to what a fresh store counts from the same files.
        #expect(try eventsOfAScan(store: store) == 0)
        #expect(try eventsOfAScan(store: directory + "/fresh.sqlite") == Double(initial + 1))
    }

    @Test(arguments: [["watch", "--interval", "0"], ["watch", "--interval", "soon"], ["watch", "now"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) throws {
        let output = try Binary.run(arguments + ["--store", store], environment: environment)
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains("watch") || output.stderr.contains("interval"), "\(output.stderr)")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The built binary started without waiting for it: its standard output is collected line by line
/// on a background thread, so a test can wait for the next line with a deadline.
private final class RunningWatch: @unchecked Sendable {
    enum Exit: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    private let process: Process
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    private let finished = DispatchGroup()

    init(_ arguments: [String], environment: [String: String]) throws {
        process = Binary.process(arguments, environment: environment)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        collect(out.fileHandleForReading) { self.output.append($0) }
        collect(err.fileHandleForReading) { self.errors.append($0) }
    }

    private func collect(_ handle: FileHandle, into append: @escaping @Sendable (Data) -> Void) {
        finished.enter()
        Thread.detachNewThread { [lock, finished] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                append(chunk)
                lock.unlock()
            }
            finished.leave()
        }
    }

    /// The complete lines printed so far.
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        let text = String(decoding: output, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: errors, as: UTF8.self)
    }

    /// The `number`th line (1-based), once printed; nil when the deadline passes first.
    func line(_ number: Int, within seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let lines = self.lines
            if lines.count >= number { return lines[number - 1] }
            if Date() >= deadline || !process.isRunning && finished.wait(timeout: .now()) == .success { return nil }
            usleep(5_000)
        }
    }

    func signal(_ signal: Int32) {
        Foundation.kill(process.processIdentifier, signal)
    }

    /// How the process ended, once it has; nil when the deadline passes first.
    func exit(within seconds: Double) -> Exit? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
        _ = finished.wait(timeout: .now() + 5)
        return process.terminationReason == .exit
            ? .exited(process.terminationStatus) : .signaled(process.terminationStatus)
    }

    /// Ends a watch a failed test left running.
    func kill() {
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
