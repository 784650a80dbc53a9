import Foundation
import Testing
import UnpromptTestSupport

/// `today` as a person runs it, with the clock pinned by `UNPROMPT_NOW`: the live estimate, uses, and the
/// work and personal split.
struct TodayViewTests {
    typealias Record = ReportCommandTests.Record
    typealias Home = ReportCommandTests.Home

    func clock(_ instant: String) -> [String: String] { ["UNPROMPT_NOW": instant] }

    func lines(_ output: Binary.Output) -> [String] { output.stdout.split(separator: "\n").map(String.init) }

    /// 150 tokens at 09:50Z and 15 at 10:02Z on 2026-03-10, scanned at 10:05Z: the pace is 165 tokens over
    /// 09:45 to 10:05 (1,200 s), 0.1375 a second.
    @Test func theEstimateGrowsAtThePaceForThreeMinutesThenIsShownAsMeasured() throws {
        let home = try Home(
            records: [
                Record.claude("P", "2026-03-10T09:50:00.000Z", "claude-sonnet-4-5", 10),
                Record.claude("Q", "2026-03-10T10:02:00.000Z", "claude-sonnet-4-5", 1),
            ], codex: false)
        let scanned = try home.json(["today", "--tz", "UTC"], environment: clock("2026-03-10T10:05:00Z"))
        #expect(scanned["tokens"] == .number(165))
        #expect(scanned["measuredAt"] == .string("2026-03-10T10:05:00.000Z"))
        #expect(scanned["pace"] == .number(0.1375))
        #expect(scanned["estimate"] == .object(["tokens": .number(165), "live": .number(1)]))

        // A minute later, without a scan: 165 + 0.1375 × 60 = 173.25, rounded down.
        let minute = try home.json(["today", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T10:06:00Z"))
        #expect(minute["estimate"] == .object(["tokens": .number(173), "live": .number(1)]))
        #expect(minute["tokens"] == .number(165), "the measured count does not move")
        let minuteText = try home.run(["today", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T10:06:00Z"))
        // 11 units of Sonnet 4.5 at $78.90 per million units (see ReportCommandTests): $0.0008679.
        #expect(lines(minuteText).first?.hasPrefix("1 use today · ≈ 173 tokens · $0.0009 · water ") == true, "\(minuteText.stdout)")
        #expect(
            lines(minuteText).dropFirst().first
                == "  Tue 2026-03-10 (UTC) · live: 165 tokens in 2 events measured at 10:05:00, then 8 a minute", "\(minuteText.stdout)")

        // Ten minutes later: capped at three minutes (165 + 24.75), and shown as measured at 10:05.
        let later = try home.json(["today", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T10:15:00Z"))
        #expect(later["estimate"] == .object(["tokens": .number(189), "live": .number(0)]))
        let laterText = try home.run(["today", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T10:15:00Z"))
        #expect(lines(laterText).first?.hasPrefix("1 use today · ≈ 189 tokens · $0.0009 · ") == true, "\(laterText.stdout)")
        #expect(
            lines(laterText).dropFirst().first
                == "  Tue 2026-03-10 (UTC) · measured at 10:05: 165 tokens in 2 events, then 8 a minute for at most 3 minutes")

        // Past midnight the new day starts from zero, and nothing is extrapolated into it this long after.
        let tomorrow = try home.json(["today", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-11T00:01:00Z"))
        #expect(tomorrow["date"] == .string("2026-03-11"))
        #expect(tomorrow["tokens"] == .number(0))
        #expect(tomorrow["estimate"] == .object(["tokens": .number(0), "live": .number(0)]))
        #expect(tomorrow["measuredAt"] == .string("2026-03-10T10:05:00.000Z"))
        let tomorrowText = try home.run(["today", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-11T00:01:00Z"))
        #expect(tomorrowText.stdout == "no usage recorded today, Wed 2026-03-11 (UTC)\n")

        // A view at a moment before the measurement does not use it.
        let before = try home.json(["today", "--tz", "UTC", "--no-scan"], environment: clock("2026-03-10T10:04:00Z"))
        #expect(before["measuredAt"] == .null)
        #expect(before["estimate"] == .object(["tokens": .number(165), "live": .number(0)]))

        // A scan moves the measurement: the same estimate as the count again.
        let rescanned = try home.json(["today", "--tz", "UTC"], environment: clock("2026-03-10T10:20:00Z"))
        #expect(rescanned["measuredAt"] == .string("2026-03-10T10:20:00.000Z"))
        #expect(rescanned["estimate"] == .object(["tokens": .number(165), "live": .number(1)]))
    }

    /// Monday 2026-01-05: 15 tokens at 08:30Z, 30 at 09:15Z (the same use), 60 at 12:00Z (a new use, 2 h 45 min
    /// later) and 120 at 18:10Z (another); work hours Mon-Fri 09:00-18:00.
    @Test func usesAndTokensSplitIntoWorkAndPersonalInTheViewsZone() throws {
        let home = try Home(
            records: [
                Record.claude("A", "2026-01-05T08:30:00.000Z", "claude-sonnet-4-5", 1),
                Record.claude("B", "2026-01-05T09:15:00.000Z", "claude-sonnet-4-5", 2),
                Record.claude("C", "2026-01-05T12:00:00.000Z", "claude-sonnet-4-5", 4),
                Record.claude("D", "2026-01-05T18:10:00.000Z", "claude-sonnet-4-5", 8),
            ], codex: false)
        let settings = ["--config", home.root + "/settings/config.yaml"]
        let set = try home.run(["config", "set", "work-hours", "Mon-Fri 09:00-18:00"] + settings)
        #expect(set.status == 0, "\(set.stderr)")

        let utc = try home.json(["today", "--tz", "UTC"] + settings, environment: clock("2026-01-05T20:00:00Z"))
        #expect(utc["uses"] == .number(3))
        #expect(utc["work"] == .object(["tokens": .number(90), "uses": .number(1)]))
        #expect(utc["personal"] == .object(["tokens": .number(135), "uses": .number(2)]))
        #expect(utc["workHours"] == .string("Mon-Fri 09:00-18:00"))
        let text = lines(try home.run(["today", "--tz", "UTC", "--no-scan"] + settings, environment: clock("2026-01-05T20:00:00Z")))
        #expect(text.first?.hasPrefix("3 uses today (personal 2, work 1) · 225 tokens · $") == true, "\(text)")
        #expect(text.count > 2 && text[2] == "  tokens: work 90, personal 135 (work hours Mon-Fri 09:00-18:00)", "\(text)")

        // In Kolkata (+05:30) the same records are 14:00, 14:45, 17:30 and 23:40: the first three are work.
        let kolkata = try home.json(
            ["today", "--tz", "Asia/Kolkata", "--no-scan"] + settings, environment: clock("2026-01-05T18:20:00Z"))
        #expect(kolkata["work"] == .object(["tokens": .number(105), "uses": .number(2)]))
        #expect(kolkata["personal"] == .object(["tokens": .number(120), "uses": .number(1)]))

        // daily splits every day the same way.
        let daily = try home.json(["daily", "--tz", "Asia/Kolkata", "--no-scan"] + settings)
        guard case .array(let days)? = daily["daily"], days.count == 1 else {
            Issue.record("daily: \(daily)")
            return
        }
        #expect(days[0]["uses"] == .number(3))
        #expect(days[0]["work"] == kolkata["work"] && days[0]["personal"] == kolkata["personal"])
        let chosen = try home.json(["daily", "--tz", "Asia/Kolkata", "--no-scan", "--tool", "claude-code"] + settings)
        if case .array(let days)? = chosen["daily"] {
            #expect(days.first?["uses"] == nil, "uses are of all tools, so a view of chosen tools leaves them out")
        }
        let dailyText = try home.run(["daily", "--tz", "Asia/Kolkata", "--no-scan"] + settings)
        #expect(dailyText.stdout.contains("uses") && dailyText.stdout.contains("work"), "\(dailyText.stdout)")

        // Without work hours, every use is personal and no work line is printed.
        let plain = try home.run(["today", "--tz", "UTC", "--no-scan", "--config", home.root + "/none.yaml"], environment: clock("2026-01-05T20:00:00Z"))
        #expect(lines(plain).first?.hasPrefix("3 uses today · 225 tokens · $") == true, "\(plain.stdout)")
        #expect(!plain.stdout.contains("work"))
    }

    /// Today's cost and water are those of today's records only, in the view's zone: records just before and
    /// after the local day (which the store query reaches, since any zone's day fits in its bounds) are left out.
    @Test func todaysCostIsOfTodaysRecordsOnly() throws {
        let home = try Home(
            records: [
                Record.claude("Y", "2026-03-09T18:20:00.000Z", "claude-sonnet-4-5", 100),  // 23:50 the day before, in +05:30
                Record.claude("T", "2026-03-09T18:40:00.000Z", "claude-sonnet-4-5", 1),  // 00:10 today
                Record.claude("N", "2026-03-10T18:40:00.000Z", "claude-sonnet-4-5", 100),  // 00:10 the day after
            ], codex: false)
        let today = try home.json(["today", "--tz", "Asia/Kolkata"], environment: clock("2026-03-10T06:00:00Z"))
        #expect(today["tokens"] == .number(15))
        // One unit of Sonnet 4.5: $3 + 2 × $15 + 3 × $0.30 + 4 × $3.75 + 5 × $6 = $78.90 per million.
        if case .number(let usd)? = today["cost"]?["usd"] { #expect(abs(usd - 0.0000789) < 1e-12, "\(usd)") } else {
            Issue.record("no cost: \(today)")
        }
        let daily = try home.json(["daily", "--tz", "Asia/Kolkata", "--since", "2026-03-10", "--until", "2026-03-10", "--no-scan"])
        guard case .array(let days)? = daily["daily"], let day = days.first else {
            Issue.record("daily has no day: \(daily)")
            return
        }
        #expect(day["cost"] == today["cost"] && day["water"] == today["water"], "today's readings equal daily's for the day")
    }

    @Test func aBadClockIsAUsageError() throws {
        let home = try Home(records: [], codex: false)
        let output = try home.run(["today"], environment: clock("yesterday"))
        #expect(output.status == 2)
        #expect(output.stderr.contains("UNPROMPT_NOW: expected an ISO-8601 instant"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.store))
        let extra = try home.run(["today", "extra"])
        #expect(extra.status == 2)
        #expect(extra.stderr.contains("today takes no argument 'extra'"))
    }
}
