/// One local day as the views show it: tokens and uses, the part of each in work hours, and the day's band.
public struct DayReading: Sendable, Equatable {
    /// Days since 1970-01-01 (local).
    public let day: Int64
    public var tokens: Int64 = 0
    public var workTokens: Int64 = 0
    /// Episodes that started this day (see `Episodes`).
    public var uses = 0
    public var workUses = 0
    public var band = DayBand.zero
    /// The mean daily tokens the band compares with; nil when the day has no history before it.
    public var baseline: Double?
    /// The person's confirmation of the day, if any (its context is already in the split above).
    public var confirmation: Confirmation?
    /// With a confirmation: the uses and tokens its quarter-hours hold now, less those it confirmed (logs
    /// that arrived after it). Zero when nothing changed.
    public var usesSince = 0
    public var tokensSince: Int64 = 0

    public init(day: Int64) { self.day = day }

    public var personalTokens: Int64 { tokens.saturatingSubtract(workTokens) }
    public var personalUses: Int { uses - workUses }
}

/// Builds `DayReading`s from the store's quarter-hour buckets and activity, in one zone and with one work
/// schedule (work hours through time, and the confirmed days' context): a pure grouping, so another zone or
/// other work hours never rescan and never double count, and context moves only the split.
public enum DayReadings: Sendable {
    /// What must be read from the store for `fromDay...throughDay`: buckets from 30 days earlier (for the
    /// bands), activity of the days themselves (plus the latest activity before it, from the store).
    public static func bucketBounds(fromDay: Int64, throughDay: Int64) -> Range<Int64> {
        LocalCalendar.quarterBounds(fromDay: fromDay - DayBand.baselineDays, throughDay: throughDay)
    }

    public static func activityBounds(fromDay: Int64, throughDay: Int64) -> Range<Int64> {
        LocalCalendar.quarterBounds(fromDay: fromDay, throughDay: throughDay)
    }

    /// Every day of `fromDay...throughDay`, in order, days without usage included.
    ///
    /// - `rows`: buckets within `bucketBounds`; `activity`: within `activityBounds`, and `lastActivityBefore`
    ///   the latest activity before those bounds.
    /// - `historyStart`: the store's first quarter-hour with usage; bands average only days from its local day.
    public static func compute(
        rows: [BucketRow], activity: [ActivityQuarter], lastActivityBefore: Int64?, historyStart: Int64?,
        calendar: LocalCalendar, schedule: WorkSchedule, fromDay: Int64, throughDay: Int64
    ) -> [DayReading] {
        precondition(fromDay <= throughDay)
        let firstDay = fromDay - DayBand.baselineDays
        var days = (firstDay...throughDay).map(DayReading.init)
        func index(_ day: Int64) -> Int? { day >= firstDay && day <= throughDay ? Int(day - firstDay) : nil }

        // Tokens per quarter-hour, for what confirmed days hold now (only when some are in range).
        let confirmed = schedule.confirmations.values.filter { $0.day >= fromDay && $0.day <= throughDay }
        var quarterTokens: [Int64: Int64] = [:]
        for row in rows {
            if !confirmed.isEmpty {
                quarterTokens[row.quarter] = (quarterTokens[row.quarter] ?? 0).saturatingAdd(row.counts.total)
            }
            guard let i = index(calendar.day(ofQuarter: row.quarter)) else { continue }
            days[i].tokens = days[i].tokens.saturatingAdd(row.counts.total)
            if schedule.isWork(quarter: row.quarter, in: calendar) {
                days[i].workTokens = days[i].workTokens.saturatingAdd(row.counts.total)
            }
        }
        let starts = Episodes.starts(activity, lastBefore: lastActivityBefore)
        for start in starts {
            guard let i = index(calendar.day(ofQuarter: start.quarter)) else { continue }
            days[i].uses += 1
            if schedule.isWork(quarter: start.quarter, in: calendar) { days[i].workUses += 1 }
        }
        for confirmation in confirmed {
            let i = Int(confirmation.day - firstDay)
            days[i].confirmation = confirmation
            let tokens = confirmation.quarters.reduce(Int64(0)) { $0.saturatingAdd(quarterTokens[$1] ?? 0) }
            days[i].tokensSince = tokens - confirmation.numbers.tokens
            days[i].usesSince = starts.filter { confirmation.quarters.contains($0.quarter) }.count - confirmation.numbers.uses
        }
        let historyDay = historyStart.map(calendar.day(ofQuarter:))
        for day in fromDay...throughDay {
            let i = Int(day - firstDay)
            let earliest = max(day - DayBand.baselineDays, historyDay ?? day)
            let previous = earliest < day ? days[Int(earliest - firstDay)..<i].map(\.tokens) : []
            days[i].band = DayBand.of(tokens: days[i].tokens, previousDays: previous)
            days[i].baseline = previous.isEmpty ? nil : Double(previous.reduce(Int64(0)) { $0.saturatingAdd($1) }) / Double(previous.count)
        }
        return Array(days[Int(fromDay - firstDay)...])
    }
}
