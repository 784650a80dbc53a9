import Foundation
import Testing
import UnpromptKit

/// `--since`/`--until` values and `--last N` (`DateBound`, `ViewRange`): parsed, then resolved against the
/// local day of the clock, across month ends, leap years and clock changes.
struct DateBoundTests {
    func day(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 { CivilDate.day(year: year, month: month, day: day)! }

    func parse(_ text: String) -> Result<DateBound, DateBound.ParseError> {
        Result { () throws(DateBound.ParseError) in try DateBound.parse(text) }
    }

    /// The local day of an ISO-8601 instant in `zone`: today, as a view in that zone sees it.
    func today(_ instant: String, _ zone: String) -> Int64 {
        let date = ISO8601DateFormatter().date(from: instant)!
        return LocalCalendar(timeZone: TimeZone(identifier: zone)!).day(ofMilliseconds: Int64(date.timeIntervalSince1970 * 1000))
    }

    @Test func everyWritingParsesAndEveryMistakeIsNamed() {
        #expect(parse("today") == .success(.today))
        #expect(parse("yesterday") == .success(.yesterday))
        #expect(parse("7d") == .success(.daysAgo(7)))
        #expect(parse("4w") == .success(.weeksAgo(4)))
        #expect(parse("3m") == .success(.monthsAgo(3)))
        #expect(parse("10000d") == .success(.daysAgo(10_000)))
        #expect(parse("2026-03-01") == .success(.date(day(2026, 3, 1))))
        #expect(parse("2026-03") == .success(.month(2026 * 12 + 2)))
        for malformed in ["", "d", "7", "7x", "-7d", "+7d", "7 d", "7D", "Today", "2026-3-1", "2026-03-1", "26-03-01", "2026/03/01", "٣d"] {
            #expect(parse(malformed) == .failure(.malformed), "\(malformed)")
        }
        #expect(parse("0d") == .failure(.countOutOfRange))
        #expect(parse("10001w") == .failure(.countOutOfRange))
        #expect(parse("2023-02-29") == .failure(.notADate))
        #expect(parse("2026-04-31") == .failure(.notADate))
        #expect(parse("2026-13") == .failure(.notAMonth))
        #expect(parse("2026-00") == .failure(.notAMonth))
        #expect(Result { () throws(DateBound.ParseError) in try DateBound.count("0") } == .failure(.countOutOfRange))
        #expect(Result { () throws(DateBound.ParseError) in try DateBound.count("12") } == .success(12))
    }

    @Test func daysCountBackFromToday() {
        let today = day(2026, 3, 3)
        #expect(DateBound.today.day(today: today, end: false) == today)
        #expect(DateBound.yesterday.day(today: day(2026, 3, 1), end: false) == day(2026, 2, 28))
        #expect(DateBound.daysAgo(7).day(today: today, end: false) == day(2026, 2, 24))
        #expect(DateBound.weeksAgo(4).day(today: day(2026, 3, 1), end: true) == day(2026, 2, 1))
        #expect(DateBound.daysAgo(1).day(today: day(2026, 1, 1), end: false) == day(2025, 12, 31))
        // A month as a start is its first day, as an end its last.
        #expect(DateBound.month(2026 * 12 + 1).day(today: today, end: false) == day(2026, 2, 1))
        #expect(DateBound.month(2026 * 12 + 1).day(today: today, end: true) == day(2026, 2, 28))
        #expect(DateBound.month(2024 * 12 + 1).day(today: today, end: true) == day(2024, 2, 29))
    }

    @Test func monthsBackKeepTheDayOfTheMonthOrTakeTheShorterMonthsLast() {
        #expect(DateBound.monthsAgo(3).day(today: day(2026, 5, 31), end: false) == day(2026, 2, 28))
        #expect(DateBound.monthsAgo(3).day(today: day(2024, 5, 31), end: false) == day(2024, 2, 29))
        #expect(DateBound.monthsAgo(1).day(today: day(2026, 5, 31), end: false) == day(2026, 4, 30))
        #expect(DateBound.monthsAgo(1).day(today: day(2026, 3, 31), end: false) == day(2026, 2, 28))
        #expect(DateBound.monthsAgo(1).day(today: day(2026, 1, 15), end: false) == day(2025, 12, 15))
        #expect(DateBound.monthsAgo(14).day(today: day(2026, 3, 10), end: false) == day(2025, 1, 10))
        #expect(DateBound.monthsAgo(12).day(today: day(2028, 2, 29), end: false) == day(2027, 2, 28))
    }

    /// Today is the local day of the clock; a bound counts local days, never 24-hour spans, so a 23- or 25-hour
    /// day before it moves nothing.
    @Test func aClockChangeMovesNoBound() {
        // Berlin springs forward on 2026-03-29 (a 23-hour day). 00:30 on the 30th is 22:30Z on the 29th: 24
        // hours earlier is still the 28th in Berlin, yet yesterday is the 29th.
        let berlin = today("2026-03-29T22:30:00Z", "Europe/Berlin")
        #expect(berlin == day(2026, 3, 30))
        #expect(DateBound.yesterday.day(today: berlin, end: false) == day(2026, 3, 29))
        #expect(today("2026-03-28T22:30:00Z", "Europe/Berlin") == day(2026, 3, 28), "24 hours before")
        #expect(DateBound.daysAgo(7).day(today: berlin, end: false) == day(2026, 3, 23))
        // New York falls back on 2026-11-01 (a 25-hour day). 23:30 on the 1st is 04:30Z on the 2nd.
        let newYork = today("2026-11-02T04:30:00Z", "America/New_York")
        #expect(newYork == day(2026, 11, 1))
        #expect(DateBound.yesterday.day(today: newYork, end: false) == day(2026, 10, 31))
        #expect(DateBound.weeksAgo(1).day(today: newYork, end: false) == day(2026, 10, 25))
    }

    func range(
        since: DateBound? = nil, until: DateBound? = nil, last: Int64? = nil, _ period: LocalCalendar.Period, today: Int64
    ) -> Result<ViewRange, ViewRange.Problem> {
        Result { () throws(ViewRange.Problem) in try ViewRange.resolve(since: since, until: until, last: last, period: period, today: today) }
    }

    @Test func theLastPeriodsAreWholeAndEndWithTodays() {
        let tuesday = day(2026, 3, 10)
        #expect(range(last: 3, .day, today: tuesday) == .success(ViewRange(fromDay: day(2026, 3, 8), throughDay: tuesday)))
        #expect(range(last: 1, .day, today: tuesday) == .success(ViewRange(fromDay: tuesday, throughDay: tuesday)))
        #expect(range(last: 2, .week(.monday), today: tuesday) == .success(ViewRange(fromDay: day(2026, 3, 2), throughDay: day(2026, 3, 15))))
        #expect(range(last: 1, .week(.sunday), today: tuesday) == .success(ViewRange(fromDay: day(2026, 3, 8), throughDay: day(2026, 3, 14))))
        #expect(range(last: 3, .month, today: tuesday) == .success(ViewRange(fromDay: day(2026, 1, 1), throughDay: day(2026, 3, 31))))
        #expect(range(last: 2, .month, today: day(2026, 1, 15)) == .success(ViewRange(fromDay: day(2025, 12, 1), throughDay: day(2026, 1, 31))))
        // A week that holds Berlin's 23-hour day is still seven local days.
        #expect(range(last: 1, .week(.monday), today: day(2026, 3, 29)) == .success(ViewRange(fromDay: day(2026, 3, 23), throughDay: day(2026, 3, 29))))
        // With --until: the period holding its day, through that day.
        #expect(
            range(until: .date(day(2026, 2, 18)), last: 2, .week(.monday), today: tuesday)
                == .success(ViewRange(fromDay: day(2026, 2, 9), throughDay: day(2026, 2, 18))))
        #expect(range(until: .month(2026 * 12 + 1), last: 2, .month, today: tuesday) == .success(ViewRange(fromDay: day(2026, 1, 1), throughDay: day(2026, 2, 28))))
    }

