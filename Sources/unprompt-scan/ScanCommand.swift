import Foundation
import UnpromptKit

/// `unprompt-scan [--store PATH] [--json]`: an incremental scan into the store, then today's summary.
enum ScanCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        // Today is shown in the user's zone (`--tz`, else `TZ`, else the system zone); a bad zone, clock or
        // settings file is reported before any work is done.
        let opened: ViewOpener.Opened
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment, scan: true) {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        guard let report = view.scan else { preconditionFailure("a view opened with a scan has its report") }
        let json = arguments.has("--json")
        let today: TodayReport
        var limits: LimitsReport?
        do {
            today = try view.queries.today()
            if !json { limits = try view.queries.limits() }
        } catch {
            return StoreFailure.report(error)
        }
        if let limits {
            let layout = TableLayout(width: Terminal.width(environment), color: Terminal.colors(environment))
            print(Prose.wrap(text(report), width: layout.width).joined(separator: "\n"))
            print(
                TodaySummary.text(today, limits: limits, view.queries, layout: layout)
                    + ConfirmationFormat.todayLines(today, view.queries, terminal: isatty(STDOUT_FILENO) == 1))
        } else {
            print(JSON.object([("scan", self.json(report)), ("today", TodaySummary.json(today, view.queries))]).text)
        }
        return StoreFailure.report(view.storeProblems)
            ?? ExitCode.worst(report.readEverything ? .success : .sourcesUnreadable, opened.syncStatus)
    }

    static func json(_ report: ScanReport) -> JSON {
        .object([
            ("sources", .int(report.sources)), ("unchanged", .int(report.unchanged)), ("read", .int(report.read)),
            ("reread", .int(report.reread)), ("failed", .int(report.failed)), ("bytesRead", .integer(report.bytesRead)),
            ("events", .int(report.counted)), ("milliseconds", .number((report.elapsedMilliseconds * 10).rounded() / 10)),
            ("skipped", .object(report.skipped.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("problems", .array(report.problems.map { p in
                .object([("source", .int(p.source)), ("line", .int(p.line)), ("reason", .string(p.reason))])
            })),
        ])
    }

    static func text(_ report: ScanReport) -> String {
        var lines = [
            "scanned \(CountsFormat.grouped(report.sources)) sources: \(CountsFormat.grouped(report.read)) read (\(CountsFormat.grouped(report.reread)) from the start), \(CountsFormat.grouped(report.unchanged)) unchanged, \(CountsFormat.grouped(report.failed)) unreadable; \(CountsFormat.grouped(report.counted)) new events, in \(String(format: "%.0f", report.elapsedMilliseconds)) ms"
        ]
        for p in report.problems { lines.append("  " + ScanFormat.problem(source: p.source, line: p.line, reason: p.reason)) }
        return lines.joined(separator: "\n")
    }
}

/// `--store PATH`, else the platform's default location.
enum StoreLocation {
    static func path(_ arguments: Arguments, _ environment: [String: String]) -> String {
        arguments.single("--store") ?? UsageStore.defaultPath(environment: environment, home: HomeDirectory.path(environment))
    }
}

/// A source that could not be read, as every command writes it: by its number in reading order, never its path.
enum ScanFormat {
    static func problem(source: Int, line: Int, reason: String) -> String {
        (source == 0 ? "" : "read \(source), line \(line): ") + reason
    }
}
