/// How fast a plan-limit window was used from its start to a reading, and when it would be used up at that
/// pace: a measurement of the reading, with no advice. A pure function of the sample and the window's length.
///
/// With the window's length `L`, its reset `R` and a reading of `U` % logged at `t`: the window started at
/// `S = R − L`, `t − S` had passed, the pace is `U / (t − S)` percentage points an hour, and 100 % is reached
/// at that pace at `S + (t − S) × 100 / U`, before or after `R`. A reading at or above 100 % gives the moment
/// the pace reached 100 %, at or before `t`.
public struct LimitPace: Sendable, Equatable {
    /// Milliseconds since 1970: the window's start, its reset minus its length.
    public let windowStart: Int64
    /// The share of the window's time that had passed when the reading was logged, above 0 and at most 1.
    public let elapsedShare: Double
    /// Percentage points used per hour from the window's start to the reading.
    public let percentPerHour: Double
    /// When 100 % would be reached at this pace (milliseconds since 1970); nil when nothing was used.
    public let usedUpAt: Int64?
    /// Whether `usedUpAt` comes before the window's reset; false when nothing was used.
    public let usedUpBeforeReset: Bool

    static let hour = 3_600_000.0

    /// Nil when the reading has no used share or no reset, the window's length is unknown (`windowMinutes`:
    /// the sample's own, else the tool's), or the reading was not logged inside the window it names.
    public init?(_ sample: LimitSample, windowMinutes: Int64?) {
        guard let used = sample.usedPercent, used.isFinite, used >= 0, let reset = sample.resetsAt, let minutes = windowMinutes,
            minutes > 0
        else { return nil }
        let length = minutes * 60_000
        let start = reset - length
        let elapsed = sample.time - start
        guard elapsed > 0, elapsed <= length else { return nil }
        windowStart = start
        elapsedShare = Double(elapsed) / Double(length)
        percentPerHour = used / (Double(elapsed) / Self.hour)
        if used > 0 {
            let usedUp = start + Int64((Double(elapsed) * 100 / used).rounded())
            usedUpAt = usedUp
            usedUpBeforeReset = usedUp < reset
        } else {
            usedUpAt = nil
            usedUpBeforeReset = false
        }
    }

    /// Tokens an hour from `start` to `now` (a window derived from use, which has no percentage): nil when no
    /// time has passed.
    public static func tokensPerHour(_ tokens: Int64, since start: Int64, now: Int64) -> Double? {
        guard now > start else { return nil }
        return Double(tokens) / (Double(now - start) / hour)
    }
}
