import Foundation

/// Local days and months derived, at query time, from quarter-hour UTC buckets in one time zone.
///
/// The store keeps only quarter-hours since 1970-01-01T00:00Z. A view in any zone is a grouping of those
/// same buckets, so changing the zone never rescans and never double counts: every bucket lands in exactly
/// one local day, and the sum over all days is the same in every zone.
///
/// **A bucket belongs to the local day (and month) of its first instant.** That is exact, with no bucket
/// split between two days, because every UTC offset is a multiple of 15 minutes (+05:30 India, +05:45
/// Nepal, −03:30 Newfoundland, +12:45 Chatham, and the 30-minute DST of Lord Howe alike), and clocks change
/// on quarter-hour UTC instants: local midnight therefore always falls on a bucket boundary, in standard
/// time, in summer time and across the change itself. DST days simply hold fewer or more buckets (a
/// 23-hour day holds 92, a 25-hour day 100). The tz database has had offsets that are not multiples of 15
/// minutes only before 1980 (local mean times, Liberia until 1972, Kiritimati's −10:40 until 1979), and
/// changes at one minute past the hour only in Newfoundland and Labrador until 2011, Gaza and Hebron in
/// 2010–11 and Casey in 2020–22. For those rare quarter-hours the rule still assigns the whole bucket to
/// one day, the day of its start, at the cost of a minute's precision, and still counts it once.
///
/// A day is numbered as days since 1970-01-01 of the proleptic Gregorian calendar (so day 0 is the local
/// date 1970-01-01 in every zone), and a month as `year × 12 + month − 1`.
public struct LocalCalendar: Sendable {
    public static let quarterSeconds: Int64 = 15 * 60
    public static let quartersPerDay: Int64 = 96

    public let timeZone: TimeZone

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// The zone's offset from UTC, in seconds, at the start of a quarter.
    public func offsetSeconds(atQuarter quarter: Int64) -> Int64 {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(quarter * Self.quarterSeconds))))
    }

    /// The local day of a bucket: the local date of its first instant.
    public func day(ofQuarter quarter: Int64) -> Int64 {
        CivilDate.floorDivide(quarter * Self.quarterSeconds + offsetSeconds(atQuarter: quarter), 86_400)
    }

    /// The local day of an instant in milliseconds since 1970 (for "today").
    public func day(ofMilliseconds milliseconds: Int64) -> Int64 {
        let seconds = CivilDate.floorDivide(milliseconds, 1000)
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        return CivilDate.floorDivide(seconds + offset, 86_400)
    }

    /// The first quarter-hour of a local day: the one holding its first instant (local midnight, or the
    /// first moment after it when a clock change skips midnight).
    public func firstQuarter(ofDay day: Int64) -> Int64 {
        // No offset is beyond ±14 hours: the day starts within 14 hours of its UTC midnight.
        var quarter = day * Self.quartersPerDay - 14 * 4
        while self.day(ofQuarter: quarter) < day { quarter += 1 }
        return quarter
    }

    /// The local month of a bucket.
    public func month(ofQuarter quarter: Int64) -> Int64 { CivilDate.month(ofDay: day(ofQuarter: quarter)) }

    /// A range of quarters that holds every bucket whose local day is within `from...through` (either end
    /// open when nil), in any zone: the days widened by two days each side, wider than any UTC offset.
    /// Buckets read with it must still be filtered by their local day.
    public static func quarterBounds(fromDay: Int64?, throughDay: Int64?) -> Range<Int64> {
        let lower = fromDay.map { ($0 - 2) * quartersPerDay } ?? Int64.min
        let upper = throughDay.map { ($0 + 3) * quartersPerDay } ?? Int64.max
        return lower..<max(lower, upper)
    }

    // MARK: Grouping buckets

    /// Buckets summed per local day, week or month (`Period`), and within it per tool and model. Periods are in order and
    /// only those with usage appear; buckets whose local day is outside `fromDay...throughDay` are left out.
    public func group(_ rows: [BucketRow], by period: Period, fromDay: Int64? = nil, throughDay: Int64? = nil)
        -> [PeriodUsage]
    {
        partition(rows, by: period, fromDay: fromDay, throughDay: throughDay).map { key, rows in
            var usage = PeriodUsage(period: key)
            for row in rows { usage.add(row) }
            return usage.withoutEmptyCells()
        }.filter { !$0.isEmpty }.sorted { $0.period < $1.period }
    }

    /// The buckets of each local day, week or month within `fromDay...throughDay`, for readings (cost, water)
    /// computed from the same buckets as the counts.
    public func partition(_ rows: [BucketRow], by period: Period, fromDay: Int64? = nil, throughDay: Int64? = nil)
        -> [Int64: [BucketRow]]
    {
        var periods: [Int64: [BucketRow]] = [:]
        var lastQuarter: Int64?
        var lastDay: Int64 = 0
        for row in rows {
            // Rows come sorted by quarter: one offset lookup per distinct quarter.
            if row.quarter != lastQuarter {
                lastQuarter = row.quarter
                lastDay = day(ofQuarter: row.quarter)
            }
            if let fromDay, lastDay < fromDay { continue }
            if let throughDay, lastDay > throughDay { continue }
            periods[period.key(ofDay: lastDay), default: []].append(row)
        }
        return periods
    }

    // MARK: Civil dates
}

/// Counts and events of one cell of a view.
public struct UsageCell: Sendable, Equatable {
    public var counts = TokenCounts.zero
    public var events: Int64 = 0

    public init(counts: TokenCounts = .zero, events: Int64 = 0) {
        self.counts = counts
        self.events = events
    }

    public var isEmpty: Bool { counts.isZero && events == 0 }

    public static func += (a: inout UsageCell, b: UsageCell) {
        a.counts += b.counts
        a.events = a.events.saturatingAdd(b.events)
    }
}

/// One local day or month of usage, with its tool × model cells.
public struct PeriodUsage: Sendable, Equatable {
    /// A day number or a month number (see `LocalCalendar`).
    public let period: Int64
    public private(set) var total = UsageCell()
    /// Tool id → model id → cell.
    public private(set) var byTool: [String: [String: UsageCell]] = [:]

    public init(period: Int64) { self.period = period }

    public mutating func add(_ row: BucketRow) {
        let cell = UsageCell(counts: row.counts, events: row.events)
        total += cell
        byTool[row.tool, default: [:]][row.model, default: UsageCell()] += cell
    }

    /// Per model, summed over tools.
    public var byModel: [String: UsageCell] {
        var result: [String: UsageCell] = [:]
        for models in byTool.values {
            for (model, cell) in models { result[model, default: UsageCell()] += cell }
        }
        return result
    }

    /// The tool's cells summed.
    public func total(ofTool tool: String) -> UsageCell {
        var result = UsageCell()
        for cell in byTool[tool, default: [:]].values { result += cell }
        return result
    }

    public var isEmpty: Bool { total.isEmpty && byTool.isEmpty }

    /// Without the cells that hold nothing: a bucket whose only record was replaced by a larger copy in
    /// another quarter is left at zero in the store.
    func withoutEmptyCells() -> PeriodUsage {
        var copy = self
        copy.byTool = byTool.compactMapValues { models in
            let kept = models.filter { !$0.value.isEmpty }
            return kept.isEmpty ? nil : kept
        }
        return copy
    }
}
