/// What the page of `report` and `serve` shows, every number of it computed here, from the same queries as the
/// other views: the snapshot (today, its uses and the live estimate, the limits with their pace, the last 35
/// days), a month's calendar, today's bottle level, the last 30 days by tool, and the month by model.
public struct DashboardReport: Sendable {
    /// The days of the tool chart.
    public static let recentDays: Int64 = 30

    public let snapshot: Snapshot
    /// The month shown (this month unless another is asked for), every day up to today.
    public let month: CalendarMonth
    /// The month's usage by model, with its cost and water (`monthly` of the month).
    public let monthUsage: PeriodReport
    /// Today's bottle level (`BottleLevel`): today's central water as a share of the fullest day of the 30
    /// days up to it; nil when those days hold no water.
    public let bottleLevel: Double?
    /// The last 30 days up to today, those with usage, by tool (`daily` of those days).
    public let recent: PeriodReport
    /// The most tokens of one day among the last 30 (0 when none): the chart's full height.
    public let recentFullest: Int64
    /// Every tool of the last 30 days, in order.
    public let recentTools: [String]
}

extension UsageQueries {
    /// `month` (`year × 12 + month − 1`) is the calendar's and the model table's, this month when nil.
    public func dashboard(month requested: Int64? = nil) throws(StoreError) -> DashboardReport {
        let snapshot = try snapshot()
        let month = try self.month(requested)
        let monthUsage = try periods(
            by: .month, from: CivilDate.firstDay(ofMonth: month.month), through: CivilDate.lastDay(ofMonth: month.month))
        let today = currentDay
        let liters = Dictionary(uniqueKeysWithValues: snapshot.days.map { ($0.reading.day, $0.readings.water.liters.central) })
        let recent = try periods(by: .day, from: today - DashboardReport.recentDays + 1, through: today)
        return DashboardReport(
            snapshot: snapshot, month: month, monthUsage: monthUsage,
            bottleLevel: BottleLevel.levels(liters: liters, days: [today])[today], recent: recent,
            recentFullest: recent.entries.map(\.usage.total.counts.total).max() ?? 0,
            recentTools: Set(recent.entries.flatMap { $0.usage.byTool.keys }).sorted())
    }
}
