import Foundation
import UnpromptKit

/// `unprompt-scan [--store PATH] [--json]`: an incremental scan into the store, then today's summary.
enum ScanCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        // Today is shown in the user's zone (`--tz`, else `TZ`, else the system zone); a bad zone, clock or
        // settings file is reported before any work is done.
        let view: OpenedView
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment, scan: true) {
        case .success(let opened): view = opened
        case .failure(let failure): return failure.status
        }
        guard let report = view.scan else { preconditionFailure("a view opened with a scan has its report") }
        let today: TodayReport
        do {
            today = try view.queries.today()
        } catch {
            return StoreFailure.report(error)
        }
        if arguments.has("--json") {
            print(JSON.object([("scan", json(report)), ("today", TodaySummary.json(today, view.queries))]).text)
        } else {
            print(text(report))
            print(
                TodaySummary.text(today, view.queries)
                    + ConfirmationFormat.todayLines(today, view.queries, terminal: isatty(STDOUT_FILENO) == 1))
        }
        return report.readEverything ? .success : .sourcesUnreadable
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
