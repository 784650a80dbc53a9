import Foundation
import XCTest
@testable import UnpromptKit
import UnpromptTestSupport

final class TimeParsingTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!
    let newYork = TimeZone(identifier: "America/New_York")!

    func iso(_ text: String) -> Int64? { TimeParsing.iso8601(text) }

    /// 2024-01-02T03:04:05Z, worked out by hand: 19724 days, then 3h 4m 5s.
    let base: Int64 = (19724 * 86_400 + 3 * 3600 + 4 * 60 + 5) * 1000

    // MARK: ISO 8601

    func testUTCWithZ() {
        XCTAssertEqual(iso("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(iso("2024-01-02T03:04:05Z"), base)
        XCTAssertEqual(iso("2024-01-02T03:04:05Z"), 1_704_164_645_000)
        XCTAssertEqual(iso("2024-01-02t03:04:05z"), base, "lowercase t and z are accepted")
    }

    func testFractionalSeconds() {
        XCTAssertEqual(iso("2024-01-02T03:04:05.123Z"), base + 123)
        XCTAssertEqual(iso("2024-01-02T03:04:05.1Z"), base + 100)
        XCTAssertEqual(iso("2024-01-02T03:04:05.12Z"), base + 120)
        XCTAssertEqual(iso("2024-01-02T03:04:05.123456789Z"), base + 123, "digits past milliseconds are dropped")
        XCTAssertEqual(iso("2024-01-02T03:04:05,5Z"), base + 500, "a comma is a decimal separator too")
        XCTAssertNil(iso("2024-01-02T03:04:05.Z"), "a separator needs digits")
    }

    func testOffsets() {
        XCTAssertEqual(iso("2024-01-02T08:34:05+05:30"), base)
        XCTAssertEqual(iso("2024-01-01T19:04:05-08:00"), base)
        XCTAssertEqual(iso("2024-01-02T08:34:05+0530"), base, "the colon in the offset is optional")
        XCTAssertEqual(iso("2024-01-02T03:04:05.250+00:00"), base + 250)
        XCTAssertEqual(iso("2024-01-01T19:04:05.007-08:00"), base + 7)
    }

    func testWithoutSeconds() {
        XCTAssertEqual(iso("2024-01-02T03:04Z"), base - 5000)
        XCTAssertEqual(iso("2024-01-02T08:34+05:30"), base - 5000)
    }

    func testSpaceInsteadOfT() {
        XCTAssertEqual(iso("2024-01-02 03:04:05Z"), base)
        XCTAssertEqual(iso("2024-01-02 03:04:05.123+00:00"), base + 123)
    }

    func testInvalid() {
        XCTAssertNil(iso("2024-13-02T03:04:05Z"), "month 13")
        XCTAssertNil(iso("2024-00-02T03:04:05Z"), "month 0")
        XCTAssertNil(iso("2024-01-00T03:04:05Z"), "day 0")
        XCTAssertNil(iso("2024-01-32T03:04:05Z"), "day 32")
        XCTAssertNil(iso("2024-01-02T24:00:00Z"), "hour 24")
        XCTAssertNil(iso("2024-01-02T03:60:00Z"), "minute 60")
        XCTAssertNil(iso("2024-01-02T03:04:05"), "no zone: not an instant")
        XCTAssertNil(iso("2024-01-02T03:04"), "no zone and no seconds")
        XCTAssertNil(iso("2024-01-02"), "a date alone")
        XCTAssertNil(iso(""))
        XCTAssertNil(iso("2024-01-02X03:04:05Z"))
        XCTAssertNil(iso("2024/01/02T03:04:05Z"))
        XCTAssertNil(iso("2024-01-02T03:04:5Z"))
        XCTAssertNil(iso("2024-01-02T03:04:05Zjunk"))
        XCTAssertNil(iso("2024-01-02T03:04:05+05"), "an offset needs minutes")
        XCTAssertNil(iso("2024-01-02T03:04:05 UTC"))
        XCTAssertNil(iso("24-01-02T03:04:05Z"))
        XCTAssertNil(iso("2O24-01-02T03:04:05Z"), "a letter O is not a digit")
    }

    func testLeapSecondRollsOver() {
        XCTAssertEqual(iso("2016-12-31T23:59:60Z"), iso("2017-01-01T00:00:00Z"))
        XCTAssertNil(iso("2016-12-31T23:59:61Z"))
    }

    // MARK: Through milliseconds(_:format:timeZone:)

    func ms(_ value: FieldValue, _ format: TimeFormat, _ zone: TimeZone? = nil) -> Int64? {
        TimeParsing.milliseconds(value, format: format, timeZone: zone ?? utc)
    }

    func testISOFormatReadsText() {
        XCTAssertEqual(ms(.text("2024-01-02T03:04:05Z"), .iso8601), base)
        XCTAssertNil(ms(.integer(1_704_164_645), .iso8601), "a number is not ISO text")
    }

    func testEpochSeconds() {
        XCTAssertEqual(ms(.integer(1_704_164_645), .epochSeconds), base)
        XCTAssertEqual(ms(.number(1_704_164_645.25), .epochSeconds), base + 250)
        XCTAssertEqual(ms(.number(1.25), .epochSeconds), 1250)
        XCTAssertEqual(ms(.number(0.0006), .epochSeconds), 1, "rounded to the nearest millisecond")
        XCTAssertEqual(ms(.text("1704164645"), .epochSeconds), base, "decimal strings are read")
        XCTAssertEqual(ms(.integer(0), .epochSeconds), 0)
        XCTAssertNil(ms(.integer(-1), .epochSeconds))
        XCTAssertNil(ms(.integer(1_704_164_645_000), .epochSeconds), "milliseconds given as seconds are refused")
        XCTAssertNil(ms(.text("soon"), .epochSeconds))
        XCTAssertNil(ms(.text("inf"), .epochSeconds))
        XCTAssertNil(ms(.bool(true), .epochSeconds))
        XCTAssertNil(ms(.null, .epochSeconds))
    }

    func testEpochMilliseconds() {
        XCTAssertEqual(ms(.integer(1_704_164_645_123), .epochMilliseconds), base + 123)
        XCTAssertEqual(ms(.number(1_704_164_645_123.6), .epochMilliseconds), base + 124)
        XCTAssertEqual(ms(.text("1704164645123"), .epochMilliseconds), base + 123)
        XCTAssertNil(ms(.integer(-5), .epochMilliseconds))
        XCTAssertNil(ms(.number(1e14), .epochMilliseconds))
    }

    // MARK: Local wall-clock time

    func testLocalInUTCAndFixedZones() {
        XCTAssertEqual(ms(.text("2024-01-02 03:04:05"), .local), base)
        XCTAssertEqual(ms(.text("2024-01-02T03:04:05"), .local), base)
        XCTAssertEqual(ms(.text("2024-01-02 08:34:05"), .local, TimeZone(identifier: "Asia/Kolkata")!), base)
        XCTAssertEqual(ms(.text("2024-01-01 22:04:05"), .local, newYork), base, "EST is UTC-5 in January")
        XCTAssertEqual(ms(.text("2024-07-01 12:00:00"), .local, newYork), 1_719_849_600_000, "EDT is UTC-4 in July")
    }

    func testLocalRejectsOtherShapes() {
        XCTAssertNil(ms(.text("2024-01-02 03:04"), .local))
        XCTAssertNil(ms(.text("2024-01-02 03:04:05Z"), .local))
        XCTAssertNil(ms(.text("2024-01-02 03:04:05.123"), .local))
        XCTAssertNil(ms(.text("2024-13-02 03:04:05"), .local))
        XCTAssertNil(ms(.text("2024-01-02 25:04:05"), .local))
    }

    /// 2024-03-10 in New York: 02:00 EST jumps to 03:00 EDT, so 02:30 never happens on the wall.
    /// It is read with the offset before the change (EST), i.e. moved forward by the gap: 07:30Z = 03:30 EDT.
    func testNewYorkSpringForwardGap() {
        XCTAssertEqual(ms(.text("2024-03-10 02:30:00"), .local, newYork), 1_710_055_800_000)  // 07:30Z
        XCTAssertEqual(ms(.text("2024-03-10 01:59:59"), .local, newYork), 1_710_053_999_000)  // 06:59:59Z, EST
        XCTAssertEqual(ms(.text("2024-03-10 03:00:00"), .local, newYork), 1_710_054_000_000)  // 07:00Z, EDT
    }

    /// 2024-11-03 in New York: 02:00 EDT falls back to 01:00 EST, so 01:30 happens twice
    /// (05:30Z in EDT, 06:30Z in EST). The earlier offset, EDT, wins: 05:30Z.
    func testNewYorkFallBackOverlap() {
        XCTAssertEqual(ms(.text("2024-11-03 01:30:00"), .local, newYork), 1_730_611_800_000)  // 05:30Z
        XCTAssertEqual(ms(.text("2024-11-03 00:59:59"), .local, newYork), 1_730_609_999_000)  // 04:59:59Z, EDT
        XCTAssertEqual(ms(.text("2024-11-03 02:00:00"), .local, newYork), 1_730_617_200_000)  // 07:00Z, EST
    }

    /// The same rules east of UTC: Berlin's 2024-10-27 02:30 happens twice (00:30Z in CEST, 01:30Z in
    /// CET) and the first wins; 2024-03-31 02:30 never happens and moves forward to 03:30 CEST = 01:30Z.
    func testBerlinOverlapAndGapFollowTheSameRules() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        XCTAssertEqual(ms(.text("2024-10-27 02:30:00"), .local, berlin), 1_729_989_000_000)  // 00:30Z
        XCTAssertEqual(ms(.text("2024-03-31 02:30:00"), .local, berlin), 1_711_848_600_000)  // 01:30Z
        XCTAssertEqual(ms(.text("2024-07-01 12:00:00"), .local, berlin), 1_719_828_000_000)  // 10:00Z
    }

    /// India has no DST and a half-hour offset: +05:30 all year.
    func testHalfHourZoneWithoutDST() {
        let kolkata = TimeZone(identifier: "Asia/Kolkata")!
        XCTAssertEqual(ms(.text("2024-01-01 05:30:00"), .local, kolkata), 1_704_067_200_000)  // 00:00Z
    }

    func testImpossibleDatesAreRejected() {
        XCTAssertNil(TimeParsing.iso8601("2024-02-30T00:00:00Z"))
        XCTAssertNil(TimeParsing.iso8601("2023-02-29T00:00:00Z"))
        XCTAssertNil(TimeParsing.iso8601("2024-04-31T00:00:00Z"))
        XCTAssertNotNil(TimeParsing.iso8601("2024-02-29T00:00:00Z"))
        XCTAssertNotNil(TimeParsing.iso8601("2000-02-29T00:00:00Z"))
        XCTAssertNil(TimeParsing.iso8601("1900-02-29T00:00:00Z"))
        XCTAssertNil(ms(.text("2024-06-31 10:00:00"), .local))
    }

    func testLocalIsDeterministic() {
        let first = ms(.text("2024-11-03 01:30:00"), .local, newYork)
        for _ in 0..<3 { XCTAssertEqual(ms(.text("2024-11-03 01:30:00"), .local, newYork), first) }
    }

    // MARK: Calendar arithmetic

    func testDaysFromCivil() {
        XCTAssertEqual(CivilDate.day(year: 1970, month: 1, day: 1), 0)
        XCTAssertEqual(CivilDate.day(year: 1970, month: 1, day: 2), 1)
        XCTAssertEqual(CivilDate.day(year: 1969, month: 12, day: 31), -1)
        XCTAssertEqual(CivilDate.day(year: 2000, month: 1, day: 1), 10_957)
        XCTAssertEqual(CivilDate.day(year: 2000, month: 2, day: 29), 11_016)
        XCTAssertEqual(CivilDate.day(year: 2000, month: 3, day: 1), 11_017)
        XCTAssertEqual(CivilDate.day(year: 2024, month: 1, day: 1), 19_723)
        XCTAssertEqual(CivilDate.day(year: 2024, month: 2, day: 29), 19_782)
        XCTAssertEqual(CivilDate.day(year: 2024, month: 3, day: 1), 19_783)
        XCTAssertEqual(CivilDate.day(year: 1900, month: 3, day: 1), -25_508, "1900 is not a leap year")
        XCTAssertEqual(CivilDate.day(year: 1600, month: 1, day: 1), -135_140)
    }

    func testDaysFromCivilAgreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        var rng = SeededRandom(seed: 42)
        for _ in 0..<500 {
            let year = 1900 + Int(rng.next() % 300)
            let month = 1 + Int(rng.next() % 12)
            let day = 1 + Int(rng.next() % 28)
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day))!
            XCTAssertEqual(
                CivilDate.day(year: Int64(year), month: Int64(month), day: Int64(day)),
                Int64(date.timeIntervalSince1970 / 86_400), "\(year)-\(month)-\(day)")
        }
    }
}
