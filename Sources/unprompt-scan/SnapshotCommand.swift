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
        let context: ViewContext
        switch try ViewContext.open(arguments, catalog: catalog, environment: environment) {
        case .ready(let ready): context = ready
        case .failed(let code): return code
        }
        let document: JSON
        do {
            document = try snapshot(context)
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        print(document.text)
        return context.status
    }

    static func snapshot(_ context: ViewContext) throws(StoreError) -> JSON {
        let today = try TodaySummary.read(context)
        let limits = try LimitsReading.read(context)
        let days = try context.days(from: context.today - dayCount + 1, through: context.today)
        let calendar = context.calendar
        let offset = Int64(context.zone.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(context.now) / 1000)))
        func dayStart(_ day: Int64) -> JSON { .integer(calendar.firstQuarter(ofDay: day) * UsageStore.quarterMilliseconds) }
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
            ("version", .int(version)),
            ("generatedAt", .integer(context.now)),
            ("utcOffsetMinutes", .integer(offset / 60)),
            ("workHoursSet", .bool(!context.workHours.isEmpty)),
            ("usage", .object([
                ("day", .integer(today.day)),
                ("dayStart", dayStart(today.day)),
                ("tokens", .integer(reading.tokens)),
                ("measuredAt", today.measuredAt.map { .integer($0) } ?? .null),
                ("pace", .number(today.pace)),
                ("estimate", .integer(today.estimate.tokens)),
                ("live", .bool(today.estimate.live)),
                ("work", .object([("tokens", .integer(reading.workTokens))])),
                ("personal", .object([("tokens", .integer(reading.personalTokens))])),
                ("byTool", .array(byTool)),
                ("byModel", .array(byModel)),
            ])),
            ("uses", .object([
                ("today", .int(reading.uses)), ("work", .int(reading.workUses)), ("personal", .int(reading.personalUses)),
            ])),
            ("limits", .array(limits.statuses.map { status in
                let sample = status.sample
                return .object([
                    ("tool", .string(sample.tool)), ("window", .string(sample.window)),
                    ("usedPercent", sample.usedPercent.map { .number($0) } ?? .null),
                    ("windowMinutes", status.windowMinutes.map { .integer($0) } ?? .null),
                    ("resetsAt", sample.resetsAt.map { .integer($0) } ?? .null),
                    ("measuredAt", .integer(sample.time)),
                    ("stale", .bool(status.stale)),
                ])
            })),
            ("fiveHourWindows", .array(limits.windows.map { tool, window in
                .object([
                    ("tool", .string(tool)), ("start", .integer(window.start)), ("end", .integer(window.end)),
                    ("tokens", .integer(window.tokens)), ("endFromLimit", .bool(window.endFromLimit)),
                ])
            })),
            ("days", .array(days.map { day in
                .object([
                    ("day", .integer(day.day)), ("dayStart", dayStart(day.day)), ("tokens", .integer(day.tokens)),
                    ("band", .string(day.band.rawValue)), ("uses", .int(day.uses)),
                    ("workTokens", .integer(day.workTokens)), ("workUses", .int(day.workUses)),
                ])
            })),
        ])
    }
}
