import Foundation
import Testing
import UnpromptTestSupport

/// `limits` as a person runs it: Codex's windows with their countdowns, Claude's 5-hour window and its
/// limit-reached reset, and readings gone stale.
struct LimitsViewTests {
    typealias Record = ReportCommandTests.Record
    typealias Home = ReportCommandTests.Home

    func clock(_ instant: String) -> [String: String] { ["UNPROMPT_NOW": instant] }

    /// Claude requests at 09:10Z and 09:40Z on 2026-03-10 (the window 09:00 to 14:00), a limit-reached record at
    /// 11:00Z saying it resets at 13:00Z; a Codex reading at 10:00Z: primary 12% of 300 minutes resetting at
    /// 12:30Z, secondary 40% of 10,080 minutes resetting on the 14th at 00:00Z.
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
        let primary = limit(json, "codex", "primary")
        #expect(primary?["usedPercent"] == .number(12))
        #expect(primary?["windowMinutes"] == .number(300))
        #expect(primary?["resetsAt"] == .string("2026-03-10T12:30:00.000Z"))
        #expect(primary?["resetsInSeconds"] == .number(3600))
        #expect(primary?["ageSeconds"] == .number(5400))
        #expect(primary?["stale"] == .number(0))
        let secondary = limit(json, "codex", "secondary")
        #expect(secondary?["resetsInSeconds"] == .number(Double(3 * 86_400 + 12 * 3600 + 30 * 60)))
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
            claude-code
              5-hour window: 90 tokens ($0.0005 at API list prices) so far, 14:30 to 18:30 (ends in 1h 30m, the reset logged with a limit-reached record)
                pace since 14:30: 36 tokens an hour
              limit reached at 16:30; resets at 18:30, in 1h 30m
            codex
              primary: 12.0% used of a 5-hour window; resets at 18:00, in 1h; logged 1h 30m ago
                pace since 13:00: 4.8% an hour, 50% of the window's time passed; at this pace used up at 2026-03-11 09:50, after the reset
              secondary: 40.0% used of a 7-day window; resets at 2026-03-14 05:30, in 3d 12h; logged 1h 30m ago
                pace since 2026-03-07 05:30: 0.488% an hour, 49% of the window's time passed; at this pace used up at 2026-03-15 18:30, after the reset

            """)
    }

    @Test func aReadingOlderThanItsWindowIsShownAsStaleWithItsAge() throws {
        let home = try home()
        _ = try home.run(["limits"], environment: clock("2026-03-10T11:30:00Z"))
        // 15:30Z: the primary reading is 5 h 30 min old, older than its 5 hours; the secondary is not.
        let json = try home.json(["limits", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T15:30:00Z"))
        #expect(limit(json, "codex", "primary")?["stale"] == .number(1))
        #expect(limit(json, "codex", "primary")?["ageSeconds"] == .number(19_800))
        #expect(limit(json, "codex", "secondary")?["stale"] == .number(0))
        #expect(limit(json, "claude-code", "limit_reached")?["stale"] == .number(0), "4 h 30 min old")
        #expect(limit(json, "claude-code", "limit_reached")?["resetPassed"] == .number(1))
        #expect(json["fiveHourWindows"] == .array([]), "the window ended at its reset and nothing was asked since")
        let text = try home.run(["limits", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T15:30:00Z"))
        #expect(text.stdout.contains("  primary: 12.0% used of a 5-hour window; stale: logged 5h 30m ago, longer ago than its window lasts\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  limit reached at 11:00; reset at 13:00, 2h 30m ago; no reading since\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  5-hour window: none in progress; the next starts with the next request\n"))
        // A view at a moment before a reading was logged does not see it.
        let early = try home.json(["limits", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T09:30:00Z"))
        #expect(limit(early, "codex", "primary") == nil)
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
