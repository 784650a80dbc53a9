import Foundation
import XCTest

@testable import UnpromptKit

final class WorkHoursTests: XCTestCase {
    func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> WorkHours {
        switch WorkHours.parse(text) {
        case .success(let hours): return hours
        case .failure(let problem):
            XCTFail("'\(text)': \(problem)", file: file, line: line)
            return .none
        }
    }

    func problem(_ text: String) -> WorkHoursProblem? {
        if case .failure(let problem) = WorkHours.parse(text) { return problem }
        return nil
    }

    func range(_ start: Int, _ end: Int) -> WorkHours.Range { WorkHours.Range(start: start, end: end) }

    // MARK: the written form

    func testTheWrittenFormParsesIntoGroupsOfDaysAndRanges() {
        XCTAssertEqual(
            parse("Mon-Fri 09:00-18:00"), WorkHours(groups: [.init(days: [0, 1, 2, 3, 4], ranges: [range(540, 1080)])]))
        XCTAssertEqual(
            parse("Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00"),
            WorkHours(groups: [
                .init(days: [0, 1, 2, 3, 4], ranges: [range(540, 750), range(810, 1080)]),
                .init(days: [5], ranges: [range(600, 840)]),
            ]))
        // Commas list days and ranges; a day name after a range starts the next group; case and full names.
        XCTAssertEqual(
            parse("mon, Wednesday 9:00-12:00, 13:00-17:15, SAT 10:00-24:00"),
            WorkHours(groups: [
                .init(days: [0, 2], ranges: [range(540, 720), range(780, 1035)]),
                .init(days: [5], ranges: [range(600, 1440)]),
            ]))
        // A day range may wrap around the week; a range ending at 00:00 ends at the coming midnight.
        XCTAssertEqual(parse("Fri-Mon 20:00-00:00"), WorkHours(groups: [.init(days: [0, 4, 5, 6], ranges: [range(1200, 1440)])]))
        XCTAssertEqual(parse("none"), .none)
        XCTAssertEqual(parse("  Off "), .none)
    }

    func testTheDescriptionIsAWrittenFormThatParsesBackToTheSameHours() {
        for text in [
            "Mon-Fri 09:00-18:00", "Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00", "Sun-Thu 22:00-06:00",
            "Mon, Wed, Fri 08:15-16:45", "Sat, Sun 00:00-24:00", "none",
        ] {
            let hours = parse(text)
            XCTAssertEqual(hours.description, text)
            XCTAssertEqual(parse(hours.description), hours)
        }
        XCTAssertEqual(parse("fri-mon 20:00-00:00").description, "Fri-Mon 20:00-24:00")
        XCTAssertEqual(parse("Mon-Sun 09:00-10:00").description, "Mon-Sun 09:00-10:00")
    }

    func testMistakesArePointedAtWithTheirOffset() {
        let cases: [(String, Int, String)] = [
            ("Mon-Fry 09:00-18:00", 4, "unknown day 'Fry'"),
            ("Mon-Fri 9:10-18:00", 10, "'9:10' is not on a quarter-hour"),
            ("Mon-Fri 09:00-18:20", 17, "'18:20' is not on a quarter-hour"),
            ("Mon-Fri 25:00-18:00", 8, "'25:00' is not a time of day"),
            ("Mon 24:00-02:00", 4, "'24:00' is not a time of day"),
            ("Mon-Fri 0900-1800", 8, "expected a time HH:MM, found '0900'"),
            ("Mon-Fri 09:00", 8, "expected a range such as 09:00-18:00"),
            ("Mon-Fri", 7, "expected hours after the days"),
            ("Mon-Fri; Sat 10:00-12:00", 7, "expected hours after the days"),
            ("09:00-18:00", 0, "expected days such as Mon-Fri before the hours"),
            ("Mon 09:00-18:00 *", 16, "expected days such as Mon-Fri before the hours, found '*'"),
            ("Mon 09:00-09:00", 4, "is empty"),
            ("", 0, "expected days and hours"),
        ]
        for (text, offset, message) in cases {
            guard let found = problem(text) else {
                XCTFail("'\(text)' parsed")
                continue
            }
            XCTAssertEqual(found.offset, offset, "'\(text)': \(found.message)")
            XCTAssertTrue(found.message.contains(message), "'\(text)': \(found.message)")
        }
    }

    // MARK: which moments are work

    func testWeekdaysCountFromMonday() {
        XCTAssertEqual(WorkHours.weekday(ofDay: 0), 3, "1970-01-01 was a Thursday")
        XCTAssertEqual(WorkHours.weekday(ofDay: -1), 2, "1969-12-31 was a Wednesday")
        XCTAssertEqual(WorkHours.weekday(ofDay: 19723), 0, "2024-01-01 was a Monday")
        XCTAssertEqual(WorkHours.weekday(ofDay: 20541), 6, "2026-03-29 was a Sunday")
    }

