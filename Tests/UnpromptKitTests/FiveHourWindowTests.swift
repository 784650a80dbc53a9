import XCTest

@testable import UnpromptKit

final class FiveHourWindowTests: XCTestCase {
    let day: Int64 = 20454  // 2026-01-01
    let hour: Int64 = 3_600_000

    func at(_ hours: Int64, _ minutes: Int64 = 0) -> Int64 { (day * 24 + hours) * hour + minutes * 60_000 }

    func row(_ hours: Int64, _ minutes: Int64, _ tokens: Int64) -> BucketRow {
        BucketRow(
            quarter: CivilDate.floorDivide(at(hours, minutes), Bucket.quarterMilliseconds), tool: "claude-code", model: "m",
            counts: TokenCounts(input: tokens), events: 1)
    }

    func testAWindowStartsAtTheHourOfTheFirstRequestAndLastsFiveHours() {
        let rows = [row(10, 20, 100), row(12, 5, 50)]
        XCTAssertEqual(
            FiveHourWindow.current(rows: rows, resets: [], now: at(13)),
            FiveHourWindow(start: at(10), end: at(15), tokens: 150, endFromLimit: false))
        XCTAssertNil(FiveHourWindow.current(rows: rows, resets: [], now: at(15)), "ended; the next starts with the next request")
        XCTAssertNil(FiveHourWindow.current(rows: [], resets: [], now: at(13)))
    }

    func testTheNextWindowStartsWithTheFirstRequestAfterTheLastOneEnded() {
        let rows = [row(10, 20, 100), row(14, 50, 10), row(15, 10, 7), row(17, 45, 1)]
        XCTAssertEqual(
            FiveHourWindow.current(rows: rows, resets: [], now: at(18)),
            FiveHourWindow(start: at(15), end: at(20), tokens: 8, endFromLimit: false))
        // Before 15:10 was logged, 14:50 was still in the first window.
        XCTAssertEqual(
            FiveHourWindow.current(rows: Array(rows.prefix(2)), resets: [], now: at(14, 55)),
            FiveHourWindow(start: at(10), end: at(15), tokens: 110, endFromLimit: false))
    }

    func testALimitReachedRecordGivesTheWindowsTrueEnd() {
        let rows = [row(10, 20, 100), row(13, 0, 5), row(14, 30, 9)]
        let resets = [(loggedAt: at(13, 1), resetsAt: at(14))]
        // The reset at 14:00 ends the window; the request at 14:30 starts the next one.
        XCTAssertEqual(
            FiveHourWindow.current(rows: Array(rows.prefix(2)), resets: resets, now: at(13, 30)),
            FiveHourWindow(start: at(10), end: at(14), tokens: 105, endFromLimit: true))
        XCTAssertEqual(
            FiveHourWindow.current(rows: rows, resets: resets, now: at(15)),
            FiveHourWindow(start: at(14), end: at(19), tokens: 9, endFromLimit: false))
        // A refused request is a request: it starts a window too, which ends at its reset.
        XCTAssertEqual(
            FiveHourWindow.current(rows: [row(9, 0, 4)], resets: [(loggedAt: at(14, 5), resetsAt: at(19))], now: at(14, 10)),
            FiveHourWindow(start: at(14), end: at(19), tokens: 0, endFromLimit: true))
        // A reset logged in a later window does not end an earlier one.
        XCTAssertEqual(
            FiveHourWindow.current(rows: [row(10, 20, 1)], resets: [(loggedAt: at(16), resetsAt: at(18))], now: at(12)),
            FiveHourWindow(start: at(10), end: at(15), tokens: 1, endFromLimit: false))
    }
}

final class LimitStatusTests: XCTestCase {
    func sample(time: Int64, window: Int64?, resetsAt: Int64?) -> LimitSample {
        LimitSample(tool: "codex", time: time, window: "primary", usedPercent: 42, windowMinutes: window, resetsAt: resetsAt)
    }

    func testAFreshReadingCountsDownToItsReset() {
        let status = LimitStatus(sample(time: 1_000_000, window: 300, resetsAt: 9_000_000), now: 2_000_000)
        XCTAssertEqual(status.age, 1_000_000)
        XCTAssertFalse(status.stale)
        XCTAssertEqual(status.resetsIn, 7_000_000)
        XCTAssertFalse(status.resetPassed)
    }

    func testAReadingOlderThanItsWindowIsStale() {
        let window: Int64 = 300 * 60_000
        XCTAssertFalse(LimitStatus(sample(time: 0, window: 300, resetsAt: nil), now: window).stale, "exactly its window")
        let stale = LimitStatus(sample(time: 0, window: 300, resetsAt: window / 2), now: window + 1)
        XCTAssertTrue(stale.stale)
        XCTAssertEqual(stale.age, window + 1)
        XCTAssertNil(stale.resetsIn)
        XCTAssertTrue(stale.resetPassed)
        // Without a window of its own, the tool's is used; with neither, age alone is known.
        XCTAssertTrue(LimitStatus(sample(time: 0, window: nil, resetsAt: nil), now: window + 1, fallbackWindowMinutes: 300).stale)
        XCTAssertFalse(LimitStatus(sample(time: 0, window: nil, resetsAt: nil), now: window * 10).stale)
    }
}
