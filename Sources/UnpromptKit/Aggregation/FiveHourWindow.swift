/// Claude's 5-hour usage window, derived from when Claude Code was used, as trackers do (Claude's logs hold
/// no quota percentages): a window starts at the hour of the first request after the previous window
/// ended, and lasts five hours. A limit-reached record is a request too (one that was refused), and gives
/// its window's true end: the reset time Claude wrote.
///
/// Derived from quarter-hour buckets, and exactly so: hours and window ends fall on quarter-hour
/// boundaries, so the hour of a bucket's first instant is the hour of every request in it.
public struct FiveHourWindow: Sendable, Equatable {
    public static let length: Int64 = 5 * 60 * 60 * 1000
    static let hour: Int64 = 60 * 60 * 1000

    /// Milliseconds since 1970: the window's start, and its end (the reset).
    public let start: Int64
    public let end: Int64
    /// Tokens of the window so far.
    public let tokens: Int64
    /// True when `end` is a reset time read from a limit-reached record, not derived.
    public let endFromLimit: Bool

    public init(start: Int64, end: Int64, tokens: Int64, endFromLimit: Bool) {
        self.start = start
        self.end = end
        self.tokens = tokens
        self.endFromLimit = endFromLimit
    }

    /// How far back the windows are followed: a window chain starts after five idle hours, and a week of
    /// use without five idle hours is taken to start a week ago.
    public static let lookbackMilliseconds: Int64 = 7 * 24 * hour

    /// The window in progress at `now`, or nil when the last one has ended (the next starts with the next
    /// request). `rows` are the tool's buckets from `now − lookbackMilliseconds` to `now`; `resets` are
    /// the reset times (with the time each was logged) of its limit-reached records. `length` is the window's,
    /// as the tool's descriptor declares it (`DerivedWindow`).
    public static func current(
        rows: [BucketRow], resets: [(loggedAt: Int64, resetsAt: Int64)], now: Int64, length: Int64 = FiveHourWindow.length
    ) -> FiveHourWindow? {
        var tokensByQuarter: [Int64: Int64] = [:]
        for row in rows where row.events > 0 || row.counts.total > 0 {
            tokensByQuarter[row.quarter, default: 0] = tokensByQuarter[row.quarter, default: 0].saturatingAdd(row.counts.total)
        }
        for reset in resets {
            let quarter = CivilDate.floorDivide(reset.loggedAt, Bucket.quarterMilliseconds)
            if tokensByQuarter[quarter] == nil { tokensByQuarter[quarter] = 0 }
        }
        var window: (start: Int64, end: Int64, fromLimit: Bool)?
        var tokens: Int64 = 0
        for quarter in tokensByQuarter.keys.sorted() {
            let time = quarter * Bucket.quarterMilliseconds
            guard time <= now else { break }
            if window == nil || time >= window!.end {
                let start = CivilDate.floorDivide(time, hour) * hour
                // A reset logged inside this window is its true end.
                let reset = resets.filter {
                    $0.loggedAt >= start && $0.loggedAt < start + length && $0.resetsAt > $0.loggedAt && $0.resetsAt > time
                }.map(\.resetsAt).min()
                window = (start, reset ?? start + length, reset != nil)
                tokens = 0
            }
            tokens = tokens.saturatingAdd(tokensByQuarter[quarter]!)
        }
        guard let window, now < window.end else { return nil }
        return FiveHourWindow(start: window.start, end: window.end, tokens: tokens, endFromLimit: window.fromLimit)
    }
}
