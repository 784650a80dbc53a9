/// Usage per local day, week or month, as `daily`, `weekly` and `monthly` show it: each period by tool and
/// model, with its cost and water; per day also the bottle level; and, when every tool is shown, the period's
/// days with their uses, work part and band.
public struct PeriodReport: Sendable {
    public struct Entry: Sendable {
        public let usage: PeriodUsage
        /// Cost and water of `usage`, cell by cell.
        public let readings: ReadingsBreakdown
        /// Per day: the bottle level (`BottleLevel`), nil when the 30 days up to it hold no water.
        public let bottleLevel: Double?
        /// When every tool is shown: the period's days within the report's range, in order (uses, the work and
        /// personal split, each day's band). Empty for a view of chosen tools.
        public let days: [DayReading]

        /// Uses that started in the period (each day's, summed: a use belongs to the day it starts).
        public var uses: Int { days.reduce(0) { $0 + $1.uses } }
        public var workUses: Int { days.reduce(0) { $0 + $1.workUses } }
        public var workTokens: Int64 { days.reduce(0) { $0 + $1.workTokens } }
        public var personalUses: Int { uses - workUses }
        /// The period's tokens outside work hours (of every tool).
        public var personalTokens: Int64 { days.reduce(0) { $0 + $1.personalTokens } }
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
    /// The local day of the clock: days after it have not happened yet.
    public let today: Int64

    /// Whether entries carry their days, uses and the work split: when every tool is shown (a use is activity
    /// from any tool, so a view of chosen tools leaves uses out rather than mix the two).
    public var showsUses: Bool { tools.isEmpty }
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
        // The days of a period within the range: its first and last day, cut by the range's ends.
        func days(of key: Int64) -> ClosedRange<Int64> {
            max(period.firstDay(ofKey: key), fromDay ?? .min)...min(period.lastDay(ofKey: key), throughDay ?? .max)
        }
        var dayReadings: [Int64: DayReading] = [:]
        if tools.isEmpty, let first = periods.first?.period, let last = periods.last?.period {
            for day in try self.days(from: days(of: first).lowerBound, through: days(of: last).upperBound) {
                dayReadings[day.day] = day
            }
        }
        var total = UsageCell()
        var totalReadings = ReadingCell()
        let entries = periods.map { usage in
            let breakdown = breakdowns[usage.period] ?? ReadingsBreakdown([], readings)
            total += usage.total
            totalReadings += breakdown.total
            return PeriodReport.Entry(
                usage: usage, readings: breakdown, bottleLevel: bottle[usage.period],
                days: dayReadings.isEmpty ? [] : days(of: usage.period).compactMap { dayReadings[$0] },
                confirmation: period == .day ? schedule.confirmations[usage.period] : nil)
        }
        return PeriodReport(
            period: period, fromDay: fromDay, throughDay: throughDay, tools: tools, entries: entries, total: total,
            totalReadings: totalReadings, today: currentDay)
    }
}