    func testARangeIncludesItsStartAndNotItsEnd() {
        let hours = parse("Mon-Fri 09:00-18:00")
        XCTAssertFalse(hours.contains(weekday: 0, minute: 539))
        XCTAssertTrue(hours.contains(weekday: 0, minute: 540))
        XCTAssertTrue(hours.contains(weekday: 4, minute: 1079))
        XCTAssertFalse(hours.contains(weekday: 4, minute: 1080))
        XCTAssertFalse(hours.contains(weekday: 5, minute: 600), "Saturday is a day off")
        XCTAssertFalse(WorkHours.none.contains(weekday: 0, minute: 600))
        // A day may be in several groups: its ranges add up.
        let both = parse("Mon-Fri 09:00-17:00; Sun-Thu 22:00-02:00")
        XCTAssertTrue(both.contains(weekday: 0, minute: 60), "Monday 01:00, Sunday's night")
        XCTAssertTrue(both.contains(weekday: 0, minute: 600), "Monday 10:00")
        XCTAssertTrue(both.contains(weekday: 0, minute: 23 * 60), "Monday 23:00")
        XCTAssertFalse(both.contains(weekday: 0, minute: 20 * 60), "Monday 20:00")
    }

    /// A night shift belongs to the day it starts: Sunday to Thursday nights are Monday to Friday mornings.
    func testANightRangeRunsPastMidnightIntoTheNextDay() {
        let hours = parse("Sun-Thu 22:00-06:00")
        XCTAssertTrue(hours.contains(weekday: 6, minute: 23 * 60), "Sunday 23:00")
        XCTAssertTrue(hours.contains(weekday: 0, minute: 5 * 60 + 45), "Monday 05:45, Sunday's shift")
        XCTAssertFalse(hours.contains(weekday: 0, minute: 6 * 60), "Monday 06:00")
        XCTAssertTrue(hours.contains(weekday: 4, minute: 5 * 60), "Friday 05:00, Thursday's shift")
        XCTAssertFalse(hours.contains(weekday: 4, minute: 22 * 60), "Friday 22:00: no shift starts Friday")
        XCTAssertFalse(hours.contains(weekday: 5, minute: 5 * 60), "Saturday 05:00")
        XCTAssertFalse(hours.contains(weekday: 6, minute: 5 * 60), "Sunday 05:00: no shift started Saturday")
        XCTAssertFalse(hours.contains(weekday: 2, minute: 12 * 60), "Wednesday noon")
    }

    /// Quarter-hours since 1970 of a UTC time.
    func quarter(_ day: Int64, _ hour: Int64, _ minute: Int64 = 0) -> Int64 { day * 96 + hour * 4 + minute / 15 }

    func workQuarters(_ hours: WorkHours, _ zone: String, from: Int64, to: Int64) -> [Int64] {
        let calendar = LocalCalendar(timeZone: TimeZone(identifier: zone)!)
        return (from..<to).filter { hours.contains(quarter: $0, in: calendar) }
    }

    /// Work hours are wall-clock times in the person's zone, so a night that loses or gains an hour to a
    /// clock change holds fewer or more work quarter-hours.
    func testNightShiftsOverClockChangesFollowTheWallClock() {
        let shift = parse("Sat 22:00-06:00")
        // Paris, 2026-03-28/29 (day 20540/20541): 22:00 CET is 21:00Z; clocks go 02:00 → 03:00 at 01:00Z; 06:00
        // CEST is 04:00Z. Seven hours.
        let spring = workQuarters(shift, "Europe/Paris", from: quarter(20540, 12), to: quarter(20541, 12))
        XCTAssertEqual(spring.first, quarter(20540, 21))
        XCTAssertEqual(spring.last, quarter(20541, 3, 45))
        XCTAssertEqual(spring.count, 7 * 4)
        // 2026-10-24/25: 22:00 CEST is 20:00Z; clocks go 03:00 → 02:00 at 01:00Z; 06:00 CET is 05:00Z. Nine hours.
        let autumn = workQuarters(shift, "Europe/Paris", from: quarter(20750, 12), to: quarter(20751, 12))
        XCTAssertEqual(autumn.first, quarter(20750, 20))
        XCTAssertEqual(autumn.last, quarter(20751, 4, 45))
        XCTAssertEqual(autumn.count, 9 * 4)
        // In Kathmandu (+05:45) a quarter-hour range falls on whole buckets too: 09:00-09:30 is 03:15Z-03:45Z.
        let morning = workQuarters(parse("Mon 09:00-09:30"), "Asia/Kathmandu", from: quarter(20458, 0), to: quarter(20459, 0))
        XCTAssertEqual(morning, [quarter(20458, 3, 15), quarter(20458, 3, 30)])
    }
}
