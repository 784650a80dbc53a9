import Foundation
import Testing
import UnpromptKit

/// Days, weeks and months as keys of local days (`LocalCalendar.Period`), and buckets grouped by week in a zone
/// with clock changes.
struct CalendarPeriodTests {
    func day(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 { CivilDate.day(year: year, month: month, day: day)! }

    /// The quarter-hour starting at this UTC time.
    func quarter(_ year: Int64, _ month: Int64, _ dayOfMonth: Int64, _ hour: Int64, _ minute: Int64) -> Int64 {
        day(year, month, dayOfMonth) * 96 + hour * 4 + minute / 15
    }

    @Test func aWeekIsKeyedByItsFirstDay() {
        let monday = LocalCalendar.Period.week(.monday)
        let sunday = LocalCalendar.Period.week(.sunday)
        // 2026-03-08 is a Sunday, 2026-03-09 a Monday.
        #expect(monday.key(ofDay: day(2026, 3, 8)) == day(2026, 3, 2))
        #expect(monday.key(ofDay: day(2026, 3, 9)) == day(2026, 3, 9))
        #expect(monday.key(ofDay: day(2026, 3, 15)) == day(2026, 3, 9))
        #expect(sunday.key(ofDay: day(2026, 3, 8)) == day(2026, 3, 8))
        #expect(sunday.key(ofDay: day(2026, 3, 14)) == day(2026, 3, 8))
        // Across a year's end and before 1970.
        #expect(monday.key(ofDay: day(2026, 1, 1)) == day(2025, 12, 29))
        #expect(monday.key(ofDay: day(1969, 12, 31)) == day(1969, 12, 29))
        #expect(monday.lastDay(ofKey: day(2026, 3, 9)) == day(2026, 3, 15))
        #expect(monday.key(day(2026, 3, 9), advancedBy: -2) == day(2026, 2, 23))
        #expect(LocalCalendar.Period.month.key(ofDay: day(2026, 3, 9)) == 2026 * 12 + 2)
        #expect(LocalCalendar.Period.month.firstDay(ofKey: 2026 * 12 + 1) == day(2026, 2, 1))
        #expect(LocalCalendar.Period.month.lastDay(ofKey: 2024 * 12 + 1) == day(2024, 2, 29))
        #expect(LocalCalendar.WeekStart.sunday.weekdays == [6, 0, 1, 2, 3, 4, 5])
    }

    @Test func bucketsGroupIntoLocalWeeksAcrossAClockChange() {
        let berlin = LocalCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        func row(_ quarter: Int64, _ input: Int64) -> BucketRow {
            BucketRow(quarter: quarter, tool: "t", model: "m", counts: TokenCounts(input: input), events: 1)
        }
        // Sunday 2026-03-29 is 23 hours long in Berlin. 21:45Z is 23:45 that Sunday; 22:15Z is 00:15 on Monday
        // the 30th. In UTC both are on the Sunday.
        let rows = [
            row(quarter(2026, 3, 23, 8, 0), 1), row(quarter(2026, 3, 29, 0, 45), 2), row(quarter(2026, 3, 29, 21, 45), 4),
            row(quarter(2026, 3, 29, 22, 15), 8),
        ]
        let weeks = berlin.group(rows, by: .week(.monday))
        #expect(weeks.map(\.period) == [day(2026, 3, 23), day(2026, 3, 30)])
        #expect(weeks.map(\.total.counts.input) == [7, 8])
        let utc = LocalCalendar(timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc.group(rows, by: .week(.monday)).map(\.total.counts.input) == [15])
        // Weeks from Sunday: 00:45Z on the 29th is 01:45 on Sunday in Berlin, the first day of its week.
        #expect(berlin.group(rows, by: .week(.sunday)).map(\.total.counts.input) == [1, 14])
    }
}
