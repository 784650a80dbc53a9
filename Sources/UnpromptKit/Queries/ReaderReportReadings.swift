/// The cost and water of a dry run's report: in total, by model and by UTC day, from its buckets.
public struct ReaderReportReadings: Sendable {
    public var total = ReadingCell()
    public var byModel: [String: ReadingCell] = [:]
    public var byDay: [Int64: ReadingCell] = [:]

    public init(_ report: ReaderReport, _ readings: Readings) {
        for row in report.totals.buckets {
            total.add(row, readings)
            byModel[row.model, default: ReadingCell()].add(row, readings)
            byDay[CivilDate.floorDivide(row.quarter, LocalCalendar.quartersPerDay), default: ReadingCell()].add(row, readings)
        }
    }
}
