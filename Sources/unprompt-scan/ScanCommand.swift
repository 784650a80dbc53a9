import Foundation
import UnpromptKit

/// `unprompt-scan [--store PATH] [--json]`: an incremental scan into the store, then today's summary.
enum ScanCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let path = try StoreLocation.path(arguments, environment)
        // Today is shown in the user's zone (`--tz`, else `TZ`, else the system zone); a bad zone, clock or
        // settings file is reported before any work is done.
        let zone = try ZoneOption.resolve(try arguments.single("--tz"), environment: environment)
        let now = try Clock.now(environment)
        guard let settings = try SettingsLocation.load(arguments, environment) else { return .settings }
        guard let readings = try Readings.open(arguments, environment) else { return .invalidData }
        let report: ScanReport
        let today: TodaySummary.Result
        do {
            let store = try UsageStore(path: path)
            report = try scan(store, catalog: catalog, environment: environment, now: now)
            let context = ViewContext(
                store: store, readings: readings, zone: zone, calendar: LocalCalendar(timeZone: zone.timeZone), workHours: settings.workHours,
                now: now, status: exitCode(report))
            today = try TodaySummary.read(context)
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        if arguments.has("--json") {
            print(JSON.object([("scan", json(report)), ("today", TodaySummary.json(today))]).text)
        } else {
            print(text(report))
            print(TodaySummary.text(today))
        }
        return exitCode(report)
    }

    /// The incremental scan every command that shows usage runs first, with a progress bar on a TTY. `now`,
    /// when it started, is recorded as when the store was last measured (the live estimate's `measuredAt`).
    static func scan(_ store: UsageStore, catalog: ReaderCatalog, environment: [String: String], now: Int64) throws(StoreError)
        -> ScanReport
    {
        let report = try scanner(store, environment: environment)
            .scan(catalog.descriptors, progress: ProgressBar.forScan(environment: environment))
        try store.recordMeasurement(at: now)
        return report
    }

    /// The one scanner configuration, for every command that scans. Times written without a zone
    /// (Aider's) are read in the system's zone, where the logs were written.
    static func scanner(_ store: UsageStore, environment: [String: String]) -> UnpromptKit.Scanner {
        Scanner(
            store: store, discovery: SourceDiscovery(environment: environment, home: HomeDirectory.path(environment)),
            timeZone: TimeZone.current)
    }

    static func exitCode(_ report: ScanReport) -> ExitCode {
        report.failed > 0 || report.unlistedDirectories > 0 ? .sourcesUnreadable : .success
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
        for p in report.problems {
            lines.append("  " + (p.source == 0 ? "" : "read \(p.source), line \(p.line): ") + p.reason)
        }
        return lines.joined(separator: "\n")
    }
}

/// `--store PATH`, else the platform's default location.
enum StoreLocation {
    static func path(_ arguments: Arguments, _ environment: [String: String]) throws(UsageError) -> String {
        try arguments.single("--store") ?? UsageStore.defaultPath(environment: environment, home: HomeDirectory.path(environment))
    }
}
