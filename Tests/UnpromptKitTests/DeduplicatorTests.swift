import XCTest
@testable import UnpromptKit

final class DeduplicatorTests: XCTestCase {
    let idA = Identity(high: 1, low: 2)
    let idB = Identity(high: 3, low: 4)

    func event(
        _ input: Int64, identity: Identity?, keep: KeepRule, model: String = "m", time: Int64 = 0, output: Int64 = 0
    ) -> TokenEvent {
        TokenEvent(
            tool: "t", time: time, model: model, counts: TokenCounts(input: input, output: output), identity: identity,
            keep: keep)
    }

    // MARK: keep rules

    func testFirstKeepsTheFirstCopy() {
        var d = Deduplicator()
        XCTAssertEqual(d.admit(event(5, identity: idA, keep: .first)), .counted)
        XCTAssertEqual(d.admit(event(9, identity: idA, keep: .first)), .duplicate)
        XCTAssertEqual(d.admit(event(1, identity: idA, keep: .first)), .duplicate)
        XCTAssertEqual(d.admit(event(9, identity: idB, keep: .first)), .counted, "another identity is independent")
    }

    func testLastReplacesWithEveryLaterCopy() {
        var d = Deduplicator()
        let first = event(5, identity: idA, keep: .last)
        let second = event(9, identity: idA, keep: .last)
        let third = event(3, identity: idA, keep: .last)
        XCTAssertEqual(d.admit(first), .counted)
        XCTAssertEqual(d.admit(second), .replaced(first))
        XCTAssertEqual(d.admit(third), .replaced(second), "a smaller later copy still replaces")
        XCTAssertEqual(d.admit(third), .replaced(third), "an identical copy replaces itself")
    }

    func testLargestReplacesOnlyWhenStrictlyLarger() {
        var d = Deduplicator()
        let small = event(5, identity: idA, keep: .largest)
        let equal = event(2, identity: idA, keep: .largest, output: 3)
        let big = event(9, identity: idA, keep: .largest)
        let smaller = event(7, identity: idA, keep: .largest)
        XCTAssertEqual(d.admit(small), .counted)
        XCTAssertEqual(d.admit(equal), .duplicate, "an equal total is a resumed copy, not a bigger snapshot")
        XCTAssertEqual(d.admit(big), .replaced(small))
        XCTAssertEqual(d.admit(smaller), .duplicate)
        XCTAssertEqual(d.admit(event(10, identity: idA, keep: .largest)), .replaced(big))
    }

    func testLargestComparesTotalsNotInput() {
        var d = Deduplicator()
        let a = event(10, identity: idA, keep: .largest)
        let b = TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: 1, cacheRead: 20), identity: idA, keep: .largest)
        XCTAssertEqual(d.admit(a), .counted)
        XCTAssertEqual(d.admit(b), .replaced(a))
    }

    func testLargestIgnoresReasoningBecauseItIsInsideOutput() {
        var d = Deduplicator()
        let a = event(10, identity: idA, keep: .largest)
        let b = TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: 10, reasoning: 50), identity: idA, keep: .largest)
        XCTAssertEqual(d.admit(a), .counted)
        XCTAssertEqual(d.admit(b), .duplicate)
    }

    func testRulesWithDifferentKeepRulesInOneSpaceCountOnce() {
        var d = Deduplicator()
        XCTAssertEqual(d.admit(event(5, identity: idA, keep: .first)), .counted)
        XCTAssertEqual(d.admit(event(9, identity: idA, keep: .largest)), .duplicate)
        XCTAssertEqual(d.admit(event(4, identity: idB, keep: .last)), .counted)
        XCTAssertEqual(d.admit(event(7, identity: idB, keep: .first)), .duplicate)
    }

    /// A record checked by its alias is a duplicate when another identity registered that alias, but copies
    /// of its own identity still go through `keep`.
    func testAliasCatchesCopiesUnderANewKeyButNotGrowingSnapshots() {
        let alias = Identity(high: 9, low: 9)
        func aliased(_ input: Int64, _ identity: Identity, check: Bool) -> TokenEvent {
            TokenEvent(
                tool: "t", time: 0, model: "m", counts: TokenCounts(input: input), identity: identity, keep: .largest,
                alias: alias, checkAlias: check)
        }
        var d = Deduplicator()
        XCTAssertEqual(d.admit(aliased(5, idA, check: false)), .counted, "the parent registers the alias")
        XCTAssertEqual(d.admit(aliased(5, idB, check: true)), .duplicate, "a sidechain replay under a new key")
        XCTAssertEqual(d.admit(aliased(5, idB, check: false)), .counted, "not checked: its own identity decides")
        var e = Deduplicator()
        let first = aliased(3, idB, check: true)
        XCTAssertEqual(e.admit(first), .counted)
        XCTAssertEqual(e.admit(aliased(8, idB, check: true)), .replaced(first), "its own larger snapshot replaces")
    }

    func testNilIdentityIsAlwaysCounted() {
        var d = Deduplicator()
        for keep in KeepRule.allCases {
            for _ in 0..<3 { XCTAssertEqual(d.admit(event(5, identity: nil, keep: keep)), .counted) }
        }
    }

    // MARK: Totals through the deduplicator

    func testTotalsHoldOneCopyPerIdentity() {
        var d = Deduplicator()
        var totals = UsageTotals()
        let events = [
            event(5, identity: idA, keep: .largest, model: "a", time: 0),
            event(8, identity: idA, keep: .largest, model: "a", time: 0),
            event(1, identity: nil, keep: .largest, model: "b", time: 86_400_000),
            event(6, identity: idA, keep: .largest, model: "a", time: 0),
        ]
        for e in events {
            switch d.admit(e) {
            case .counted: totals.add(e)
            case .duplicate: break
            case .replaced(let previous):
                totals.remove(previous)
                totals.add(e)
            }
        }
        XCTAssertEqual(totals.total, TokenCounts(input: 9))
        XCTAssertEqual(totals.events, 2)
        XCTAssertEqual(totals.byModel, ["a": TokenCounts(input: 8), "b": TokenCounts(input: 1)])
        XCTAssertEqual(totals.byDay, [0: TokenCounts(input: 8), 1: TokenCounts(input: 1)])
    }
}

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
        t.remove(b)
        XCTAssertEqual(t.byModel, ["a": TokenCounts(input: 3)])
        XCTAssertEqual(t.byDay, [0: TokenCounts(input: 3)])
        XCTAssertEqual(t.events, 1)
        t.remove(a)
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
        t.remove(a)
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
