import Foundation
import Testing
import UnpromptTestSupport

/// `limits` as a person runs it: Codex's windows with their countdowns and pace, Claude's 5-hour window and
/// its limit-reached reset, and readings gone stale.
struct LimitsViewTests {
    typealias Record = ReportCommandTests.Record
    typealias Home = ReportCommandTests.Home

    func clock(_ instant: String) -> [String: String] { ["UNPROMPT_NOW": instant] }

    /// Claude requests at 09:10Z and 09:40Z on 2026-03-10 (the window 09:00 to 14:00), a limit-reached record at
    /// 11:00Z saying it resets at 13:00Z; a Codex reading at 10:00Z: its primary slot 12% of 300 minutes (the
    /// five_hour window) resetting at 12:30Z, its secondary 40% of 10,080 minutes (weekly) resetting on the 14th
    /// at 00:00Z.
    func home() throws -> Home {
        let home = try Home(
            records: [
                Record.claude("W1", "2026-03-10T09:10:00.000Z", "claude-sonnet-4-5", 2),
                Record.claude("W2", "2026-03-10T09:40:00.000Z", "claude-sonnet-4-5", 4),
            ], codex: false)
        let refused =
            #"{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/project","sessionId":"5b0c","version":"1.0.30","gitBranch":"main","type":"assistant","uuid":"e1","timestamp":"2026-03-10T11:00:00.000Z","isApiErrorMessage":true,"message":{"id":"msg_err","type":"message","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"Claude AI usage limit reached|1773147600"}],"stop_reason":"stop_sequence","usage":{"input_tokens":0,"output_tokens":0}}}"#
        let transcript = home.root + "/claude/projects/-home-dev-project/5b0c.jsonl"
        try (try String(contentsOfFile: transcript, encoding: .utf8) + refused + "\n").write(toFile: transcript, atomically: true, encoding: .utf8)
        let usage = #"{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110}"#
        let rollout =
            #"{"timestamp":"2026-03-10T09:59:00.000Z","type":"turn_context","payload":{"cwd":"/home/dev/project","model":"gpt-5"}}"# + "\n"
            + #"{"timestamp":"2026-03-10T10:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":\#(usage),"last_token_usage":\#(usage)},"rate_limits":{"primary":{"used_percent":12.0,"window_minutes":300,"resets_at":1773145800},"secondary":{"used_percent":40.0,"window_minutes":10080,"resets_at":1773446400},"credits":null,"plan_type":null}}}"#
            + "\n"
        let sessions = home.root + "/codex/sessions/2026/03/10"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        try rollout.write(toFile: sessions + "/rollout-2026-03-10T09-59-00-0001.jsonl", atomically: true, encoding: .utf8)
        return home
    }

    func limit(_ json: JSONTree, _ tool: String, _ window: String) -> JSONTree? {
        guard case .array(let items)? = json["limits"] else { return nil }
        return items.first { $0["tool"] == .string(tool) && $0["window"] == .string(window) }
    }

    /// The 5-hour windows without their `cost`, and the first window's cost in USD.
    func windowWithoutCost(_ json: JSONTree) -> JSONTree? {
        guard case .array(let windows)? = json["fiveHourWindows"] else { return nil }
        return .array(windows.map { window in
            guard case .object(var fields) = window else { return window }
            fields["cost"] = nil
            return .object(fields)
        })
    }

    func windowCost(_ json: JSONTree) -> Double? {
        guard case .array(let windows)? = json["fiveHourWindows"], case .number(let usd)? = windows.first?["cost"]?["usd"] else { return nil }
        return (usd * 1e10).rounded() / 1e10
    }

