import Foundation
import UnpromptKit

/// `unprompt-scan snapshot [--json] [--tz ZONE] [--no-scan] [--store PATH] [--config FILE]`: one versioned
/// document for widgets and the phone, always JSON, described by `docs/snapshot.schema.json`.
///
/// It holds numbers only: instants as milliseconds since 1970, local days as day numbers (days since
/// 1970-01-01 in the person's zone), and no string but enumerated ids — tool ids, model ids, limit window
/// names and band names. Everything in it comes from the store and the clock, as the other views show it:
/// `usage` is today's line, `uses` today's episodes, `limits` and `fiveHourWindows` the `limits` view,
/// and `days` the last 35 days of the calendar, today included.
enum SnapshotCommand {
    static let version = 1
    static let dayCount: Int64 = 35

    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        if arguments.words.count > 1 { throw UsageError("snapshot takes no argument '\(arguments.words[1])'") }
        return try ViewContext.show(arguments, catalog: catalog, environment: environment) { context throws(StoreError) in
            try snapshot(context).text
        }
    }

    static func snapshot(_ context: ViewContext) throws(StoreError) -> JSON {
        let today = try TodaySummary.read(context)
        let limits = try LimitsReading.read(context)
        let firstDay = context.today - dayCount + 1
        let days = try context.days(from: firstDay, through: context.today)
        let dayCells = try dayReadings(context, from: firstDay)
        let offset = Int64(context.zone.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(context.now) / 1000)))
        return .object([
            ("version", .int(version)),
            ("generatedAt", .integer(context.now)),
            ("utcOffsetMinutes", .integer(offset / 60)),
            ("workHoursSet", .bool(!context.workHours.isEmpty)),
            ("usage", usage(today, context)),
            ("uses", .object([
                ("today", .int(today.reading.uses)), ("work", .int(today.reading.workUses)),
                ("personal", .int(today.reading.personalUses)),
            ])),
            ("limits", .array(limits.statuses.map(limit))),
            ("fiveHourWindows", .array(limits.windows.map { entry in
                .object([
                    ("tool", .string(entry.tool)), ("start", .integer(entry.window.start)), ("end", .integer(entry.window.end)),
                    ("tokens", .integer(entry.window.tokens)), ("cost", cost(entry.cost)),
                    ("endFromLimit", .bool(entry.window.endFromLimit)),
                ])
            })),
            ("days", .array(days.map { day in
                let cell = dayCells[day.day] ?? ReadingCell()
                return .object([
                    ("day", .integer(day.day)), ("dayStart", dayStart(day.day, context)), ("tokens", .integer(day.tokens)),
                    ("cost", cost(cell.cost)), ("water", water(cell.water)),
                    ("band", .string(day.band.rawValue)), ("uses", .int(day.uses)),
                    ("workTokens", .integer(day.workTokens)), ("workUses", .int(day.workUses)),
                ])
            })),
        ])
    }

    static func usage(_ today: TodaySummary.Result, _ context: ViewContext) -> JSON {
        let reading = today.reading
        let usage = today.usage
        let byTool: [JSON] = usage.byTool.keys.sorted().map { tool in
            .object([("tool", .string(tool)), ("tokens", .integer(usage.total(ofTool: tool).counts.total))])
        }
        let byModel: [JSON] = usage.byTool.keys.sorted().flatMap { tool in
            usage.byTool[tool]!.sorted { $0.key < $1.key }.map { model, cell -> JSON in
                .object([("tool", .string(tool)), ("model", .string(model)), ("tokens", .integer(cell.counts.total))])
            }
        }
        return .object([
            ("day", .integer(today.day)),
            ("dayStart", dayStart(today.day, context)),
            ("tokens", .integer(reading.tokens)),
            ("cost", cost(today.readings.total.cost)),
            ("water", water(today.readings.total.water)),
            ("measuredAt", today.measuredAt.map { .integer($0) } ?? .null),
            ("pace", .number(today.pace)),
            ("estimate", .integer(today.estimate.tokens)),
            ("live", .bool(today.estimate.live)),
            ("work", .object([("tokens", .integer(reading.workTokens))])),
            ("personal", .object([("tokens", .integer(reading.personalTokens))])),
            ("byTool", .array(byTool)),
            ("byModel", .array(byModel)),
        ])
    }

    static func limit(_ status: LimitStatus) -> JSON {
        let sample = status.sample
        return .object([
            ("tool", .string(sample.tool)), ("window", .string(sample.window)),
            ("usedPercent", sample.usedPercent.map { .number($0) } ?? .null),
            ("windowMinutes", status.windowMinutes.map { .integer($0) } ?? .null),
            ("resetsAt", sample.resetsAt.map { .integer($0) } ?? .null),
            ("measuredAt", .integer(sample.time)),
            ("stale", .bool(status.stale)),
        ])
    }

    /// Cost and water of each local day from `firstDay` through today.
    static func dayReadings(_ context: ViewContext, from firstDay: Int64) throws(StoreError) -> [Int64: ReadingCell] {
        guard let store = context.store else { return [:] }
        let bounds = LocalCalendar.quarterBounds(fromDay: firstDay, throughDay: context.today)
        let rows = try store.buckets(fromQuarter: bounds.lowerBound, toQuarter: bounds.upperBound)
        return context.calendar.partition(rows, by: .day, fromDay: firstDay, throughDay: context.today).mapValues { rows in
            var cell = ReadingCell()
            for row in rows { cell.add(row, context.readings) }
            return cell
        }
    }

    static func dayStart(_ day: Int64, _ context: ViewContext) -> JSON {
        .integer(context.calendar.firstQuarter(ofDay: day) * Bucket.quarterMilliseconds)
    }

    /// `{"usd", "unpricedTokens", "approximateTokens"}`: `usd` at API list prices (logged costs as the cost
    /// mode says), null when nothing has a cost, never 0 for that.
    static func cost(_ reading: CostReading) -> JSON {
        .object([
            ("usd", reading.hasCost ? .number(ReadingsFormat.rounded(reading.usd)) : .null),
            ("unpricedTokens", .integer(reading.uncostedTokens)),
            ("approximateTokens", .integer(reading.approximateTokens)),
        ])
    }

    /// `{"low", "central", "high"}` liters.
    static func water(_ reading: WaterReading) -> JSON { ReadingsFormat.json(reading.liters) }
}
