import Testing
import UnpromptKit

/// A window's pace from its start to a reading, and when 100 % comes at that pace: worked out by hand.
struct LimitPaceTests {
    static let hour: Int64 = 3_600_000
    /// 2026-03-10T00:00Z.
    static let day: Int64 = 20522 * 86_400_000

    func sample(_ used: Double?, at hours: Double, resetsAt resetHours: Double?, minutes: Int64? = 300) -> LimitSample {
        LimitSample(
            tool: "t", time: Self.day + Int64(hours * 3_600_000), window: "w", usedPercent: used, windowMinutes: minutes,
            resetsAt: resetHours.map { Self.day + Int64($0 * 3_600_000) })
    }

    @Test func aFifthUsedInTheWindowsFirstHalfIsUsedUpAfterTheReset() throws {
        // A 5-hour window resetting at 12:30 started at 07:30; at 10:00 (2.5 h in, half of it) 12 % was used:
        // 4.8 points an hour, 100 % at 07:30 + 2.5 h × 100 / 12 = 07:30 + 20 h 50 min = 04:20 the next day.
        let pace = try #require(LimitPace(sample(12, at: 10, resetsAt: 12.5), windowMinutes: 300))
        #expect(pace.windowStart == Self.day + 7 * Self.hour + 30 * 60_000)
        #expect(pace.elapsedShare == 0.5)
        #expect(abs(pace.percentPerHour - 4.8) < 1e-12)
        #expect(pace.usedUpAt == Self.day + 28 * Self.hour + 20 * 60_000)
        #expect(!pace.usedUpBeforeReset)
    }

    @Test func aWeekUsedFasterThanItPassesIsUsedUpBeforeItsReset() throws {
        // 7 days resetting on the 14th at 00:00 started on the 7th at 00:00; on the 10th at 12:00 (84 h in) 60 % was
        // used: 100 % at 84 h × 100 / 60 = 140 h after the start, the 12th at 20:00, before the reset.
        let pace = try #require(LimitPace(sample(60, at: 12, resetsAt: 4 * 24, minutes: 10_080), windowMinutes: 10_080))
        #expect(pace.windowStart == Self.day - 3 * 24 * Self.hour)
        #expect(pace.elapsedShare == 0.5)
        #expect(abs(pace.percentPerHour - 60.0 / 84) < 1e-12)
        #expect(pace.usedUpAt == Self.day - 3 * 24 * Self.hour + 140 * Self.hour)
        #expect(pace.usedUpBeforeReset)
    }

    @Test func nothingUsedIsNeverUsedUpAndAFullWindowWasUsedUpByItsReading() throws {
        let none = try #require(LimitPace(sample(0, at: 10, resetsAt: 12.5), windowMinutes: 300))
        #expect(none.percentPerHour == 0 && none.usedUpAt == nil && !none.usedUpBeforeReset)
        // 125 % after 2.5 h: 100 % was reached 2 h in, at 09:30.
        let over = try #require(LimitPace(sample(125, at: 10, resetsAt: 12.5), windowMinutes: 300))
        #expect(over.usedUpAt == Self.day + 9 * Self.hour + 30 * 60_000 && over.usedUpBeforeReset)
    }

    @Test func aReadingOutsideItsWindowOrWithoutItsNumbersHasNoPace() {
        #expect(LimitPace(sample(12, at: 10, resetsAt: nil), windowMinutes: 300) == nil, "no reset: no start")
        #expect(LimitPace(sample(nil, at: 10, resetsAt: 12.5), windowMinutes: 300) == nil, "no used share")
        #expect(LimitPace(sample(12, at: 10, resetsAt: 12.5), windowMinutes: nil) == nil, "no length")
        #expect(LimitPace(sample(12, at: 7, resetsAt: 12.5), windowMinutes: 300) == nil, "logged before the window began")
        #expect(LimitPace(sample(12, at: 7.5, resetsAt: 12.5), windowMinutes: 300) == nil, "logged at its very start")
        #expect(LimitPace(sample(12, at: 13, resetsAt: 12.5), windowMinutes: 300) == nil, "logged after its reset")
        #expect(LimitPace(sample(12, at: 12.5, resetsAt: 12.5), windowMinutes: 300) != nil, "logged at its reset")
        #expect(LimitPace(sample(-1, at: 10, resetsAt: 12.5), windowMinutes: 300) == nil)
    }

    @Test func aWindowDerivedFromUseHasTokensAnHour() {
        #expect(LimitPace.tokensPerHour(135, since: Self.day + 9 * Self.hour, now: Self.day + 11 * Self.hour + 30 * 60_000) == 54)
        #expect(LimitPace.tokensPerHour(135, since: Self.day, now: Self.day) == nil)
    }
}