    @Test func windowsCountDownToTheirResets() throws {
        let home = try home()
        let json = try home.json(["limits", "--tz", "UTC"], environment: clock("2026-03-10T11:30:00Z"))
        #expect(json["now"] == .string("2026-03-10T11:30:00.000Z"))
        let fiveHour = limit(json, "codex", "five_hour")
        #expect(fiveHour?["usedPercent"] == .number(12))
        #expect(fiveHour?["windowMinutes"] == .number(300))
        #expect(fiveHour?["resetsAt"] == .string("2026-03-10T12:30:00.000Z"))
        #expect(fiveHour?["resetsInSeconds"] == .number(3600))
        #expect(fiveHour?["ageSeconds"] == .number(5400))
        #expect(fiveHour?["stale"] == .number(0))
        let weekly = limit(json, "codex", "weekly")
        #expect(weekly?["resetsInSeconds"] == .number(Double(3 * 86_400 + 12 * 3600 + 30 * 60)))
        let refused = limit(json, "claude-code", "limit_reached")
        #expect(refused?["resetsAt"] == .string("2026-03-10T13:00:00.000Z"))
        #expect(refused?["windowMinutes"] == .number(300), "Claude's window, as the reading names none")
        #expect(windowWithoutCost(json) == .array([.object([
            "tool": .string("claude-code"), "start": .string("2026-03-10T09:00:00.000Z"), "end": .string("2026-03-10T13:00:00.000Z"),
            "tokens": .number(90), "endFromLimit": .number(1), "tokensPerHour": .number(36),
        ])]))
        // 6 units of Sonnet 4.5: 6 × $3 + 12 × $15 + 18 × $0.30 + 24 × $3.75 + 30 × $6 = $473.40 per million.
        #expect(windowCost(json) == 0.0004734)

        let text = try home.run(["limits", "--tz", "Asia/Kolkata", "--no-scan"], environment: clock("2026-03-10T11:30:00Z"))
        #expect(text.stdout == """
            limits at 17:00 (Asia/Kolkata)
            tool / window      used  so far     cost   from            resets      in      pace               used up at this pace      logged
            claude-code
              5-hour window              90  $0.0005  14:30             18:30  1h 30m      36/h
              limit reached  100.0%                                     18:30  1h 30m                                                  30m ago
            codex
              five_hour       12.0%                                     18:00      1h    4.8%/h  2026-03-11 09:50, after the reset  1h 30m ago
              weekly, 7-day   40.0%                          2026-03-14 05:30  3d 12h  0.488%/h  2026-03-15 18:30, after the reset  1h 30m ago
            claude-code 5-hour window: derived from use; it ends at the reset a limit-reached record logged
            pace: since the window started, an hour; used up: when that pace would use the window up, before or after its reset

            """)
        // On 60 columns the start, the tokens, the cost and the age give way; the pace fits.
        let narrow = try home.run(
            ["limits", "--tz", "Asia/Kolkata", "--no-scan"], environment: clock("2026-03-10T11:30:00Z").merging(["COLUMNS": "60"]) { $1 })
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= 60 }, "\(narrow.stdout)")
        #expect(narrow.stdout.contains("tool / window      used            resets      in      pace\n"), "\(narrow.stdout)")
        #expect(narrow.stdout.contains("  weekly, 7-day   40.0%  2026-03-14 05:30  3d 12h  0.488%/h\n"), "\(narrow.stdout)")
        // On 47, the dates of resets after today lose their year, and the pace goes.
        let narrower = try home.run(
            ["limits", "--tz", "Asia/Kolkata", "--no-scan"], environment: clock("2026-03-10T11:30:00Z").merging(["COLUMNS": "47"]) { $1 })
        #expect(narrower.stdout.split(separator: "\n").allSatisfy { $0.count <= 47 }, "\(narrower.stdout)")
        #expect(narrower.stdout.contains("  weekly, 7-day   40.0%  03-14 05:30  3d 12h\n"), "\(narrower.stdout)")
    }

    @Test func aReadingOlderThanItsWindowIsShownAsStaleWithItsAge() throws {
        let home = try home()
        _ = try home.run(["limits"], environment: clock("2026-03-10T11:30:00Z"))
        // 15:30Z: the 5-hour reading is 5 h 30 min old, older than its 5 hours; the weekly one is not.
        let json = try home.json(["limits", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T15:30:00Z"))
        #expect(limit(json, "codex", "five_hour")?["stale"] == .number(1))
        #expect(limit(json, "codex", "five_hour")?["ageSeconds"] == .number(19_800))
        #expect(limit(json, "codex", "weekly")?["stale"] == .number(0))
        #expect(limit(json, "claude-code", "limit_reached")?["stale"] == .number(0), "4 h 30 min old")
        #expect(limit(json, "claude-code", "limit_reached")?["resetPassed"] == .number(1))
        #expect(json["fiveHourWindows"] == .array([]), "the window ended at its reset and nothing was asked since")
        let text = try home.run(["limits", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T15:30:00Z"))
        #expect(text.stdout.contains("  five_hour       12.0%                                         stale                                               5h 30m ago\n"), "\(text.stdout)")
        #expect(text.stdout.contains("codex five_hour: stale, logged longer ago than its window lasts\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  limit reached  100.0%                                 13:00  passed                                               4h 30m ago\n"), "\(text.stdout)")
        #expect(text.stdout.contains("claude-code limit reached: reset 2h 30m ago; no reading since\n"), "\(text.stdout)")
        #expect(text.stdout.contains("claude-code 5-hour window: none in progress; the next starts with the next request\n"))
        // A view at a moment before a reading was logged does not see it.
        let early = try home.json(["limits", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T09:30:00Z"))
        #expect(limit(early, "codex", "five_hour") == nil)
        #expect(windowWithoutCost(early) == .array([.object([
            "tool": .string("claude-code"), "start": .string("2026-03-10T09:00:00.000Z"), "end": .string("2026-03-10T14:00:00.000Z"),
            "tokens": .number(90), "endFromLimit": .number(0), "tokensPerHour": .number(180),
        ])]))
        #expect(windowCost(early) == 0.0004734, "the 09:40 request's quarter-hour began before the view's moment")
    }

    @Test func anEmptyStoreHasNoReadings() throws {
        let home = try Home(records: [], codex: false)
        let output = try home.run(["limits", "--tz", "UTC"], environment: clock("2026-03-10T11:30:00Z"))
        #expect(output.status == 0)
        #expect(output.stdout == "limits at 11:30 (UTC): no plan-limit readings and no 5-hour window in progress\n")
    }
}
