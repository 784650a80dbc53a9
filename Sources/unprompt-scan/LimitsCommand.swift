import Foundation
import UnpromptKit

/// `unprompt-scan limits [--tz ZONE] [--no-scan] [--store PATH] [--json]`.
enum LimitsCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment) { queries throws(StoreError) in
            let report = try queries.limits()
            return arguments.has("--json") ? json(report, queries).text : text(report, queries)
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

    static func text(_ report: LimitsReport, _ queries: UsageQueries) -> String {
        let calendar = queries.calendar
        let today = queries.currentDay
        let now = report.now
        func at(_ milliseconds: Int64) -> String { LocalFormat.moment(milliseconds, calendar, today: today) }
        var lines = ["limits at \(LocalFormat.time(now, calendar)) (\(queries.zone.name))"]
        let tools = report.tools
        guard !tools.isEmpty else { return lines[0] + ": no plan-limit readings and no 5-hour window in progress" }
        for tool in tools {
            lines.append(tool)
            if let entry = report.windows.first(where: { $0.tool == tool }) {
                let window = entry.window
                let cost = ReadingsFormat.text(entry.cost)
                lines.append(
                    "  \(LocalFormat.window(minutes: entry.minutes)) window: \(CountsFormat.grouped(Int(window.tokens))) tokens"
                        + (cost.isEmpty ? "" : " (\(cost) at API list prices)") + " so far, \(at(window.start)) to "
                        + "\(at(window.end)) (ends in \(LocalFormat.duration(entry.endsIn))"
                        + (window.endFromLimit ? ", the reset logged with a limit-reached record)" : ")"))
                if let line = PaceFormat.text(tokensPerHour: entry.tokensPerHour, since: window.start, at: at) { lines.append("    " + line) }
            } else if let minutes = report.derived[tool] {
                lines.append("  \(LocalFormat.window(minutes: minutes)) window: none in progress; the next starts with the next request")
            }
            for reading in report.readings where reading.status.sample.tool == tool {
                lines.append("  " + line(reading, at: at))
                if let pace = reading.pace { lines.append("    " + PaceFormat.text(pace, at: at)) }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One reading: what it says, then where it stands now.
    static func line(_ reading: LimitsReport.Reading, at: (Int64) -> String) -> String {
        let status = reading.status
        let sample = status.sample
        var parts: [String] = []
        if reading.limitReached {
            parts.append("limit reached at \(at(sample.time))")
        } else {
            var what = "\(sample.window): " + (sample.usedPercent.map { String(format: "%.1f%% used", $0) } ?? "used share unknown")
            if let minutes = sample.windowMinutes { what += " of a \(LocalFormat.window(minutes: minutes)) window" }
            parts.append(what)
        }
        if status.stale {
            parts.append("stale: logged \(LocalFormat.duration(status.age)) ago, longer ago than its window lasts")
        } else if let reset = sample.resetsAt, let since = reading.sinceReset {
            parts.append("reset at \(at(reset)), \(LocalFormat.duration(since)) ago; no reading since")
        } else {
            if let reset = sample.resetsAt, let left = status.resetsIn {
                parts.append("resets at \(at(reset)), in \(LocalFormat.duration(left))")
            }
            if !reading.limitReached { parts.append("logged \(LocalFormat.duration(status.age)) ago") }
        }
        return parts.joined(separator: "; ")
    }
}
