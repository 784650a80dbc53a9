import Foundation
import UnpromptKit

/// Records at given instants (UTC milliseconds), each of some tokens, turned into what the store would hold —
/// one bucket and the activity of each — and read into `DayReading`s, as `UsageQueries.days` reads them.
enum RecordTimes {
    static func days(
        _ times: [(Int64, Int64)], zone: String = "UTC", schedule: WorkSchedule, from: Int64, through: Int64,
        history: Int64? = nil
    ) -> [DayReading] {
        let calendar = LocalCalendar(timeZone: TimeZone(identifier: zone)!)
        let rows = times.sorted { $0.0 < $1.0 }.map { time, tokens in
            BucketRow(
                quarter: CivilDate.floorDivide(time, Bucket.quarterMilliseconds), tool: "t", model: "m",
                counts: TokenCounts(input: tokens), events: 1)
        }
        let bounds = DayReadings.activityBounds(fromDay: from, throughDay: through)
        let activity = Episodes.activity(of: times.map(\.0)).filter { bounds.contains($0.quarter) }
        let before = times.map(\.0).filter { CivilDate.floorDivide($0, Bucket.quarterMilliseconds) < bounds.lowerBound }.max()
        return DayReadings.compute(
            rows: rows, activity: activity, lastActivityBefore: before, historyStart: history ?? rows.map(\.quarter).min(),
            calendar: calendar, schedule: schedule, fromDay: from, throughDay: through)
    }
}
