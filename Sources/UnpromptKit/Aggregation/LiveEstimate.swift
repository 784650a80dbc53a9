/// Today's tokens between two measurements: a pure function of what the store held when it was last
/// brought up to date, and the clock, so two devices with the same snapshot show the same number.
///
/// `estimate = count + pace × min(now − measuredAt, 180 s)`. For three minutes after a measurement the
/// number grows at the recent pace; past that it stops growing (it is no longer extrapolated) and is shown
/// as "measured at HH:MM". When local midnight passes after the measurement, the new day starts from zero:
/// only the part of the three minutes after midnight is extrapolated, and a later day gets nothing.
public struct LiveEstimate: Sendable, Equatable {
    /// How long after a measurement the estimate keeps growing.
    public static let horizonMilliseconds: Int64 = 180_000

    /// Tokens of the measured local day, as the store held them at `measuredAt`.
    public let count: Int64
    /// Tokens per second, recently (see `pace(of:measuredAt:)`).
    public let pace: Double
    /// Milliseconds since 1970.
    public let measuredAt: Int64

    public init(count: Int64, pace: Double, measuredAt: Int64) {
        self.count = count
        self.pace = pace
        self.measuredAt = measuredAt
    }

    public struct Reading: Sendable, Equatable {
        /// Tokens of the local day that holds `now`.
        public let tokens: Int64
        /// True within three minutes of the measurement; false once the estimate has stopped growing and
        /// is shown as measured at `measuredAt`.
        public let live: Bool

        public init(tokens: Int64, live: Bool) {
            self.tokens = tokens
            self.live = live
        }
    }

    /// The estimate at `now`, whose local day starts at `dayStart` (milliseconds since 1970).
    public func reading(now: Int64, dayStart: Int64) -> Reading {
        let horizon = min(max(now, measuredAt), measuredAt + Self.horizonMilliseconds)
        let live = now - measuredAt <= Self.horizonMilliseconds
        if dayStart <= measuredAt {
            return Reading(tokens: count.saturatingAdd(Self.tokens(pace, horizon - measuredAt)), live: live)
        }
        // A new day since the measurement: its own tokens are only those extrapolated after its start.
        return Reading(tokens: Self.tokens(pace, max(0, horizon - dayStart)), live: live)
    }

    /// Tokens at `pace` per second over `milliseconds`, rounded down: an estimate never rounds up.
    static func tokens(_ pace: Double, _ milliseconds: Int64) -> Int64 {
        guard pace > 0, pace.isFinite else { return 0 }
        return Int64(saturating: (pace * Double(milliseconds) / 1000).rounded(.down))
    }

    /// The recent pace, in tokens per second: the tokens of the quarter-hour holding `measuredAt` and of the
    /// one before it, over the time from the earlier one's start to `measuredAt` (15 to 30 minutes).
    public static func pace(of rows: [BucketRow], measuredAt: Int64) -> Double {
        let current = CivilDate.floorDivide(measuredAt, Bucket.quarterMilliseconds)
        let start = (current - 1) * Bucket.quarterMilliseconds
        let tokens = rows.lazy.filter { $0.quarter == current || $0.quarter == current - 1 }.reduce(Int64(0)) { $0.saturatingAdd($1.counts.total) }
        return Double(tokens) / (Double(measuredAt - start) / 1000)
    }
}
