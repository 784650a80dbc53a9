import Foundation
import UnpromptKit

/// `unprompt-scan limits [--tz ZONE] [--no-scan] [--wide] [--columns LIST] [--store PATH] [--json]`: every
/// tool's windows (`LimitsTable`).
enum LimitsCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let layout = try TableOptions.layout(arguments, environment: environment, columns: LimitsTable.ids, view: "limits")
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment) { queries throws(StoreError) in
            let report = try queries.limits()
            return arguments.has("--json") ? json(report, queries).text : text(report, queries, layout: layout)
        }
    }

    /// `{"now", "timeZone", "limits": [{"tool", "window", "usedPercent", "windowMinutes", "resetsAt", "time",
    /// "ageSeconds", "stale", "resetPassed", "resetsInSeconds", "pace"}], "fiveHourWindows": [{"tool", "start",
    /// "end", "tokens", "cost", "endFromLimit", "tokensPerHour"}], "readings"}`: instants as ISO-8601 UTC; `cost`
    /// as in `daily`; `pace` as `PaceFormat.json` writes it.
    static func json(_ report: LimitsReport, _ queries: UsageQueries) -> JSON {
        .object([
            ("now", .string(CountsFormat.instant(report.now))),
            ("timeZone", .string(queries.zone.name)),
            ("limits", .array(report.readings.map { reading in
                let status = reading.status
                let sample = status.sample
                return .object([
                    ("tool", .string(sample.tool)), ("window", .string(sample.window)),
                    ("usedPercent", sample.usedPercent.map { .number($0) } ?? .null),
                    ("windowMinutes", status.windowMinutes.map { .integer($0) } ?? .null),
                    ("resetsAt", sample.resetsAt.map { .string(CountsFormat.instant($0)) } ?? .null),
                    ("time", .string(CountsFormat.instant(sample.time))),
                    ("ageSeconds", .integer(status.age / 1000)),
                    ("stale", .bool(status.stale)),
                    ("resetPassed", .bool(status.resetPassed)),
                    ("resetsInSeconds", status.resetsIn.map { .integer($0 / 1000) } ?? .null),
                    ("pace", PaceFormat.json(reading.pace, instant: { .string(CountsFormat.instant($0)) })),
                ])
            })),
            ("fiveHourWindows", .array(report.windows.map { entry in
                .object([
                    ("tool", .string(entry.tool)), ("start", .string(CountsFormat.instant(entry.window.start))),
                    ("end", .string(CountsFormat.instant(entry.window.end))), ("tokens", .integer(entry.window.tokens)),
                    ("cost", ReadingsFormat.json(entry.cost)), ("endFromLimit", .bool(entry.window.endFromLimit)),
                    ("tokensPerHour", PaceFormat.json(entry.tokensPerHour)),
                ])
            })),
            ("readings", queries.readings.json),
        ])
    }

    static func text(_ report: LimitsReport, _ queries: UsageQueries, layout: TableLayout) -> String {
        let heading = "limits at \(LocalFormat.time(report.now, queries.calendar)) (\(queries.zone.name))"
        guard !report.tools.isEmpty else {
            return Prose.wrap(heading + ": no plan-limit readings and no 5-hour window in progress", width: layout.width).joined(separator: "\n")
        }
        let (table, notes) = LimitsTable.table(report, queries)
        return (Prose.wrap(heading, width: layout.width) + table.render(layout) + Prose.wrap(notes, width: layout.width))
            .joined(separator: "\n")
    }
}
