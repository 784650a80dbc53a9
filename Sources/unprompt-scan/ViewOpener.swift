import Foundation
import UnpromptKit

/// How a command opens its view of the store (`UsageQueries.open`): the request built from its options, and
/// each way opening can fail printed once, with its exit status.
enum ViewOpener {
    /// Usage errors (a bad zone, clock or cost mode) are thrown before anything is opened or scanned.
    static func request(_ arguments: Arguments, environment: [String: String], scan: Bool) throws(UsageError) -> ViewRequest {
        let zone = try ZoneOption.resolve(arguments.single("--tz"), environment: environment)
        let now = try Clock.now(environment)
        return ViewRequest(
            storePath: StoreLocation.path(arguments, environment), scan: scan,
            settingsPath: SettingsLocation.path(arguments, environment),
            readings: ReadingsLocation.beside(environment: environment), costMode: try CostModeOption.parse(arguments),
            zone: zone, now: now)
    }

    /// Opens the view (scanning first unless `--no-scan`) with the store open to write, for answers kept in
    /// it; fails like `open`.
    static func open(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String], writable: Bool)
        throws(UsageError) -> Result<OpenedView, Failure>
    {
        var request = try request(arguments, environment: environment, scan: !arguments.has("--no-scan"))
        request.writable = writable
        return open(request, catalog: catalog, environment: environment)
    }

    /// Opens the view (scanning first unless `--no-scan`), or prints why it could not be and fails with the
    /// exit status to end with.
    static func open(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String], scan: Bool? = nil)
        throws(UsageError) -> Result<OpenedView, Failure>
    {
        open(try request(arguments, environment: environment, scan: scan ?? !arguments.has("--no-scan")), catalog: catalog,
            environment: environment)
    }

    private static func open(_ request: ViewRequest, catalog: ReaderCatalog, environment: [String: String])
        -> Result<OpenedView, Failure>
    {
        let step = ScanStep(
            environment: environment, home: HomeDirectory.path(environment), progress: { ProgressBar.forScan(environment: environment) })
        let view: OpenedView
        do {
            view = try UsageQueries.open(request, descriptors: catalog.descriptors, step: step)
        } catch {
            switch error {
            case .settings(let error):
                printError("unprompt-scan: settings: \(error.description)")
                return .failure(Failure(status: .settings))
            case .readings(let error):
                printError("unprompt-scan: \(error.message)")
                return .failure(Failure(status: .invalidData))
            case .store(let error):
                return .failure(Failure(status: StoreFailure.report(error)))
            }
        }
        return .success(view)
    }

    struct Failure: Error {
        let status: ExitCode
    }

    /// The body of a view: opens it, renders its queries, prints the result (then `terminator`), and exits with the scan's
    /// status (`ScanWarning`); a store that cannot be read is reported with exit status 4.
    static func show(
        _ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String], terminator: String = "\n",
        render: (UsageQueries) throws(StoreError) -> String
    ) throws(UsageError) -> ExitCode {
        let view: OpenedView
        switch try open(arguments, catalog: catalog, environment: environment) {
        case .success(let opened): view = opened
        case .failure(let failure): return failure.status
        }
        let status = ScanWarning.status(view.scan)
        let output: String
        do {
            output = try render(view.queries)
        } catch {
            return StoreFailure.report(error)
        }
        print(output, terminator: terminator)
        return status
    }
}

/// A store that cannot be opened, read or written: said once, the same way everywhere (exit status 4).
enum StoreFailure {
    static func report(_ error: StoreError) -> ExitCode {
        printError("unprompt-scan: store: \(error.message)")
        return .store
    }
}

/// The scan a view runs first keeps its report off standard output (which holds the view): sources that
/// could not be read are named on standard error and make the exit status 1; the view still shows what the
/// store holds.
enum ScanWarning {
    static func status(_ report: ScanReport?) -> ExitCode {
        guard let report, !report.readEverything else { return .success }
        printError(
            "unprompt-scan: \(CountsFormat.grouped(report.failed)) sources and \(CountsFormat.grouped(report.unlistedDirectories)) directories could not be read; nothing of them was counted (a plain `unprompt-scan` shows details)")
        for p in report.problems { printError("  " + ScanFormat.problem(source: p.source, line: p.line, reason: p.reason)) }
        return .sourcesUnreadable
    }
}
