/// Today, as `today` and a plain scan show it: the local day of the clock in the view's zone.
///
/// - tokens by tool and model, with their cost at API list prices and their water, from the same
///   quarter-hour buckets as `daily` (today's line here equals today's line of `daily` in the same zone);
/// - uses (episodes started today) and the work and personal part of uses and tokens;
/// - the streak of confirmed days and the proposal waiting, if any (`ConfirmationStatus`);
/// - the live estimate (`LiveEstimate`): the count when the store was last measured, plus the recent pace
///   for at most three minutes; past them it is shown as "measured at HH:MM".
public struct TodayReport: Sendable {
    public let day: Int64
    /// The day's first instant, in milliseconds since 1970.
    public let dayStart: Int64
    public let usage: PeriodUsage
    /// Cost and water of `usage`, cell by cell.
    public let readings: ReadingsBreakdown
    /// Tokens, uses, their work part and the day's band.
    public let reading: DayReading
    /// When a scan last brought the store up to date; nil if none has recorded it (or only after `now`).
    public let measuredAt: Int64?
    /// Tokens per second around `measuredAt`.
    public let pace: Double
    public let estimate: LiveEstimate.Reading
    /// The streak of confirmed days, and the day whose proposal is waiting.
    public let confirmations: ConfirmationStatus

    /// The pace in whole tokens a minute, rounded down (an estimate never rounds up).
    public var tokensPerMinute: Int64 { Int64(saturating: (pace * 60).rounded(.down)) }

    /// Today's tokens at `now`, a moment of this same local day (`LiveEstimate`): `estimate` is this at the
    /// report's own clock, and `today --live` ticks with it between scans.
    public func liveEstimate(at now: Int64) -> LiveEstimate.Reading {
        Self.estimate(tokens: reading.tokens, measuredAt: measuredAt, pace: pace, dayStart: dayStart, now: now)
    }

    static func estimate(tokens: Int64, measuredAt: Int64?, pace: Double, dayStart: Int64, now: Int64) -> LiveEstimate.Reading {
        guard let measuredAt else { return LiveEstimate.Reading(tokens: tokens, live: false) }
        // Measured on an earlier day, the count is that day's: the estimate of today does not use it.
        let count = measuredAt >= dayStart ? tokens : 0
        return LiveEstimate(count: count, pace: pace, measuredAt: measuredAt).reading(now: now, dayStart: dayStart)
    }
}

extension UsageQueries {
    public func today() throws(StoreError) -> TodayReport {
        let day = currentDay
        let reading = try days(from: day, through: day)[0]
        var usage = PeriodUsage(period: day)
        var breakdown = ReadingsBreakdown([], readings)
        var measuredAt: Int64?
        var pace = 0.0
        let dayStart = start(ofDay: day)
        var estimate = LiveEstimate.Reading(tokens: reading.tokens, live: false)
        if let store {
            let rows = try buckets(fromDay: day, throughDay: day)
            usage = calendar.group(rows, by: .day, fromDay: day, throughDay: day).first ?? usage
            // The bounds reach into the days either side (any zone's day fits in them): price today's rows only.
            breakdown = ReadingsBreakdown(calendar.partition(rows, by: .day, fromDay: day, throughDay: day)[day] ?? [], readings)
            // Each device from its own measurement; one after the clock's moment did not exist yet then.
            let live = try liveAcrossDevices(store, day: day, dayStart: dayStart)
            measuredAt = live.measuredAt
            pace = live.pace
            estimate = live.estimate
        }
        return TodayReport(
            day: day, dayStart: dayStart, usage: usage, readings: breakdown, reading: reading, measuredAt: measuredAt,
            pace: pace, estimate: estimate, confirmations: try confirmationStatus())
    }

    /// Today's live estimate from the tokens the store holds for today: when the store was last measured (by
    /// `now`), the pace around then, and the estimate at `now` (the measured count when never measured).
    func live(dayTokens: Int64) throws(StoreError) -> (measuredAt: Int64?, pace: Double, estimate: LiveEstimate.Reading) {
        // A measurement after the clock's moment did not exist yet then.
        guard let store, let measuredAt = try store.measuredAt().flatMap({ $0 <= now ? $0 : nil }) else {
            return (nil, 0, LiveEstimate.Reading(tokens: dayTokens, live: false))
        }
        let quarter = Bucket.quarter(of: measuredAt)
        let pace = LiveEstimate.pace(of: try store.buckets(fromQuarter: quarter - 1, toQuarter: quarter + 1), measuredAt: measuredAt)
        let estimate = TodayReport.estimate(tokens: dayTokens, measuredAt: measuredAt, pace: pace, dayStart: start(ofDay: currentDay), now: now)
        return (measuredAt, pace, estimate)
    }
}
