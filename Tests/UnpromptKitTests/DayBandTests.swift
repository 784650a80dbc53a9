import XCTest

@testable import UnpromptKit

/// The documented thresholds (DayBand): below 2/3 of the mean is less, up to 3/2 average, up to 3× more,
/// beyond that much more; exact at each boundary.
final class DayBandTests: XCTestCase {
    func band(_ tokens: Int64, _ previous: [Int64]) -> DayBand { DayBand.of(tokens: tokens, previousDays: previous) }

    func testEachThresholdIsExact() {
        // A mean of 300 per day, written two ways: one day of 300, or thirty days alternating 600 and 0.
        let alternating = (0..<30).map { $0 % 2 == 0 ? Int64(600) : 0 }
        for previous in [[Int64(300)], alternating] {
            XCTAssertEqual(band(0, previous), .zero)
            XCTAssertEqual(band(1, previous), .less)
            XCTAssertEqual(band(199, previous), .less)
            XCTAssertEqual(band(200, previous), .average, "2/3 of the mean")
            XCTAssertEqual(band(300, previous), .average)
            XCTAssertEqual(band(450, previous), .average, "3/2 of the mean")
            XCTAssertEqual(band(451, previous), .more)
            XCTAssertEqual(band(900, previous), .more, "3× the mean")
            XCTAssertEqual(band(901, previous), .muchMore)
        }
    }

    func testDaysWithoutHistoryOrAfterIdleDays() {
        XCTAssertEqual(band(5_000_000, []), .average, "the first day is its own only reference")
        XCTAssertEqual(band(0, []), .zero)
        XCTAssertEqual(band(1, [0, 0, 0]), .muchMore, "any use after days of none")
        XCTAssertEqual(band(0, [0, 0, 0]), .zero)
    }

    func testLargeCountsDoNotOverflow() {
        let heavy: Int64 = 40_000_000_000  // 40 billion tokens a day, thirty days
        XCTAssertEqual(band(heavy, Array(repeating: heavy, count: 30)), .average)
        XCTAssertEqual(band(heavy * 4, Array(repeating: heavy, count: 30)), .muchMore)
    }

    func testBandNamesAreStableIds() {
        XCTAssertEqual(DayBand.allCases.map(\.rawValue), ["zero", "less", "average", "more", "much-more"])
    }
}
