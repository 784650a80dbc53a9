import Foundation
import Testing
import UnpromptTestSupport

/// `statusline` as Claude Code runs it: its JSON on standard input (the real shape, with a canary in every
/// free-text field), one line on standard output, Claude's own percentages recorded for `limits`.
struct StatusLineTests {
    static let corpus = Repository.root + "/Tests/Golden/corpus"
    let directory: String
    var store: String { directory + "/usage.sqlite" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("statusline-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func environment(_ now: String) -> [String: String] {
        ["CLAUDE_CONFIG_DIR": Self.corpus + "/claude", "CODEX_HOME": Self.corpus + "/codex", "UNPROMPT_NOW": now]
    }

    /// Runs `statusline` with `input` on standard input.
    func statusLine(_ input: String, now: String = "2026-03-10T11:30:00Z", _ extra: [String] = []) throws -> Binary.Output {
        try Binary.run(["statusline", "--store", store, "--tz", "UTC"] + extra, environment: environment(now), input: input)
    }

    func scan(now: String = "2026-03-10T11:30:00Z") throws {
        let output = try Binary.run(["--store", store, "--config", Self.corpus + "/config.yaml"], environment: environment(now))
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// The store's limit samples of claude-code's status line windows, as rows of text.
    func samples() throws -> [String] {
        try Python.run(
            """
            import sqlite3, sys
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            for row in db.execute("SELECT window, time, used_percent, window_minutes, resets_at FROM limit_samples WHERE tool = 'claude-code' AND window IN ('five_hour', 'seven_day') ORDER BY window, time"):
                print(*row)
            """, arguments: [store]
        ).split(separator: "\n").map(String.init)
    }

    @Test func aRealPayloadIsRecordedAndTheLineShowsTodayAndClaudesOwnPercentages() throws {
        try scan()
        let output = try statusLine(StatusLineSample.claudeCode)
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        // Today on the corpus: 245 tokens (Claude 90 + 45, Codex 110), measured now, so the estimate is live.
        #expect(output.stdout == "245 tokens today · $0.0011 at API prices · 5h 23.5% (resets in 3h 30m) · 7d 41% (resets in 3d 12h)\n")
        #expect(try samples() == ["five_hour 1773142200000 23.5 300 1773154800000", "seven_day 1773142200000 41.0 10080 1773446400000"])
        let limits = try JSONTree(parsing: try Binary.run(
            ["limits", "--json", "--no-scan", "--store", store, "--tz", "UTC"], environment: environment("2026-03-10T11:31:00Z")).stdout)
        guard case .array(let items)? = limits["limits"] else { Issue.record("no limits"); return }
        let fiveHour = items.first { $0["window"] == .string("five_hour") }
        #expect(fiveHour?["tool"] == .string("claude-code") && fiveHour?["usedPercent"] == .number(23.5))
        #expect(fiveHour?["resetsAt"] == .string("2026-03-10T15:00:00.000Z") && fiveHour?["windowMinutes"] == .number(300))
        // 23.5 % in the 1.5 hours since 10:00.
        #expect(fiveHour?["pace"]?["windowStart"] == .string("2026-03-10T10:00:00.000Z"))
    }

    @Test func theSameReadingIsNotWrittenAgainUntilAMinuteHasPassed() throws {
        try scan()
        _ = try statusLine(StatusLineSample.claudeCode)
        let first = try samples()
        let again = try statusLine(StatusLineSample.claudeCode, now: "2026-03-10T11:30:30Z")
        #expect(again.status == 0)
        #expect(try samples() == first, "seen again 30 s later: nothing written")
        _ = try statusLine(StatusLineSample.claudeCode, now: "2026-03-10T11:31:30Z")
        _ = try statusLine(StatusLineSample.claudeCode, now: "2026-03-10T11:33:00Z")
        #expect(try samples() == [
            "five_hour 1773142200000 23.5 300 1773154800000", "five_hour 1773142380000 23.5 300 1773154800000",
            "seven_day 1773142200000 41.0 10080 1773446400000", "seven_day 1773142380000 41.0 10080 1773446400000",
        ], "the first moment of the reading and the latest one")
    }

    @Test func noCanaryReachesTheStoreOrAnyOutput() throws {
        try scan()
        let output = try statusLine(StatusLineSample.claudeCode)
        #expect(!(output.stdout + output.stderr).contains("CANARY"))
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store + suffix) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: store + suffix))
            #expect(bytes.range(of: Data("CANARY".utf8)) == nil, "canary in the store\(suffix)")
        }
    }

    @Test func aPayloadThatIsNotJSONIsSaidAndTheLineIsStillPrinted() throws {
        try scan()
        let output = try statusLine(#"{"cwd": "/home/CANARY", "rate_limits": "#)
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("245 tokens today · $0.0011 at API prices\n"), "\(output.stdout)")
        #expect(output.stderr.hasPrefix("unprompt-scan: statusline: standard input is not JSON") && !output.stderr.contains("CANARY"))
        #expect(try samples().isEmpty)
    }

    @Test func withoutAStoreNothingIsCreatedAndTheLineSaysSo() throws {
        let output = try statusLine(StatusLineSample.claudeCode)
        #expect(output.status == 0 && output.stdout == "no usage measured yet: run unprompt-scan\n", "\(output.stdout)")
        #expect(output.stderr.contains("no store yet"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func longAfterTheLastScanTheLineSaysWhenItWasMeasured() throws {
        try scan()
        let output = try statusLine(#"{"model":{"id":"x"}}"#, now: "2026-03-10T13:05:00Z")
        // The estimate as `today` gives it: 245 measured at 11:30, then the pace of 11:15 to 11:30 (45 tokens in
        // 900 s) for at most 3 minutes: 254. Codex's readings are not Claude's status line windows.
        #expect(output.stdout == "254 tokens today (measured 11:30) · $0.0011 at API prices\n", "\(output.stdout)")
        let stale = try statusLine(StatusLineSample.claudeCode)
        #expect(stale.status == 0)
        let later = try statusLine(#"{}"#, now: "2026-03-10T17:00:00Z")
        #expect(later.stdout == "254 tokens today (measured 11:30) · $0.0011 at API prices · 7d 41% (resets in 3d 7h)\n", "the 5-hour reading has reset")
    }
}
