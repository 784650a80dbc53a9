/// One numbers-only document for widgets and the phone (`docs/snapshot.schema.json`): today, its uses, the
/// limits and derived windows, and the last 35 days, each as the other views show them.
public struct Snapshot: Sendable {
    public static let version = 1
    public static let dayCount: Int64 = 35

    /// One of the last days: its reading, its first instant, and the cost and water of its buckets.
    public struct Day: Sendable {
        public let reading: DayReading
        public let dayStart: Int64
        public let readings: ReadingCell
    }

    /// The clock's moment, milliseconds since 1970.
    public let generatedAt: Int64
    public let utcOffsetMinutes: Int64
    public let workHoursSet: Bool
    public let today: TodayReport
    public let limits: LimitsReport
    /// The last `dayCount` days, today included, oldest first.
    public let days: [Day]
}

extension UsageQueries {
    public func snapshot() throws(StoreError) -> Snapshot {
        let today = try self.today()
        let limits = try self.limits()
        let firstDay = currentDay - Snapshot.dayCount + 1
        let readings = try days(from: firstDay, through: currentDay)
        let rows = try buckets(fromDay: firstDay, throughDay: currentDay)
        let cells = calendar.partition(rows, by: .day, fromDay: firstDay, throughDay: currentDay)
            .mapValues { ReadingCell($0, self.readings) }
        return Snapshot(
            generatedAt: now, utcOffsetMinutes: zone.offsetMinutes(at: now), workHoursSet: !workHours.isEmpty, today: today,
            limits: limits,
            days: readings.map { day in
                Snapshot.Day(reading: day, dayStart: start(ofDay: day.day), readings: cells[day.day] ?? ReadingCell())
            })
    }
}