    @Test func sinceAndUntilAreResolvedAndCheckedTogether() {
        let today = day(2026, 3, 10)
        #expect(range(since: .daysAgo(7), .day, today: today) == .success(ViewRange(fromDay: day(2026, 3, 3), throughDay: nil)))
        #expect(range(since: .month(2026 * 12 + 1), until: .yesterday, .month, today: today) == .success(ViewRange(fromDay: day(2026, 2, 1), throughDay: day(2026, 3, 9))))
        #expect(range(since: .today, until: .yesterday, .day, today: today) == .failure(.sinceAfterUntil))
        #expect(range(since: .today, last: 2, .day, today: today) == .failure(.lastWithSince))
        #expect(range(.day, today: today) == .success(ViewRange(fromDay: nil, throughDay: nil)))
    }

    @Test func aWeekStartsOnItsLocalesFirstDayElseMonday() {
        #expect(LocalCalendar.WeekStart.preferred(environment: ["LANG": "en_US.UTF-8"]) == .sunday)
        #expect(LocalCalendar.WeekStart.preferred(environment: ["LANG": "de_DE.UTF-8"]) == .monday)
        #expect(LocalCalendar.WeekStart.preferred(environment: ["LANG": "en_GB.UTF-8"]) == .monday)
        #expect(LocalCalendar.WeekStart.preferred(environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"]) == .monday)
        #expect(LocalCalendar.WeekStart.preferred(environment: ["LC_TIME": "en_US.UTF-8", "LANG": "de_DE.UTF-8"]) == .sunday)
        #expect(LocalCalendar.WeekStart.preferred(environment: ["LC_ALL": "", "LANG": "pt_BR@euro"]) == .sunday)
        for posix in ["C", "C.UTF-8", "POSIX", "en"] {
            #expect(LocalCalendar.WeekStart.preferred(environment: ["LANG": posix]) == .monday, "\(posix)")
        }
        #if os(Linux)
            #expect(LocalCalendar.WeekStart.preferred(environment: [:]) == .monday)
        #endif
    }
}
