import Foundation
import UnpromptKit

/// `unprompt-scan limits [--tz ZONE] [--no-scan] [--store PATH] [--json]`.
enum LimitsCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        if arguments.words.count > 1 { throw UsageError("limits takes no argument '\(arguments.words[1])'") }
        return try ViewContext.show(arguments, catalog: catalog, environment: environment) { context throws(StoreError) in
            let reading = try LimitsReading.read(context)
            return arguments.has("--json") ? json(reading, context).text : text(reading, context)
        }
    }

    /// `{"now", "timeZone", "limits": [{"tool", "window", "usedPercent", "windowMinutes", "resetsAt", "time",
    /// "ageSeconds", "stale", "resetPassed", "resetsInSeconds"}], "fiveHourWindows": [{"tool", "start", "end",
    /// "tokens", "cost", "endFromLimit"}], "readings"}`: instants as ISO-8601 UTC; `cost` as in `daily`.
    static func json(_ reading: LimitsReading, _ context: ViewContext) -> JSON {
        .object([
            ("now", .string(CountsFormat.instant(context.now))),
            ("timeZone", .string(context.zone.name)),
            ("limits", .array(reading.statuses.map { status in
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
                ])
            })),
            ("fiveHourWindows", .array(reading.windows.map { entry in
                .object([
                    ("tool", .string(entry.tool)), ("start", .string(CountsFormat.instant(entry.window.start))),
                    ("end", .string(CountsFormat.instant(entry.window.end))), ("tokens", .integer(entry.window.tokens)),
                    ("cost", ReadingsFormat.json(entry.cost)), ("endFromLimit", .bool(entry.window.endFromLimit)),
                ])
            })),
            ("readings", context.readings.json),
        ])
    }

    static func text(_ reading: LimitsReading, _ context: ViewContext) -> String {
        let calendar = context.calendar
        let today = context.today
        func at(_ milliseconds: Int64) -> String { LocalFormat.moment(milliseconds, calendar, today: today) }
        var lines = ["limits at \(LocalFormat.time(context.now, calendar)) (\(context.zone.name))"]
        let tools = Set(reading.statuses.map(\.sample.tool) + reading.windows.map(\.tool)).sorted()
        guard !tools.isEmpty else { return lines[0] + ": no plan-limit readings and no 5-hour window in progress" }
        for tool in tools {
            lines.append(tool)
            if let entry = reading.windows.first(where: { $0.tool == tool }) {
                let window = entry.window
                let cost = ReadingsFormat.text(entry.cost)
                lines.append(
                    "  5-hour window: \(CountsFormat.grouped(Int(window.tokens))) tokens"
                        + (cost.isEmpty ? "" : " (\(cost) at API list prices)") + " so far, \(at(window.start)) to "
                        + "\(at(window.end)) (ends in \(LocalFormat.duration(window.end - context.now))"
                        + (window.endFromLimit ? ", the reset logged with a limit-reached record)" : ")"))
            } else if LimitsReading.derived.contains(where: { $0.tool == tool }) {
                lines.append("  5-hour window: none in progress; the next starts with the next request")
            }
            for status in reading.statuses where status.sample.tool == tool {
                lines.append("  " + line(status, at: at, now: context.now))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One reading: what it says, then where it stands now.
    static func line(_ status: LimitStatus, at: (Int64) -> String, now: Int64) -> String {
        let sample = status.sample
        var parts: [String] = []
        if sample.window == "limit_reached" {
            parts.append("limit reached at \(at(sample.time))")
        } else {
            var what = "\(sample.window): " + (sample.usedPercent.map { String(format: "%.1f%% used", $0) } ?? "used share unknown")
            if let minutes = sample.windowMinutes { what += " of a \(LocalFormat.window(minutes: minutes)) window" }
            parts.append(what)
        }
        if status.stale {
            parts.append("stale: logged \(LocalFormat.duration(status.age)) ago, longer ago than its window lasts")
        } else if status.resetPassed, let reset = sample.resetsAt {
            parts.append("reset at \(at(reset)), \(LocalFormat.duration(now - reset)) ago; no reading since")
        } else {
            if let reset = sample.resetsAt, let left = status.resetsIn {
                parts.append("resets at \(at(reset)), in \(LocalFormat.duration(left))")
            }
            if sample.window != "limit_reached" { parts.append("logged \(LocalFormat.duration(status.age)) ago") }
        }
        return parts.joined(separator: "; ")
    }
}
