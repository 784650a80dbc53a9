/// Today as `today --live` keeps it on screen between scans: today and the limits, queried once, then read at
/// every later moment through pure functions of the clock (`TodayReport.liveEstimate(at:)`,
/// `LimitsReport.countdowns(at:)`), until `until`: the next local midnight, reset, end of a derived window or
/// reading turning stale. Past it, or after a scan, it is queried again.
public struct LiveToday: Sendable {
    public let today: TodayReport
    public let limits: LimitsReport
    /// The first moment it no longer holds, in milliseconds since 1970.
    public let until: Int64

    /// Whether it still holds at `now`.
    public func holds(at now: Int64) -> Bool { now < until }
}

extension UsageQueries {
    public func liveToday() throws(StoreError) -> LiveToday {
        let today = try self.today()
        let limits = try self.limits()
        let midnight = start(ofDay: today.day + 1)
        return LiveToday(today: today, limits: limits, until: min(midnight, limits.nextChange(after: now) ?? midnight))
    }
}
