import Foundation
import UnpromptKit

/// What a plain `unprompt-scan` prints after its scan: today's usage, today being the local date in the
/// user's time zone (`--tz`, else `TZ`, else the system zone), by tool and model, with its events.
///
/// It reads the same quarter-hour buckets as `daily`, grouped the same way, so today's line here equals
/// today's line of `daily` in the same zone.
enum TodaySummary {
    struct Result {
        let day: Int64
        let zone: ZoneOption
        let usage: PeriodUsage
    }

    static func read(store: UsageStore, zone: ZoneOption, now: Date = Date()) throws(StoreError) -> Result {
        let calendar = LocalCalendar(timeZone: zone.timeZone)
        let day = calendar.day(ofMilliseconds: Int64((now.timeIntervalSince1970 * 1000).rounded(.down)))
        let bounds = LocalCalendar.quarterBounds(fromDay: day, throughDay: day)
        let rows = try store.buckets(fromQuarter: bounds.lowerBound, toQuarter: bounds.upperBound)
        let usage = calendar.group(rows, by: .day, fromDay: day, throughDay: day).first ?? PeriodUsage(period: day)
        return Result(day: day, zone: zone, usage: usage)
    }

    /// `{"date":…,"timeZone":…,"totals":{six counts},"events":N,"byModel":{…},"byTool":{…}}`: the shape of
    /// one `daily` entry, with the zone.
    static func json(_ result: Result) -> JSON {
        guard case .object(let entries) = UsageView.json(result.usage, label: nil) else { return .null }
        return .object(
            [("date", .string(CivilDate.dateString(ofDay: result.day))), ("timeZone", .string(result.zone.name))]
                + entries)
    }

    static func text(_ result: Result) -> String {
        let heading = "today, \(CivilDate.dateString(ofDay: result.day)) (\(result.zone.name)):"
        let total = result.usage.total
        guard !result.usage.isEmpty else { return heading + " no usage recorded" }
        var lines = [
            heading + " \(CountsFormat.grouped(Int(total.counts.total))) tokens in \(CountsFormat.grouped(Int(total.events))) event\(total.events == 1 ? "" : "s")"
        ]
        var table = TextTable(header: UsageView.header("tool / model"))
        UsageView.addBreakdown(result.usage, to: &table, indent: "")
        lines += table.render().map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
