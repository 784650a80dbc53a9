import Foundation
import Testing
import UnpromptTestSupport

/// `calendar` as a person runs it: the grid, its bands against the 30 days before each day, letters or
/// colors, and days in any zone without a rescan.
struct CalendarViewTests {
    typealias Record = ReportCommandTests.Record
    typealias Home = ReportCommandTests.Home

    func clock(_ instant: String) -> [String: String] { ["UNPROMPT_NOW": instant] }

    /// February 2026 (the 1st is a Sunday), history beginning on Monday the 2nd. Each record of unit u is
    /// 15u tokens. The bands, worked out by hand from the thresholds (2/3, 3/2 and 3 times the mean):
    /// - 2nd, 300: the first day, no history before it: average;
    /// - 3rd, 150: mean 300, under 200: less;
    /// - 4th, none: zero;
    /// - 5th, 300: mean 150 (300, 150, 0), twice it: more;
    /// - 6th, 1,500: mean 187.5, eight times it: much more;
    /// - 7th, 450: mean 450 (2,250 over 5 days): average;
    /// - 8th (today), 1,050,000: mean 450: much more. The 9th and later are still to come.
    static let february = [
        Record.claude("D2", "2026-02-02T12:00:00.000Z", "claude-sonnet-4-5", 20),
        Record.claude("D3", "2026-02-03T12:00:00.000Z", "claude-sonnet-4-5", 10),
        Record.claude("D5", "2026-02-05T12:00:00.000Z", "claude-sonnet-4-5", 20),
        Record.claude("D6", "2026-02-06T12:00:00.000Z", "claude-opus-4-5", 100),
        Record.claude("D7", "2026-02-07T12:00:00.000Z", "claude-sonnet-4-5", 30),
        Record.claude("D8", "2026-02-08T09:00:00.000Z", "claude-sonnet-4-5", 70_000),
    ]

    @Test func everyDayCarriesItsTokensAndItsBand() throws {
        let home = try Home(records: Self.february, codex: false)
        let now = clock("2026-02-08T12:00:00Z")
        let json = try home.json(["calendar", "--tz", "UTC"], environment: now)
        #expect(json["month"] == .string("2026-02"))
        guard case .array(let days)? = json["days"] else {
            Issue.record("no days: \(json)")
            return
        }
        #expect(days.map { $0["date"] } == (1...8).map { .string("2026-02-0\($0)") }, "the month up to today")
        #expect(days.map { $0["tokens"] } == [0, 300, 150, 0, 300, 1500, 450, 1_050_000].map { .number($0) })
        #expect(days.map { $0["band"] } == ["zero", "average", "less", "zero", "more", "much-more", "average", "much-more"].map { .string($0) })
        #expect(days.map { $0["baseline"] } == [.null, .null, .number(300), .number(225), .number(150), .number(187.5), .number(450), .number(450)])
        #expect(days.map { $0["uses"] } == [0, 1, 1, 0, 1, 1, 1, 1].map { .number($0) })

        // Without a terminal: letters, and the legend.
        let text = try home.run(["calendar", "--tz", "UTC", "--no-scan"], environment: now)
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "February 2026 (UTC): tokens per day, each compared with the mean of the 30 days before it")
        #expect(lines.count > 5)
        #expect(lines[1] == "   Mon      Tue      Wed      Thu      Fri      Sat      Sun")
        #expect(lines[2] == String(repeating: " ", count: 59) + "1")
        #expect(lines[3] == String(repeating: " ", count: 59) + "0 Z")
        #expect(lines[4] == "     2        3        4        5        6        7        8")
        #expect(lines[5] == ["   300 A ", "   150 L ", "     0 Z ", "   300 M ", "  1.5k M+", "   450 A ", "  1.0M M+"].joined())
        #expect(lines[6] == "     9       10       11       12       13       14       15")
        #expect(lines[7] == "", "days to come carry nothing")
        #expect(text.stdout.contains("Z zero · L less (under 2/3 of the mean) · A average (2/3 to 3/2 of it) · M more (to 3 times it) · M+ much more (over 3 times)"))
        #expect(text.stdout.hasSuffix("total: 1,052,700 tokens, 6 uses\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("\u{1B}"), "no escape sequences without a terminal")
        for word in ["goal", "target", "budget", "limit"] { #expect(!text.stdout.lowercased().contains(word)) }

        // A past month: every day; before history began, zero.
        let january = try home.json(["calendar", "--month", "2026-01", "--tz", "UTC", "--no-scan"], environment: now)
        if case .array(let januaryDays)? = january["days"] {
            #expect(januaryDays.count == 31)
            #expect(januaryDays.allSatisfy { $0["band"] == .string("zero") && $0["tokens"] == .number(0) })
        } else {
            Issue.record("\(january)")
        }
    }

