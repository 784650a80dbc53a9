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
        if period == .day {
            let day = try days(from: today, through: today)[0]
            return ShareFigures(period: .day, date: today, tokens: day.tokens, trend: Self.trend(Double(day.tokens), day.baseline))
        }
        let month = CivilDate.month(ofDay: today)
        let first = CivilDate.firstDay(ofMonth: month)
        let days = try self.days(from: first, through: today)
        let tokens = days.reduce(Int64(0)) { $0 + $1.tokens }
        return ShareFigures(
            period: .month, date: month, tokens: tokens, trend: Self.trend(Double(tokens) / Double(days.count), days[0].baseline))
    }

    static func trend(_ perDay: Double, _ baseline: Double?) -> Int64? {
        guard let baseline, baseline > 0 else { return nil }
        let percent = (perDay * 100 / baseline).rounded(.down)
        return percent.isFinite && percent < 1e15 ? Int64(percent) : nil
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
