import Foundation
import XCTest

@testable import UnpromptKit

/// Days as the views show them: tokens and uses, split into work and personal, with bands.
final class DayReadingsTests: XCTestCase {
    let hour: Int64 = 3_600_000

    /// Milliseconds of a UTC time on a day number.
    func at(_ day: Int64, _ hours: Int64, _ minutes: Int64 = 0) -> Int64 { (day * 24 + hours) * hour + minutes * 60_000 }

    func readings(
        _ times: [(Int64, Int64)], zone: String = "UTC", workHours: String = "none", from: Int64, through: Int64,
        history: Int64? = nil
    ) throws -> [DayReading] {
        RecordTimes.days(
            times, zone: zone, schedule: WorkSchedule(base: try WorkHours.parse(workHours).get()), from: from, through: through,
            history: history)
    }

    let monday: Int64 = 20458  // 2026-01-05

    func testEveryDayIsPresentWithItsTokensUsesAndWorkShare() throws {
        let days = try readings(
            [
                (at(monday, 8, 30), 10),  // personal; starts a use
                (at(monday, 9, 15), 20),  // work, same use (45 min later)
                (at(monday, 12), 40),  // work; starts a use (2 h 45 min later)
                (at(monday, 18, 10), 80),  // personal; starts a use
                (at(monday + 2, 23, 50), 5),  // Wednesday night; its use runs past midnight
                (at(monday + 3, 1, 0), 7),
            ], workHours: "Mon-Fri 09:00-18:00", from: monday, through: monday + 3)
        XCTAssertEqual(days.map(\.day), [monday, monday + 1, monday + 2, monday + 3])
        XCTAssertEqual(days.map(\.tokens), [150, 0, 5, 7])
        XCTAssertEqual(days.map(\.workTokens), [60, 0, 0, 0])
        XCTAssertEqual(days[0].personalTokens, 90)
        XCTAssertEqual(days.map(\.uses), [3, 0, 1, 0], "the use crossing midnight belongs to its start")
        XCTAssertEqual(days.map(\.workUses), [1, 0, 0, 0])
        XCTAssertEqual(days[0].personalUses, 2)
    }

    func testAUseContinuedFromTheDayBeforeIsNotCountedAgain() throws {
        let days = try readings([(at(monday, 23, 30), 1), (at(monday + 1, 1, 0), 1), (at(monday + 1, 4, 0), 1)], from: monday + 1, through: monday + 1)
        XCTAssertEqual(days.map(\.uses), [1], "01:00 continues Monday's use; 04:00 starts one")
    }

    func testANightWorkersShiftCountsAsWorkOnBothSidesOfMidnight() throws {
        let days = try readings(
            [(at(monday, 23), 10), (at(monday + 1, 3), 20), (at(monday + 1, 7), 40)], workHours: "Mon-Fri 22:00-06:00",
            from: monday, through: monday + 1)
        XCTAssertEqual(days.map(\.workTokens), [10, 20])
        XCTAssertEqual(days.map(\.tokens), [10, 60])
        XCTAssertEqual(days.map(\.uses), [1, 2], "23:00, 03:00 and 07:00 are four hours apart")
        XCTAssertEqual(days.map(\.workUses), [1, 1], "the 03:00 use starts inside Monday's shift, the 07:00 one after it")
    }

    /// A 23-hour day (Paris, 2026-03-29) holds the usage of its 23 hours, and the days around it theirs.
    func testADaylightSavingDayHoldsItsOwnHours() throws {
        let sunday: Int64 = 20541
        // 22:30Z Saturday is 23:30 CET Saturday; 22:30Z Sunday is 00:30 CEST Monday.
        let days = try readings(
            [(at(sunday - 1, 22, 30), 1), (at(sunday - 1, 23, 0), 10), (at(sunday, 21, 45), 100), (at(sunday, 22, 0), 1000)],
            zone: "Europe/Paris", workHours: "Sun 00:00-24:00", from: sunday - 1, through: sunday + 1)
        XCTAssertEqual(days.map(\.tokens), [1, 110, 1000])
        XCTAssertEqual(days.map(\.workTokens), [0, 110, 0])
    }

    func testBandsCompareWithTheDaysSinceHistoryBegan() throws {
        // History begins on day 0 of this test with 300 tokens; the next days compare with it.
        let first = monday
        let days = try readings(
            [(at(first, 12), 300), (at(first + 1, 12), 150), (at(first + 2, 12), 1000)], from: first - 1, through: first + 3)
        XCTAssertEqual(days.map(\.band), [.zero, .average, .less, .muchMore, .zero])
        XCTAssertEqual(days.map(\.baseline), [nil, nil, 300, 225, Double(1450) / 3])
        // Thirty days of 100, then a day of 250: more; and the day 31 days later compares with 30 days only.
        var times = (0..<30).map { (at(first + Int64($0), 12), Int64(100)) }
        times.append((at(first + 30, 12), 250))
        let later = try readings(times, from: first + 30, through: first + 31)
        XCTAssertEqual(later.map(\.band), [.more, .zero])
        XCTAssertEqual(later.map(\.baseline), [100, Double(29 * 100 + 250) / 30])
    }
}
