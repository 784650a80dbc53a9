/// A month of local days as `calendar` shows it: every day up to today, with its tokens, band, uses and the
/// work part of each, and the month's sums.
public struct CalendarMonth: Sendable {
    /// `year × 12 + month − 1`.
    public let month: Int64
    /// The month's days up to today (none for a month after today).
    public let days: [DayReading]

    public var tokens: Int64 { days.reduce(Int64(0)) { $0.saturatingAdd($1.tokens) } }
    public var uses: Int { days.reduce(0) { $0 + $1.uses } }
    public var workTokens: Int64 { days.reduce(Int64(0)) { $0.saturatingAdd($1.workTokens) } }
    public var workUses: Int { days.reduce(0) { $0 + $1.workUses } }
    public var personalTokens: Int64 { tokens.saturatingSubtract(workTokens) }
    public var personalUses: Int { uses - workUses }
}

extension UsageQueries {
    /// `month` (`year × 12 + month − 1`), this month when nil.
    public func month(_ month: Int64? = nil) throws(StoreError) -> CalendarMonth {
        let month = month ?? CivilDate.month(ofDay: currentDay)
        let first = CivilDate.firstDay(ofMonth: month)
        let last = min(CivilDate.lastDay(ofMonth: month), currentDay)
        return CalendarMonth(month: month, days: first <= last ? try days(from: first, through: last) : [])
    }
}
