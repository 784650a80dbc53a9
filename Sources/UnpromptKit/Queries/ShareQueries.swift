/// What a share code can carry of a period: its tokens, or only its trend.
public enum ShareMeasure: String, Sendable, CaseIterable {
    case tokens
    case trend
}

/// A person's own figures for one period, as a share code carries them and as `friends` ranks them: the same
/// function for both, so a friend sees exactly the number the sharer saw.
public struct ShareFigures: Sendable, Equatable {
    public let period: LocalCalendar.Period
    /// Today (days since 1970-01-01, local) or this month (`year × 12 + month − 1`).
    public let date: Int64
    public let tokens: Int64
    /// The period's tokens per day as a whole percentage (rounded down) of the mean daily tokens of the 30 days
    /// before it (before the month's first day, for a month; only days since the history began); nil when those
    /// days hold no tokens.
    public let trend: Int64?

    public func value(_ measure: ShareMeasure) -> Int64? { measure == .tokens ? tokens : trend }
}

/// Friends and you, ranked by one number (`ShareMeasure`) of one kind of period: higher first, then by name.
/// Shares of the other number are listed after the ranked ones, unranked. Numbers only: no entry is judged.
public struct FriendsRanking: Sendable {
    public struct Entry: Sendable, Equatable {
        public let name: String
        public let period: LocalCalendar.Period
        public let date: Int64
        public let tokens: Int64?
        public let trend: Int64?
        public let you: Bool
        /// Their friend id (yours, for you).
        public let friend: String

        public func value(_ measure: ShareMeasure) -> Int64? { measure == .tokens ? tokens : trend }
    }

    public let measure: ShareMeasure
    public let period: LocalCalendar.Period
    /// Ranked entries first (`rankedCount` of them), then the unranked.
    public let entries: [Entry]
    public let rankedCount: Int
}

extension UsageQueries {
    /// Your figures for today or this month, over every device chosen.
    public func share(_ period: LocalCalendar.Period) throws(StoreError) -> ShareFigures {
        let today = currentDay
        let first = period == .day ? today : CivilDate.firstDay(ofMonth: CivilDate.month(ofDay: today))
        let tokens = try days(from: first, through: today).reduce(Int64(0)) { $0 + $1.tokens }
        // The 30 days before the period's first, from the day the history began (as a day's band counts them).
        let historyDay = try store?.firstUsageQuarter(devices: devices).map(calendar.day(ofQuarter:))
        let earliest = max(first - DayBand.baselineDays, historyDay ?? first)
        var trend: Int64?
        if earliest < first {
            let baseline = try days(from: earliest, through: first - 1)
            let sum = baseline.reduce(Int64(0)) { $0 + $1.tokens }
            // tokens per day over the mean, exactly, in integers: tokens × 100 × days before ÷ (days × their sum).
            if sum > 0 { trend = tokens * 100 * Int64(baseline.count) / ((today - first + 1) * sum) }
        }
        return ShareFigures(period: period, date: period == .day ? today : CivilDate.month(ofDay: today), tokens: tokens, trend: trend)
    }

    /// The friends' shares of `period` and yours (named `name`, friend id `friend`), ranked by `measure`.
    public func friends(_ period: LocalCalendar.Period, by measure: ShareMeasure, name: String, friend: String) throws(StoreError)
        -> FriendsRanking
    {
        let own = try share(period)
        var entries = [
            FriendsRanking.Entry(
                name: name, period: period, date: own.date, tokens: own.tokens, trend: own.trend, you: true, friend: friend)
        ]
        for share in try store?.friendShares() ?? [] where share.period == period && share.friend != friend {
            entries.append(
                FriendsRanking.Entry(
                    name: share.name, period: period, date: share.date, tokens: share.tokens, trend: share.trend, you: false,
                    friend: share.friend))
        }
        let ranked = entries.filter { $0.value(measure) != nil }.sorted { a, b in
            let (x, y) = (a.value(measure)!, b.value(measure)!)
            return x != y ? x > y : (a.name, a.friend) < (b.name, b.friend)
        }
        let unranked = entries.filter { $0.value(measure) == nil }.sorted { ($0.name, $0.friend) < ($1.name, $1.friend) }
        return FriendsRanking(measure: measure, period: period, entries: ranked + unranked, rankedCount: ranked.count)
    }
}
