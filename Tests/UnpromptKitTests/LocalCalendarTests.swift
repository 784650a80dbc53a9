import Foundation
import XCTest

@testable import UnpromptKit

final class LocalCalendarTests: XCTestCase {
    func zone(_ id: String) -> LocalCalendar { LocalCalendar(timeZone: TimeZone(identifier: id)!) }

    /// The quarter that starts at this UTC time.
    func q(_ year: Int64, _ month: Int64, _ day: Int64, _ hour: Int64, _ minute: Int64) -> Int64 {
        CivilDate.day(year: year, month: month, day: day)! * 96 + hour * 4 + minute / 15
    }

    func date(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 { CivilDate.day(year: year, month: month, day: day)! }

    /// How many quarters of `[from, to)` each local day gets.
    func quartersPerDay(_ calendar: LocalCalendar, _ range: Range<Int64>) -> [Int64: Int] {
        var result: [Int64: Int] = [:]
        for quarter in range { result[calendar.day(ofQuarter: quarter), default: 0] += 1 }
        return result
    }

    func row(_ quarter: Int64, tool: String = "claude-code", model: String = "m", input: Int64, events: Int64 = 1) -> BucketRow {
        BucketRow(quarter: quarter, tool: tool, model: model, counts: TokenCounts(input: input, output: input * 2), events: events)
    }

    // MARK: civil dates

    func testCivilDatesRoundTrip() {
        XCTAssertEqual(CivilDate.day(year: 1970, month: 1, day: 1), 0)
        XCTAssertEqual(CivilDate.day(year: 2026, month: 1, day: 5), 20_458)
        XCTAssertEqual(CivilDate.day(year: 1969, month: 12, day: 31), -1)
        XCTAssertEqual(CivilDate.dateString(ofDay: 20_458), "2026-01-05")
        XCTAssertEqual(CivilDate.dateString(ofDay: -1), "1969-12-31")
        for day in Int64(-800)...Int64(30_000) {
            let civil = CivilDate.civil(ofDay: day)
            XCTAssertEqual(CivilDate.day(year: civil.year, month: civil.month, day: civil.day), day)
        }
        XCTAssertNil(CivilDate.day(year: 2023, month: 2, day: 29))
        XCTAssertEqual(CivilDate.dateString(ofDay: date(2024, 2, 29)), "2024-02-29")
        XCTAssertNil(CivilDate.day(year: 2100, month: 2, day: 29))
        XCTAssertNotNil(CivilDate.day(year: 2000, month: 2, day: 29))
        XCTAssertNil(CivilDate.day(year: 2026, month: 4, day: 31))
        XCTAssertNil(CivilDate.day(year: 2026, month: 13, day: 1))
        XCTAssertNil(CivilDate.day(year: 2026, month: 0, day: 1))
        XCTAssertNil(CivilDate.day(year: 2026, month: 1, day: 0))
    }

    func testMonthNumbers() {
        let january = CivilDate.month(ofDay: date(2026, 1, 31))
        XCTAssertEqual(january, 2026 * 12)
        XCTAssertEqual(CivilDate.monthString(ofMonth: january), "2026-01")
        XCTAssertEqual(CivilDate.monthString(ofMonth: january - 1), "2025-12")
        XCTAssertEqual(CivilDate.firstDay(ofMonth: january + 1), date(2026, 2, 1))
        XCTAssertEqual(CivilDate.lastDay(ofMonth: january + 1), date(2026, 2, 28))
        XCTAssertEqual(CivilDate.lastDay(ofMonth: 2024 * 12 + 1), date(2024, 2, 29))
        XCTAssertEqual(CivilDate.lastDay(ofMonth: 2025 * 12 + 11), date(2025, 12, 31))
    }

    // MARK: quarter → local day

    func testUTC() {
        let utc = zone("UTC")
        XCTAssertEqual(utc.day(ofQuarter: q(2026, 1, 5, 0, 0)), date(2026, 1, 5))
        XCTAssertEqual(utc.day(ofQuarter: q(2026, 1, 5, 23, 45)), date(2026, 1, 5))
        XCTAssertEqual(utc.day(ofQuarter: q(2026, 1, 6, 0, 0)), date(2026, 1, 6))
        XCTAssertEqual(utc.day(ofQuarter: -1), -1, "the quarter before 1970 is on 1969-12-31")
        XCTAssertEqual(quartersPerDay(utc, q(2026, 1, 5, 0, 0)..<q(2026, 1, 7, 0, 0)), [date(2026, 1, 5): 96, date(2026, 1, 6): 96])
    }

    /// India, +05:30: local midnight is 18:30 UTC the day before.
    func testKolkata() {
        let kolkata = zone("Asia/Kolkata")
        XCTAssertEqual(kolkata.offsetSeconds(atQuarter: q(2026, 1, 5, 12, 0)), 19_800)
        XCTAssertEqual(kolkata.day(ofQuarter: q(2026, 1, 5, 18, 15)), date(2026, 1, 5))
        XCTAssertEqual(kolkata.day(ofQuarter: q(2026, 1, 5, 18, 30)), date(2026, 1, 6))
        XCTAssertEqual(kolkata.day(ofQuarter: q(2026, 1, 5, 0, 0)), date(2026, 1, 5))
        XCTAssertEqual(kolkata.day(ofQuarter: q(2026, 1, 4, 18, 30)), date(2026, 1, 5))
        XCTAssertEqual(kolkata.day(ofQuarter: q(2026, 1, 4, 18, 15)), date(2026, 1, 4))
        let counts = quartersPerDay(kolkata, q(2026, 1, 4, 18, 30)..<q(2026, 1, 6, 18, 30))
        XCTAssertEqual(counts, [date(2026, 1, 5): 96, date(2026, 1, 6): 96])
    }

    /// Nepal, +05:45: local midnight is 18:15 UTC the day before, still a quarter boundary.
    func testKathmandu() {
        let kathmandu = zone("Asia/Kathmandu")
        XCTAssertEqual(kathmandu.offsetSeconds(atQuarter: q(2026, 1, 5, 12, 0)), 20_700)
        XCTAssertEqual(kathmandu.day(ofQuarter: q(2026, 1, 5, 18, 0)), date(2026, 1, 5))
        XCTAssertEqual(kathmandu.day(ofQuarter: q(2026, 1, 5, 18, 15)), date(2026, 1, 6))
        let counts = quartersPerDay(kathmandu, q(2026, 1, 4, 18, 15)..<q(2026, 1, 6, 18, 15))
        XCTAssertEqual(counts, [date(2026, 1, 5): 96, date(2026, 1, 6): 96])
    }

    /// Newfoundland, −03:30 in winter and −02:30 in summer.
    func testStJohns() {
        let stJohns = zone("America/St_Johns")
        XCTAssertEqual(stJohns.offsetSeconds(atQuarter: q(2026, 1, 5, 12, 0)), -12_600)
        XCTAssertEqual(stJohns.day(ofQuarter: q(2026, 1, 6, 3, 15)), date(2026, 1, 5))
        XCTAssertEqual(stJohns.day(ofQuarter: q(2026, 1, 6, 3, 30)), date(2026, 1, 6))
        XCTAssertEqual(stJohns.day(ofQuarter: q(2026, 7, 6, 2, 15)), date(2026, 7, 5))
        XCTAssertEqual(stJohns.day(ofQuarter: q(2026, 7, 6, 2, 30)), date(2026, 7, 6))
        XCTAssertEqual(quartersPerDay(stJohns, q(2026, 1, 5, 3, 30)..<q(2026, 1, 6, 3, 30)), [date(2026, 1, 5): 96])
    }

    /// New York's DST days: 2024-03-10 is 23 hours (92 quarters), 2024-11-03 is 25 hours (100 quarters).
    func testNewYorkDSTDays() {
        let newYork = zone("America/New_York")
        let spring = quartersPerDay(newYork, q(2024, 3, 9, 0, 0)..<q(2024, 3, 13, 0, 0))
        XCTAssertEqual(spring[date(2024, 3, 10)], 92)
        XCTAssertEqual(spring[date(2024, 3, 11)], 96)
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 3, 10, 4, 45)), date(2024, 3, 9))
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 3, 10, 5, 0)), date(2024, 3, 10), "midnight EST")
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 3, 11, 3, 45)), date(2024, 3, 10))
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 3, 11, 4, 0)), date(2024, 3, 11), "midnight EDT")

        let autumn = quartersPerDay(newYork, q(2024, 11, 2, 0, 0)..<q(2024, 11, 5, 0, 0))
        XCTAssertEqual(autumn[date(2024, 11, 3)], 100)
        XCTAssertEqual(autumn[date(2024, 11, 2)], 96)
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 11, 3, 3, 45)), date(2024, 11, 2))
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 11, 3, 4, 0)), date(2024, 11, 3), "midnight EDT")
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 11, 4, 4, 45)), date(2024, 11, 3))
        XCTAssertEqual(newYork.day(ofQuarter: q(2024, 11, 4, 5, 0)), date(2024, 11, 4), "midnight EST")
    }

    func testMonthBoundaries() {
        let kolkata = zone("Asia/Kolkata")
        XCTAssertEqual(kolkata.month(ofQuarter: q(2026, 1, 31, 18, 15)), 2026 * 12)
        XCTAssertEqual(kolkata.month(ofQuarter: q(2026, 1, 31, 18, 30)), 2026 * 12 + 1)
        let newYork = zone("America/New_York")
        XCTAssertEqual(newYork.month(ofQuarter: q(2025, 1, 1, 4, 45)), 2024 * 12 + 11, "still 2024-12-31 in New York")
        XCTAssertEqual(newYork.month(ofQuarter: q(2025, 1, 1, 5, 0)), 2025 * 12)
        let utc = zone("UTC")
        XCTAssertEqual(utc.month(ofQuarter: q(2024, 2, 29, 23, 45)), 2024 * 12 + 1)
        XCTAssertEqual(utc.month(ofQuarter: q(2024, 3, 1, 0, 0)), 2024 * 12 + 2)
    }

    /// Every offset is a multiple of 15 minutes and clocks change on quarter-hour instants, so a bucket's
    /// first and last second are on the same local day, in every zone this tests, on every quarter of 2024
    /// (standard time, summer time and both changes).
    func testEveryBucketLiesWithinOneLocalDay() {
        let zones = [
            "UTC", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns", "America/New_York", "Pacific/Chatham",
            "Australia/Lord_Howe", "Europe/London", "America/Sao_Paulo", "Pacific/Kiritimati",
        ]
        for id in zones {
            let timeZone = TimeZone(identifier: id)!
            let calendar = LocalCalendar(timeZone: timeZone)
            var mismatches = 0
            for quarter in q(2024, 1, 1, 0, 0)..<q(2025, 1, 1, 0, 0) {
                let last = quarter * 900 + 899
                let lastDay = CivilDate.floorDivide(
                    last + Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(last)))), 86_400)
                if lastDay != calendar.day(ofQuarter: quarter) { mismatches += 1 }
                XCTAssertEqual(calendar.offsetSeconds(atQuarter: quarter) % 900, 0, "\(id) at quarter \(quarter)")
            }
            XCTAssertEqual(mismatches, 0, "\(id): buckets split between two local days")
        }
    }

    // MARK: grouping

    func testGroupingSumsPerDayToolAndModel() {
        let kathmandu = zone("Asia/Kathmandu")
        let rows = [
            row(q(2026, 1, 5, 18, 0), input: 1),  // 23:45 local, Jan 5
            row(q(2026, 1, 5, 18, 15), input: 10),  // 00:00 local, Jan 6
            row(q(2026, 1, 5, 18, 15), tool: "codex", model: "gpt-5", input: 100, events: 2),
            row(q(2026, 1, 6, 3, 0), model: "n", input: 1000),
            row(q(2026, 1, 6, 4, 0), model: "zero", input: 0, events: 0),
        ]
        let days = kathmandu.group(rows, by: .day)
        XCTAssertEqual(days.map(\.period), [date(2026, 1, 5), date(2026, 1, 6)])
        XCTAssertEqual(days[0].total, UsageCell(counts: TokenCounts(input: 1, output: 2), events: 1))
        XCTAssertEqual(days[1].total, UsageCell(counts: TokenCounts(input: 1110, output: 2220), events: 4))
        XCTAssertEqual(days[1].byTool["claude-code"]?["m"], UsageCell(counts: TokenCounts(input: 10, output: 20), events: 1))
        XCTAssertEqual(days[1].byTool["claude-code"]?["n"], UsageCell(counts: TokenCounts(input: 1000, output: 2000), events: 1))
        XCTAssertNil(days[1].byTool["claude-code"]?["zero"], "an empty cell is left out")
        XCTAssertEqual(days[1].total(ofTool: "codex"), UsageCell(counts: TokenCounts(input: 100, output: 200), events: 2))
        XCTAssertEqual(Set(days[1].byModel.keys), ["m", "n", "gpt-5"])

        let utcDays = zone("UTC").group(rows, by: .day)
        XCTAssertEqual(utcDays.map(\.period), [date(2026, 1, 5), date(2026, 1, 6)])
        XCTAssertEqual(utcDays[0].total.events, 4)

        let filtered = kathmandu.group(rows, by: .day, fromDay: date(2026, 1, 6), throughDay: date(2026, 1, 6))
        XCTAssertEqual(filtered.map(\.period), [date(2026, 1, 6)])
        XCTAssertEqual(kathmandu.group(rows, by: .day, throughDay: date(2026, 1, 5)).map(\.total.events), [1])
        XCTAssertEqual(kathmandu.group([], by: .day), [])
    }

    func testGroupingByMonth() {
        let kolkata = zone("Asia/Kolkata")
        let rows = [
            row(q(2026, 1, 31, 18, 15), input: 1),  // 23:45 Jan 31 local
            row(q(2026, 1, 31, 18, 30), input: 10),  // 00:00 Feb 1 local
            row(q(2026, 2, 28, 18, 15), input: 100),  // 23:45 Feb 28 local
        ]
        let months = kolkata.group(rows, by: .month)
        XCTAssertEqual(months.map(\.period), [2026 * 12, 2026 * 12 + 1])
        XCTAssertEqual(months.map(\.total.counts.input), [1, 110])
        let utcMonths = zone("UTC").group(rows, by: .month)
        XCTAssertEqual(utcMonths.map(\.total.counts.input), [11, 100])
    }

    /// Another zone is another grouping of the same buckets: over a range holding all the data, the days
    /// sum to the same grand total in every zone, DST included, and each zone counts every bucket once.
    func testDailyTotalsSumToTheSameGrandTotalInEveryZone() {
        var rows: [BucketRow] = []
        var quarter = q(2024, 3, 8, 0, 0)
        var n: Int64 = 1
        while quarter < q(2024, 3, 13, 0, 0) {
            rows.append(row(quarter, model: n % 3 == 0 ? "a" : "b", input: n, events: n % 4 + 1))
            quarter += 1 + n % 7
            n += 1
        }
        let expected = rows.reduce(UsageCell()) { sum, row in
            var sum = sum
            sum += UsageCell(counts: row.counts, events: row.events)
            return sum
        }
        var perZoneDays: [String: Int] = [:]
        for id in ["UTC", "Asia/Kathmandu", "America/New_York", "America/St_Johns", "Pacific/Kiritimati"] {
            let days = zone(id).group(rows, by: .day)
            var sum = UsageCell()
            for day in days { sum += day.total }
            XCTAssertEqual(sum, expected, id)
            perZoneDays[id] = days.count
        }
        XCTAssertEqual(perZoneDays["UTC"], 5)
        XCTAssertEqual(perZoneDays["Asia/Kathmandu"], 6, "five UTC days span six local days")
        XCTAssertEqual(perZoneDays["America/New_York"], 6)
    }

    func testQuarterBoundsHoldEveryZone() {
        let bounds = LocalCalendar.quarterBounds(fromDay: date(2026, 1, 5), throughDay: date(2026, 1, 5))
        for id in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu", "UTC"] {
            let calendar = zone(id)
            for quarter in q(2026, 1, 1, 0, 0)..<q(2026, 1, 10, 0, 0) where calendar.day(ofQuarter: quarter) == date(2026, 1, 5) {
                XCTAssertTrue(bounds.contains(quarter), "\(id) quarter \(quarter)")
            }
        }
        XCTAssertEqual(LocalCalendar.quarterBounds(fromDay: nil, throughDay: nil), Int64.min..<Int64.max)
    }

    func testTodayFromMilliseconds() {
        let kathmandu = zone("Asia/Kathmandu")
        let midnight = (q(2026, 1, 5, 18, 15)) * 900_000
        XCTAssertEqual(kathmandu.day(ofMilliseconds: midnight - 1), date(2026, 1, 5))
        XCTAssertEqual(kathmandu.day(ofMilliseconds: midnight), date(2026, 1, 6))
        XCTAssertEqual(zone("UTC").day(ofMilliseconds: -1), -1)
    }

    // MARK: where a day starts

    func testADayStartsAtItsFirstQuarterHourInEveryZone() {
        let q = { (day: Int64, hour: Int64, minute: Int64) in day * 96 + hour * 4 + minute / 15 }
        let jan5 = date(2026, 1, 5)
        XCTAssertEqual(zone("UTC").firstQuarter(ofDay: jan5), q(jan5, 0, 0))
        XCTAssertEqual(zone("Asia/Kathmandu").firstQuarter(ofDay: jan5), q(jan5 - 1, 18, 15))
        XCTAssertEqual(zone("Pacific/Kiritimati").firstQuarter(ofDay: jan5), q(jan5 - 1, 10, 0), "+14:00")
        XCTAssertEqual(zone("Pacific/Pago_Pago").firstQuarter(ofDay: jan5), q(jan5, 11, 0), "-11:00")
        // New York's 25-hour day and 23-hour day start at their local midnights.
        XCTAssertEqual(zone("America/New_York").firstQuarter(ofDay: date(2024, 11, 3)), q(date(2024, 11, 3), 4, 0))
        XCTAssertEqual(zone("America/New_York").firstQuarter(ofDay: date(2024, 11, 4)), q(date(2024, 11, 4), 5, 0))
        // Sao Paulo moved its clocks from 00:00 to 01:00 on 2018-11-04: that day began at 01:00 local, 03:00Z.
        XCTAssertEqual(zone("America/Sao_Paulo").firstQuarter(ofDay: date(2018, 11, 4)), q(date(2018, 11, 4), 3, 0))
    }
}
