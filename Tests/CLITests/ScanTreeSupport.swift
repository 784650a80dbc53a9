import Foundation
import Testing
import UnpromptTestSupport

/// One Claude response as the transcripts write it: one assistant line per content block, each repeating
/// the same `message.id`, `requestId` and usage. Counted once, whatever the number of lines.
struct ClaudeResponse {
    let number: Int
    let blocks: Int

    init(_ number: Int, blocks: Int = 2) {
        self.number = number
        self.blocks = blocks
    }

    var input: Int64 { 3 + Int64(number % 17) }
    var output: Int64 { 100 + 7 * Int64(number) }
    var cacheRead: Int64 { 10_000 + 13 * Int64(number) }
    var cacheWrite5m: Int64 { 500 + 11 * Int64(number) }
    var cacheWrite1h: Int64 { number % 3 == 0 ? 200 + Int64(number) : 0 }

    var totals: StoreTotals {
        StoreTotals(
            input: input, output: output, cacheRead: cacheRead, cacheWrite5m: cacheWrite5m, cacheWrite1h: cacheWrite1h,
            reasoning: 0, events: 1)
    }

    var padded: String { String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number) }
    var messageID: String { "msg_01Tail" + padded + "XyZ" }
    var requestID: String { "req_011Tail" + padded + "AbC" }

    /// 2026-01-05T09:00:00Z plus 41 s per response: several quarter-hours, one day.
    var timestamp: String {
        let seconds = 9 * 3600 + number * 41
        return String(
            format: "2026-01-05T%02d:%02d:%02d.%03dZ", (seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60, number % 1000)
    }

    /// The lines of one turn: a prompt, then one assistant line per content block. Shapes copied from
    /// Fixtures/claude-code/content-blocks.
    func lines(session: String = "e88b7591-31db-4e32-98dc-b35f94c662cd") -> String {
        let common =
            #""isSidechain":false,"userType":"external","cwd":"/home/dev/project","sessionId":"\#(session)","version":"2.1.12","gitBranch":"main""#
        var text =
            #"{"parentUuid":null,\#(common),"type":"user","message":{"role":"user","content":"prompt \#(number): refactor the parser"},"uuid":"u-\#(padded)","timestamp":"\#(timestamp)"}"#
            + "\n"
        let usage =
            #""usage":{"input_tokens":\#(input),"cache_creation_input_tokens":\#(cacheWrite5m + cacheWrite1h),"cache_read_input_tokens":\#(cacheRead),"cache_creation":{"ephemeral_5m_input_tokens":\#(cacheWrite5m),"ephemeral_1h_input_tokens":\#(cacheWrite1h)},"output_tokens":\#(output),"service_tier":"standard"}"#
        let contents = [
            #"{"type":"thinking","thinking":"the user wants the parser changed","signature":"suHPoOER4PlgQ0tTDY6Mo1NjN0Gaq92RBH"}"#,
            #"{"type":"text","text":"I will read the file first."}"#,
            #"{"type":"tool_use","id":"toolu_01PPe3lEX4D9g79L7N1StgCh","name":"Bash","input":{"command":"cat Sources/file.swift"}}"#,
        ]
        for block in 0..<blocks {
            text +=
                #"{"parentUuid":"u-\#(padded)",\#(common),"message":{"model":"claude-sonnet-4-5-20250929","id":"\#(messageID)","type":"message","role":"assistant","content":[\#(contents[block % contents.count])],"stop_reason":null,"stop_sequence":null,\#(usage)},"requestId":"\#(requestID)","type":"assistant","uuid":"a-\#(padded)-\#(block)","timestamp":"\#(timestamp)"}"#
                + "\n"
        }
        return text
    }

    static func lines(_ numbers: some Sequence<Int>, blocks: Int = 2) -> String {
        numbers.map { ClaudeResponse($0, blocks: blocks).lines() }.joined()
    }

    static func totals(_ numbers: some Sequence<Int>) -> StoreTotals {
        numbers.reduce(StoreTotals.zero) { $0 + ClaudeResponse($1).totals }
    }
}

/// A line no reader counts (no `"usage"`), of exactly `length` bytes including its newline (at least 40).
func fillerLine(length: Int) -> String {
    let head = #"{"type":"summary","summary":""#
    let tail = #"","leafUuid":"f"}"# + "\n"
    precondition(length >= head.utf8.count + tail.utf8.count, "a filler line needs at least 40 bytes")
    return head + String(repeating: "x", count: length - head.utf8.count - tail.utf8.count) + tail
}

/// A Codex rollout built call by call: running totals, the model carried from `turn_context`.
struct CodexRollout {
    var input: Int64 = 0
    var cached: Int64 = 0
    var output: Int64 = 0
    var reasoning: Int64 = 0
    var calls = 0
    /// What the store should hold for the calls made so far.
    var expected = StoreTotals.zero

