import XCTest

@testable import UnpromptKit

/// Sums of counts never trap (`Int64.saturatingAdd`): a sum that would pass Int64.max stays there, and one that
/// reached it stays there when a record is taken away, since what it held is no longer known.
final class SaturatingSumTests: XCTestCase {
    let most = Int64.max

    func testInt64OverflowSumsHoldAtTheLargestCount() {
        XCTAssertEqual(Int64(2).saturatingAdd(3), 5)
        XCTAssertEqual((most - 1).saturatingAdd(5), most)
        XCTAssertEqual(most.saturatingAdd(-5), most, "a saturated sum stays saturated")
        XCTAssertEqual(most.saturatingSubtract(5), most)
        XCTAssertEqual(Int64.min.saturatingAdd(-1), .min)
        XCTAssertEqual(Int64(0).saturatingSubtract(most), -most)
        let huge = TokenCounts(input: 1 << 62, cacheRead: 1 << 62, output: 1 << 62)
        XCTAssertEqual((huge + huge + huge).input, most)
        XCTAssertEqual(huge.total, most)
        XCTAssertEqual((huge + huge - huge).input, most, "taking a record from a saturated sum leaves it there")
        var delta = BucketDelta()
        for _ in 0..<3 { delta += BucketDelta(TokenEvent(tool: "t", time: 0, model: "m", counts: huge, loggedCost: 8e9)) }
        XCTAssertEqual(delta.counts.output, most)
        XCTAssertEqual(delta.loggedCostNanos, most)
    }

    func testInt64OverflowEstimatesAndBandsOfSaturatedDays() {
        XCTAssertEqual(Int64(saturating: 1e30), most)
        XCTAssertEqual(Int64(saturating: -1e30), .min)
        XCTAssertEqual(Int64(saturating: .nan), 0)
        XCTAssertEqual(Int64(saturating: 41.9), 41)
        XCTAssertEqual(DayBand.of(tokens: most, previousDays: [most]), .average)
        XCTAssertEqual(DayBand.of(tokens: most, previousDays: [1, 1]), .muchMore)
        XCTAssertEqual(DayBand.of(tokens: 1, previousDays: [most]), .less)
        XCTAssertEqual(LiveEstimate.tokens(1e300, 1000), most)
    }
}
