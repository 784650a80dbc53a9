/// How one day's tokens compare with the mean of the 30 days before it. Five bands, never a goal: a band
/// says where a day stands against the person's own recent days, nothing more.
///
/// With `mean` the mean daily tokens of the 30 local days before the day:
///
/// | band | the day's tokens |
/// |---|---|
/// | `zero` | none |
/// | `less` | below 2/3 of the mean |
/// | `average` | from 2/3 of the mean to 3/2 of it |
/// | `more` | above 3/2 of the mean, up to 3 times it |
/// | `much-more` | above 3 times the mean (or any tokens after 30 days of none) |
///
/// The thresholds are symmetric around the mean on a ratio scale (2/3 and 3/2). Only days since the store's
/// history began are averaged, so a newcomer's first weeks are not compared with days before they had
/// any logs. A day with no history before it at all is `average`: it is its own only reference.
public enum DayBand: String, Sendable, CaseIterable {
    case zero
    case less
    case average
    case more
    case muchMore = "much-more"

    /// Days before a day that its mean is taken over.
    public static let baselineDays: Int64 = 30

    /// The band of a day with `tokens`, given the daily totals of the days before it that count (at most
    /// 30, those since history began; empty when there are none). Exact integer comparisons, no rounding.
    public static func of(tokens: Int64, previousDays: [Int64]) -> DayBand {
        guard tokens > 0 else { return .zero }
        guard !previousDays.isEmpty else { return .average }
        // tokens / mean = tokens × n / sum, compared with 2/3, 3/2 and 3 without division, in full width so
        // that no product can overflow (a saturated day is still compared, as what it shows).
        let n = Int64(previousDays.count)
        let sum = previousDays.reduce(Int64(0)) { $0.saturatingAdd($1) }
        let scaled = tokens.multipliedFullWidth(by: n * 6)
        func times(_ factor: Int64) -> (high: Int64, low: UInt64) { sum.multipliedFullWidth(by: factor) }
        if scaled < times(4) { return .less }
        if scaled <= times(9) { return .average }
        if scaled <= times(18) { return .more }
        return .muchMore
    }
}