    func header(id: String = "019bb1aa-1067-7536-b6df-fce8112d9d11") -> String {
        #"{"timestamp":"2026-01-12T10:04:31.207Z","type":"session_meta","payload":{"id":"\#(id)","timestamp":"2026-01-12T10:04:31.207Z","cwd":"/home/dev/project","originator":"codex_cli_rs","cli_version":"0.77.0","source":"cli","model_provider":"openai"}}"#
            + "\n"
    }

    func turn(model: String) -> String {
        #"{"timestamp":"2026-01-12T10:04:33.101Z","type":"turn_context","payload":{"cwd":"/home/dev/project","approval_policy":"on-request","model":"\#(model)","effort":"medium","summary":"auto"}}"#
            + "\n"
    }

    /// One call's token_count event (and a re-emitted copy with unchanged totals, which counts nothing).
    mutating func call(reemit: Bool = false) -> String {
        calls += 1
        let n = Int64(calls)
        let last = (input: 8000 + 37 * n, cached: 6000 + 29 * n, output: 200 + 11 * n, reasoning: 64 + 3 * n)
        input += last.input
        cached += last.cached
        output += last.output
        reasoning += last.reasoning
        expected += StoreTotals(
            input: last.input - last.cached, output: last.output, cacheRead: last.cached, reasoning: last.reasoning, events: 1)
        let seconds = 15 * 60 + calls * 53
        let time = String(format: "2026-01-12T10:%02d:%02d.%03dZ", (seconds / 60) % 60, seconds % 60, calls % 1000)
        func usage(_ i: Int64, _ c: Int64, _ o: Int64, _ r: Int64) -> String {
            #"{"input_tokens":\#(i),"cached_input_tokens":\#(c),"output_tokens":\#(o),"reasoning_output_tokens":\#(r),"total_tokens":\#(i + o)}"#
        }
        let line =
            #"{"timestamp":"\#(time)","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":\#(usage(input, cached, output, reasoning)),"last_token_usage":\#(usage(last.input, last.cached, last.output, last.reasoning)),"model_context_window":272000},"rate_limits":{"primary":{"used_percent":5.0,"window_minutes":300,"resets_at":1768229530}}}}"#
            + "\n"
        let other =
            #"{"timestamp":"\#(time)","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"patched the file"}]}}"#
            + "\n"
        return other + line + (reemit ? line : "")
    }
}

/// A temporary tool home and store, scanned with the real binary as a person would.
final class ScanTree {
    let root: String
    /// `CLAUDE_CONFIG_DIR`: holds `projects/`.
    let claude: String
    /// `CODEX_HOME`: holds `sessions/`.
    let codex: String
    let store: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-tail-\(UUID().uuidString)").path
        claude = root + "/claude"
        codex = root + "/codex"
        store = root + "/store/usage.sqlite"
        try FileManager.default.createDirectory(atPath: claude + "/projects", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: codex + "/sessions", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var environment: [String: String] { ["CLAUDE_CONFIG_DIR": claude, "CODEX_HOME": codex] }

    /// A path under `CLAUDE_CONFIG_DIR/projects/`.
    func project(_ relative: String) -> String { claude + "/projects/" + relative }

    /// A path under `CODEX_HOME/sessions/`.
    func session(_ relative: String) -> String { codex + "/sessions/" + relative }

    /// Replaces the file's content (same inode when it exists: opened with O_TRUNC).
    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try rawWrite(path, text, flags: O_WRONLY | O_CREAT | O_TRUNC)
    }

    /// Appends to the file with one write().
    func append(_ path: String, _ text: String) throws {
        try rawWrite(path, text, flags: O_WRONLY | O_CREAT | O_APPEND)
    }

    private func rawWrite(_ path: String, _ text: String, flags: Int32) throws {
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            done += n
        }
    }

    func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : -1
    }

    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    struct Scan {
        let status: Int32
        let report: JSONTree
        let output: Binary.Output

        func int(_ key: String) -> Int? {
            if case .number(let value)? = report[key] { return Int(value) }
            return nil
        }
    }

    /// Runs `unprompt-scan --store … --json` and returns its exit status and `scan` object.
    func scan(sourceLocation: SourceLocation = #_sourceLocation) throws -> Scan {
        let output = try Binary.run(["--store", store, "--json"], environment: environment)
        let tree = (try? JSONTree(parsing: output.stdout))?["scan"] ?? .null
        if tree == .null {
            Issue.record("no scan report: status \(output.status), stderr \(output.stderr)", sourceLocation: sourceLocation)
        }
        return Scan(status: output.status, report: tree, output: output)
    }

    /// The store's Claude totals.
    func claudeTotals() throws -> StoreTotals { try StoreReader.totals(store: store)["claude-code"] ?? .zero }

    func codexTotals() throws -> StoreTotals { try StoreReader.totals(store: store)["codex"] ?? .zero }
}