    @Test func onATerminalBandsAreColorsUnlessNoColorIsSet() throws {
        let home = try Home(records: Self.february, codex: false)
        let now = clock("2026-02-08T12:00:00Z")
        _ = try home.run(["calendar"], environment: now)
        let colored = try home.onATerminal(["calendar", "--tz", "UTC", "--no-scan"], environment: now)
        // One shade per band; the number in it, no letter.
        #expect(colored.contains("\u{1B}[38;5;16;48;5;111m   300\u{1B}[0m"), "\(colored)")
        #expect(colored.contains("\u{1B}[38;5;231;48;5;25m  1.5k\u{1B}[0m"))
        #expect(!colored.contains("300 A"))
        let plain = try home.onATerminal(["calendar", "--tz", "UTC", "--no-scan"], environment: now.merging(["NO_COLOR": "1"]) { $1 })
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.contains("   300 A    150 L "))
    }

    @Test func aFirstDayWithNoHistoryIsAverage() throws {
        let home = try Home(records: [Record.claude("F", "2026-04-20T08:00:00.000Z", "claude-sonnet-4-5", 3)], codex: false)
        let now = clock("2026-04-20T09:00:00Z")
        let calendar = try home.json(["calendar", "--tz", "UTC"], environment: now)
        guard case .array(let days)? = calendar["days"], let last = days.last else {
            Issue.record("\(calendar)")
            return
        }
        #expect(days.count == 20)
        #expect(last["band"] == .string("average"))
        #expect(last["baseline"] == .null)
        #expect(days.dropLast().allSatisfy { $0["band"] == .string("zero") })
        #expect(try home.json(["today", "--tz", "UTC", "--no-scan"], environment: now)["band"] == .string("average"))
        // An empty store, or none at all: every day zero.
        let empty = try Home(records: [], codex: false)
        let none = try empty.json(["calendar", "--tz", "UTC", "--no-scan"], environment: now)
        if case .array(let noDays)? = none["days"] {
            #expect(noDays.count == 20 && noDays.allSatisfy { $0["band"] == .string("zero") })
        }
    }

    /// New York's 25-hour day (2024-11-03) holds both of its records; in UTC they are two days.
    @Test func aDaylightSavingDayIsOneDay() throws {
        let home = try Home(codex: false)
        let now = clock("2024-11-30T12:00:00Z")
        func days(_ zone: String) throws -> [JSONTree] {
            let json = try home.json(["calendar", "--month", "2024-11", "--tz", zone], environment: now)
            if case .array(let days)? = json["days"] { return days }
            return []
        }
        let newYork = try days("America/New_York")
        #expect(newYork.count == 30)
        #expect(newYork.count > 3 && newYork[2]["tokens"] == .number(16_500_000) && newYork[3]["tokens"] == .number(0))
        #expect(newYork.count > 3 && newYork[2]["uses"] == .number(2), "00:30 EDT and 23:30 EST are 24 hours apart")
        let utc = try days("UTC")
        #expect(utc.count > 3 && utc[2]["tokens"] == .number(1_500_000) && utc[3]["tokens"] == .number(15_000_000))
    }

    /// Another zone regroups the same buckets and activity: nothing is read again, nothing counts twice, and
    /// each use lands on the local day of its start.
    @Test func anotherZoneIsARegroupingNeverARescan() throws {
        let home = try Home()
        let now = clock("2026-02-28T12:00:00Z")
        _ = try home.run(["calendar"], environment: now)
        let before = try FileManager.default.attributesOfItem(atPath: home.store)
        func days(_ zone: String) throws -> [(String, Double, Double)] {
            var result: [(String, Double, Double)] = []
            for month in ["2026-01", "2026-02"] {
                let json = try home.json(["calendar", "--month", month, "--tz", zone, "--no-scan"], environment: now)
                guard case .array(let days)? = json["days"] else { continue }
                for day in days {
                    if case .string(let date)? = day["date"], case .number(let tokens)? = day["tokens"], case .number(let uses)? = day["uses"],
                        tokens > 0 || uses > 0
                    {
                        result.append((date, tokens, uses))
                    }
                }
            }
            return result
        }
        let utc = try days("UTC")
        let kathmandu = try days("Asia/Kathmandu")
        // A and B (18:20Z and 18:35Z on Jan 5) are one use, C (04:50Z Jan 6) another, D (23:55Z Jan 31) and the
        // Codex call ten minutes later a third.
        #expect(utc.map(\.0) == ["2026-01-05", "2026-01-06", "2026-01-31", "2026-02-01"])
        #expect(utc.map(\.2) == [1, 1, 1, 0])
        #expect(kathmandu.map(\.0) == ["2026-01-06", "2026-02-01"])
        #expect(kathmandu.map(\.2) == [2, 1])
        let total = ReportCommandTests.all
        let expected = Double(total.input + total.output + total.cacheRead + total.cacheWrite5m + total.cacheWrite1h)
            - Double(15 * (100_000 + 1_000_000))  // F and G, in 2024
        #expect(utc.reduce(0) { $0 + $1.1 } == expected)
        #expect(kathmandu.reduce(0) { $0 + $1.1 } == expected)
        let after = try FileManager.default.attributesOfItem(atPath: home.store)
        #expect(after[.size] as? Int == before[.size] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        let scan = try home.json([], environment: now)
        #expect(scan["scan"]?["unchanged"] == .number(2))
        #expect(scan["scan"]?["events"] == .number(0))
    }

    @Test func aBadMonthIsAUsageError() throws {
        let home = try Home(records: [], codex: false)
        for (month, message) in [("2026-13", "--month: expected a month YYYY-MM, got '2026-13'"), ("2026-1", "got '2026-1'"), ("May", "got 'May'")] {
            let output = try home.run(["calendar", "--month", month])
            #expect(output.status == 2)
            #expect(output.stderr.contains(message), "\(output.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.store))
    }
}
