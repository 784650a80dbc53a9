import Foundation
import UnpromptKit

/// `unprompt-scan [--store PATH] [--json]`: an incremental scan into the store, then today's summary.
enum ScanCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let path = try StoreLocation.path(arguments, environment)
        let store: UsageStore
        do {
            store = try UsageStore(path: path)
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        let scanner = Scanner(store: store, discovery: SourceDiscovery(environment: environment, home: NSHomeDirectory()))
        let report: ScanReport
        do {
            report = try scanner.scan(catalog.descriptors)
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        if arguments.has("--json") {
            print(JSON.object([("scan", json(report))]).text)
        } else {
            print(text(report))
        }
        return report.failed > 0 || report.unlistedDirectories > 0 ? .sourcesUnreadable : .success
    }

    static func json(_ report: ScanReport) -> JSON {
        .object([
            ("sources", .int(report.sources)), ("unchanged", .int(report.unchanged)), ("read", .int(report.read)),
            ("reread", .int(report.reread)), ("failed", .int(report.failed)), ("bytesRead", .integer(report.bytesRead)),
            ("events", .int(report.counted)),
            ("skipped", .object(report.skipped.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("problems", .array(report.problems.map { p in
                .object([("source", .int(p.source)), ("line", .int(p.line)), ("reason", .string(p.reason))])
            })),
        ])
    }

    static func text(_ report: ScanReport) -> String {
        var lines = [
            "scanned \(CountsFormat.grouped(report.sources)) sources: \(CountsFormat.grouped(report.read)) read (\(CountsFormat.grouped(report.reread)) from the start), \(CountsFormat.grouped(report.unchanged)) unchanged, \(CountsFormat.grouped(report.failed)) unreadable; \(CountsFormat.grouped(report.counted)) new events"
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
        try arguments.single("--store") ?? UsageStore.defaultPath(environment: environment, home: NSHomeDirectory())
    }
}
