/// The activity of one quarter-hour (UTC): the first and last moment any tool recorded usage in it.
///
/// That is all episodes need. Two events of one quarter-hour are less than 15 minutes apart, so an episode
/// never splits inside a quarter-hour, and the gap between two active quarter-hours is the later one's
/// `first` minus the earlier one's `last`.
public struct ActivityQuarter: Sendable, Equatable {
    /// Quarter-hours since 1970-01-01T00:00Z.
    public let quarter: Int64
    /// Milliseconds since 1970 of the earliest and latest usage record read in this quarter-hour.
    public let first: Int64
    public let last: Int64

    public init(quarter: Int64, first: Int64, last: Int64) {
        self.quarter = quarter
        self.first = first
        self.last = last
    }
}

/// Uses (episodes): a run of AI activity, from any tool, in which consecutive usage records are at most two
/// hours apart. A gap of more than two hours starts a new one. An episode belongs to the local day, and to
/// work or personal time, of its start.
///
/// Episodes are derived from `ActivityQuarter`s, which the store keeps as a minimum and a maximum per
/// quarter-hour. Folding a time into them is commutative and idempotent, so the result is the same whatever
/// order sources are read in, and reading a record again (a duplicate, a rescan) changes nothing.
public enum Episodes: Sendable {
    /// Records more than this far apart belong to different episodes.
    public static let gapMilliseconds: Int64 = 2 * 60 * 60 * 1000

    /// Folds instants (milliseconds since 1970) into per-quarter activity, in quarter order.
    public static func activity(of times: some Sequence<Int64>) -> [ActivityQuarter] {
        var spans: [Int64: (first: Int64, last: Int64)] = [:]
        for time in times {
            let quarter = CivilDate.floorDivide(time, Bucket.quarterMilliseconds)
            if let span = spans[quarter] {
                spans[quarter] = (min(span.first, time), max(span.last, time))
            } else {
                spans[quarter] = (time, time)
            }
        }
        return spans.keys.sorted().map { ActivityQuarter(quarter: $0, first: spans[$0]!.first, last: spans[$0]!.last) }
    }

    /// The quarters of `activity` (in quarter order) at which an episode starts. `lastBefore` is the latest
    /// activity before the first of them (nil when there is none): it decides whether the first quarter
    /// continues an episode that started earlier.
    public static func starts(_ activity: [ActivityQuarter], lastBefore: Int64?) -> [ActivityQuarter] {
        var previous = lastBefore
        var result: [ActivityQuarter] = []
        for quarter in activity {
            let continues = previous.map { quarter.first - $0 <= gapMilliseconds } ?? false
            if !continues { result.append(quarter) }
            previous = max(previous ?? quarter.last, quarter.last)
        }
        return result
    }
}
