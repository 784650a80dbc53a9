import XCTest

@testable import UnpromptKit

/// `count + pace × min(now − measuredAt, 180 s)`, pinned.
final class LiveEstimateTests: XCTestCase {
    let measuredAt: Int64 = 1_767_268_800_000  // 2026-01-01T12:00:00Z
    let dayStart: Int64 = 1_767_225_600_000  // that day's midnight, UTC

    var estimate: LiveEstimate { LiveEstimate(count: 1000, pace: 2.5, measuredAt: measuredAt) }

    func reading(_ seconds: Int64, dayStart: Int64? = nil) -> LiveEstimate.Reading {
        estimate.reading(now: measuredAt + seconds * 1000, dayStart: dayStart ?? self.dayStart)
    }

    func testTheSameInputsGiveTheSameReading() {
        XCTAssertEqual(reading(42), reading(42))
        XCTAssertEqual(
            LiveEstimate(count: 7, pace: 0.3, measuredAt: 5).reading(now: 99_000, dayStart: 0),
            LiveEstimate(count: 7, pace: 0.3, measuredAt: 5).reading(now: 99_000, dayStart: 0))
    }

    func testTheEstimateGrowsAtThePaceForThreeMinutes() {
        XCTAssertEqual(reading(0), .init(tokens: 1000, live: true))
        XCTAssertEqual(reading(60), .init(tokens: 1150, live: true))
        XCTAssertEqual(reading(1), .init(tokens: 1002, live: true), "2.5 tokens, rounded down")
        XCTAssertEqual(reading(180), .init(tokens: 1450, live: true))
    }

    func testPastThreeMinutesTheCapHoldsAndTheReadingIsShownAsMeasured() {
        XCTAssertEqual(reading(181), .init(tokens: 1450, live: false))
        XCTAssertEqual(reading(3600), .init(tokens: 1450, live: false))
        XCTAssertEqual(reading(-30), .init(tokens: 1000, live: true), "a clock behind the measurement adds nothing")
    }

    func testMidnightStartsTheNewDayFromZero() {
        // Midnight 30 s after the measurement: the new day gets only what is extrapolated after it.
        let midnight = measuredAt + 30_000
        XCTAssertEqual(reading(20, dayStart: dayStart), .init(tokens: 1050, live: true), "still the old day")
        XCTAssertEqual(reading(90, dayStart: midnight), .init(tokens: 150, live: true))
        XCTAssertEqual(reading(600, dayStart: midnight), .init(tokens: 375, live: false), "150 s after midnight, capped")
        // Midnight long after the three minutes: nothing is extrapolated into the new day.
        XCTAssertEqual(reading(7200, dayStart: measuredAt + 3_600_000), .init(tokens: 0, live: false))
    }

    func testThePaceIsTheLastTwoQuarterHoursOverTheTimeTheyCover() {
        let quarter = CivilDate.floorDivide(measuredAt, Bucket.quarterMilliseconds)
        func row(_ q: Int64, _ input: Int64) -> BucketRow {
            BucketRow(quarter: q, tool: "t", model: "m", counts: TokenCounts(input: input, output: input), events: 1)
        }
        let rows = [row(quarter - 2, 1_000_000), row(quarter - 1, 600), row(quarter, 300)]
        // measuredAt is the quarter's start: the window is the previous quarter-hour only, 900 s.
        XCTAssertEqual(LiveEstimate.pace(of: rows, measuredAt: measuredAt), 1800.0 / 900)
        // Five minutes into the quarter: 1,200 s.
        XCTAssertEqual(LiveEstimate.pace(of: rows, measuredAt: measuredAt + 300_000), 1800.0 / 1200)
        XCTAssertEqual(LiveEstimate.pace(of: [], measuredAt: measuredAt), 0)
    }
}
