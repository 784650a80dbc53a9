import Foundation
import UnpromptKit

/// `unprompt-scan statusline [--tool ID] [--tz ZONE] [--cost-mode M] [--store PATH] [--readers-dir DIR]`: the
/// command of a tool's status line (Claude Code's `statusLine` in settings.json). It reads the tool's JSON
/// document on standard input, records the plan-limit readings its descriptor's `status_line` names
/// (numbers only: the document holds paths, and nothing else of it is kept or printed), then prints one line:
/// today's tokens across every tool, their cost at API list prices, and each of those windows' used share
/// and countdown.
///
/// It runs each time the line is drawn, so it does the least it can (`UsageQueries.openStatusLine`): no scan
/// (a running `watch`, or any view, keeps the store current; the line says when it was last measured), only
/// the descriptors that mention a status line, only today's price rows, no settings, and no write when the
/// readings are those already recorded. A payload that cannot be read, or a store busy with a scan, is said
/// on standard error, and the line is printed all the same, with exit status 0 (the tool shows only what a
/// command that succeeded printed).
enum StatusLineCommand {
    static func run(_ arguments: Arguments, environment: [String: String]) throws(UsageError) -> ExitCode {
        let request = try ViewOpener.request(arguments, environment: environment, scan: false)
        let directories = ReaderLocation.directories(flag: arguments.single(Option.readersDir.name), environment: environment)
        let statusLines = StatusLinePayload.readers(in: directories)
        if !statusLines.errors.isEmpty {
            for error in statusLines.errors { printError(error.description) }
            return .invalidDescriptor
        }
        let tools = arguments.all(Option.tool.name)
        if tools.count > 1 { throw UsageError("statusline takes one --tool") }
        let reader = try self.reader(statusLines.found, tool: tools.first)
        var samples: [LimitSample] = []
        if let reader, isatty(STDIN_FILENO) == 0 {
            do {
                samples = try StatusLinePayload.readings(readInput(), of: reader, now: request.now)
            } catch {
                printError("unprompt-scan: statusline: \(error.message); no reading recorded")
            }
        }
        let queries: UsageQueries
        do {
            queries = try UsageQueries.openStatusLine(request)
        } catch {
            return try ViewOpener.status(of: error)
        }
        let report: StatusLineReport
        do {
            if let store = queries.store {
                try record(try store.readingsToRecord(samples), storePath: request.storePath)
            } else if !samples.isEmpty {
                printError("unprompt-scan: statusline: no store yet (run unprompt-scan once); no reading recorded")
            }
            report = try queries.statusLine(tool: reader?.tool ?? "", windows: reader?.rule.windows.map(\.name) ?? [])
        } catch {
            return StoreFailure.report(error)
        }
        print(StatusLineFormat.line(report, storeExists: queries.store != nil, calendar: queries.calendar))
        return .success
    }

    /// The status line this is: `--tool`'s, else the only one a descriptor declares.
    static func reader(_ declaring: [StatusLineReader], tool: String?) throws(UsageError) -> StatusLineReader? {
        if let tool {
            guard let found = declaring.first(where: { $0.tool == tool }) else {
                throw UsageError("--tool: no reader named '\(tool)' declares a status_line; those that do: "
                    + (declaring.isEmpty ? "none" : declaring.map(\.tool).joined(separator: ", ")))
            }
            return found
        }
        guard declaring.count <= 1 else {
            throw UsageError("several readers declare a status_line (\(declaring.map(\.tool).joined(separator: ", "))): give --tool ID")
        }
        if declaring.isEmpty { printError("unprompt-scan: statusline: no reader declares a status_line; no reading recorded") }
        return declaring.first
    }

    /// A store busy with another writer keeps its readings for the next line, a moment later.
    static func record(_ samples: [LimitSample], storePath: String) throws(StoreError) {
        do {
            try UsageStore.recordReadings(samples, storePath: storePath)
        } catch where error.busy {
            printError("unprompt-scan: statusline: the store is busy (a scan is writing); the readings wait for the next line")
        }
    }

    /// Standard input, up to one byte past the payload limit (so a larger input is seen as such).
    static func readInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= StatusLinePayload.maxBytes {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}

/// The status line: `1.2M tokens today · $4.10 at API prices · 5h 42% (resets in 2h 13m) · 7d 18% (resets in 3d 4h)`.
enum StatusLineFormat {
    static func line(_ report: StatusLineReport, storeExists: Bool, calendar: LocalCalendar) -> String {
        guard storeExists else { return "no usage measured yet: run unprompt-scan" }
        var tokens = "\(LocalFormat.compact(report.estimate.tokens)) tokens today"
        if let measuredAt = report.measuredAt, !report.estimate.live {
            tokens += " (measured \(LocalFormat.moment(measuredAt, calendar, today: report.day)))"
        }
        var parts = [tokens]
        let cost = ReadingsFormat.text(report.readings.cost)
        if !cost.isEmpty { parts.append(cost + " at API prices") }
        for reading in report.limits where !reading.status.stale && !reading.status.resetPassed {
            let sample = reading.status.sample
            guard let used = sample.usedPercent else { continue }
            var part = "\(window(reading.status.windowMinutes) ?? sample.window) \(percent(used))"
            if let left = reading.status.resetsIn { part += " (resets in \(LocalFormat.duration(left)))" }
            parts.append(part)
        }
        return parts.joined(separator: " · ")
    }

    /// `5h`, `7d`, `90m`.
    static func window(_ minutes: Int64?) -> String? {
        guard let minutes, minutes > 0 else { return nil }
        if minutes % 1440 == 0 { return "\(minutes / 1440)d" }
        if minutes % 60 == 0 { return "\(minutes / 60)h" }
        return "\(minutes)m"
    }

    /// `42%`, `23.5%`.
    static func percent(_ value: Double) -> String {
        value == value.rounded() ? String(format: "%.0f%%", value) : String(format: "%.1f%%", value)
    }
}
