/// Usage per local day or month, as `daily` and `monthly` show it: each period by tool and model, with its
/// cost and water; per day also the bottle level and, when every tool is shown, uses and the work part.
public struct PeriodReport: Sendable {
    public struct Entry: Sendable {
        public let usage: PeriodUsage
        /// Cost and water of `usage`, cell by cell.
        public let readings: ReadingsBreakdown
        /// Per day: the bottle level (`BottleLevel`), nil when the 30 days up to it hold no water.
        public let bottleLevel: Double?
        /// Per day, when every tool is shown: uses and the work/personal split.
        public let day: DayReading?
        /// Per day: the person's confirmation of it, if any (whatever the tools shown).
        public let confirmation: Confirmation?
    }

    public let period: LocalCalendar.Period
    public let fromDay: Int64?
    public let throughDay: Int64?
    /// The tools shown; empty for every tool.
    public let tools: [String]
    /// The periods with usage, in order.
    public let entries: [Entry]
    /// All periods summed.
    public let total: UsageCell
    public let totalReadings: ReadingCell

    /// Whether entries carry uses and the work split: per day, of every tool (a use is activity from any tool,
    /// so a view of chosen tools leaves uses out rather than mix the two).
    public var showsUses: Bool { period == .day && tools.isEmpty }
}

extension UsageQueries {
    /// Periods of `fromDay...throughDay` (either end open when nil) with usage by `tools` (every tool when
    /// empty).
    public func periods(
        by period: LocalCalendar.Period, from fromDay: Int64?, through throughDay: Int64?, tools: [String] = []
    ) throws(StoreError) -> PeriodReport {
        // A day's bottle level compares it with the days before it, so those are read too.
        let historyFrom = period == .day ? fromDay.map { $0 - BottleLevel.windowDays + 1 } : fromDay
        let rows = try buckets(fromDay: historyFrom, throughDay: throughDay, tools: tools)
        let periods = calendar.group(rows, by: period, fromDay: fromDay, throughDay: throughDay)
        let breakdowns = calendar.partition(rows, by: period, fromDay: fromDay, throughDay: throughDay)
            .mapValues { ReadingsBreakdown($0, readings) }
        var bottle: [Int64: Double] = [:]
        if period == .day {
            let liters = calendar.partition(rows, by: .day, fromDay: historyFrom, throughDay: throughDay)
                .mapValues { readings.water.reading(of: $0).liters.central }
            bottle = BottleLevel.levels(liters: liters, days: periods.map(\.period))
        }
        var days: [Int64: DayReading] = [:]
        if period == .day, tools.isEmpty, let first = periods.first?.period, let last = periods.last?.period {
            for day in try self.days(from: first, through: last) { days[day.day] = day }
        }
        var total = UsageCell()
        var totalReadings = ReadingCell()
        let entries = periods.map { usage in
            let breakdown = breakdowns[usage.period] ?? ReadingsBreakdown([], readings)
            total += usage.total
            totalReadings += breakdown.total
            return PeriodReport.Entry(
                usage: usage, readings: breakdown, bottleLevel: bottle[usage.period], day: days[usage.period],
                confirmation: period == .day ? schedule.confirmations[usage.period] : nil)
        }
        return PeriodReport(
            period: period, fromDay: fromDay, throughDay: throughDay, tools: tools, entries: entries, total: total,
            totalReadings: totalReadings)
    }
}
