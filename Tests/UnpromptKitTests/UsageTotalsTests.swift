import XCTest
@testable import UnpromptKit

final class UsageTotalsTests: XCTestCase {
    func event(_ counts: TokenCounts, model: String, time: Int64) -> TokenEvent {
        TokenEvent(tool: "t", time: time, model: model, counts: counts)
    }

    func testAddGroupsByModelAndUTCDay() {
        var t = UsageTotals()
        let day0 = event(TokenCounts(input: 1, cacheRead: 2, cacheWrite5m: 3, cacheWrite1h: 4, output: 5, reasoning: 1), model: "x", time: 86_399_999)
        let day1 = event(TokenCounts(input: 10, output: 20), model: "x", time: 86_400_000)
        let other = event(TokenCounts(output: 7), model: "y", time: 86_400_001)
        t.add(day0)
        t.add(day1)
        t.add(other)
        XCTAssertEqual(t.events, 3)
        XCTAssertEqual(t.total, TokenCounts(input: 11, cacheRead: 2, cacheWrite5m: 3, cacheWrite1h: 4, output: 32, reasoning: 1))
        XCTAssertEqual(t.total.total, 52, "reasoning is inside output, never added again")
        XCTAssertEqual(t.byModel, [
            "x": TokenCounts(input: 11, cacheRead: 2, cacheWrite5m: 3, cacheWrite1h: 4, output: 25, reasoning: 1),
            "y": TokenCounts(output: 7),
        ])
        XCTAssertEqual(t.byDay, [
            0: TokenCounts(input: 1, cacheRead: 2, cacheWrite5m: 3, cacheWrite1h: 4, output: 5, reasoning: 1),
            1: TokenCounts(input: 10, output: 27),
        ])
    }

    func testRemoveLeavesNoEmptyEntries() {
        var t = UsageTotals()
        let a = event(TokenCounts(input: 3), model: "a", time: 0)
        let b = event(TokenCounts(input: 4, output: 1), model: "b", time: 5 * 86_400_000)
        t.add(a)
        t.add(b)
        t.remove(Contribution(b))
        XCTAssertEqual(t.byModel, ["a": TokenCounts(input: 3)])
        XCTAssertEqual(t.byDay, [0: TokenCounts(input: 3)])
        XCTAssertEqual(t.events, 1)
        t.remove(Contribution(a))
        XCTAssertEqual(t, UsageTotals(), "adding then removing everything gives empty totals")
        XCTAssertTrue(t.byModel.isEmpty)
        XCTAssertTrue(t.byDay.isEmpty)
    }

    func testRemoveKeepsEntriesThatStillHoldCounts() {
        var t = UsageTotals()
        let a = event(TokenCounts(input: 3), model: "m", time: 0)
        let b = event(TokenCounts(input: 4), model: "m", time: 1000)
        t.add(a)
        t.add(b)
        t.remove(Contribution(a))
        XCTAssertEqual(t.byModel, ["m": TokenCounts(input: 4)])
        XCTAssertEqual(t.byDay, [0: TokenCounts(input: 4)])
        XCTAssertEqual(t.total, TokenCounts(input: 4))
    }

    func testDayOfNegativeTimesRoundsDown() {
        XCTAssertEqual(CivilDate.day(ofMilliseconds: 0), 0)
        XCTAssertEqual(CivilDate.day(ofMilliseconds: 86_399_999), 0)
        XCTAssertEqual(CivilDate.day(ofMilliseconds: 86_400_000), 1)
        XCTAssertEqual(CivilDate.day(ofMilliseconds: -1), -1)
        XCTAssertEqual(CivilDate.day(ofMilliseconds: -86_400_000), -1)
        XCTAssertEqual(CivilDate.day(ofMilliseconds: -86_400_001), -2)
        XCTAssertEqual(CivilDate.day(ofMilliseconds: 1_704_164_645_000), 19_724)
    }
}
