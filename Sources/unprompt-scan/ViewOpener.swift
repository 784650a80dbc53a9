import Foundation
import UnpromptKit

/// How a command opens its view of the store (`UsageQueries.open`): the request built from its options, and
/// each way opening can fail printed once, with its exit status.
enum ViewOpener {
    /// Usage errors (a bad zone, clock or cost mode) are thrown before anything is opened or scanned.
    static func request(_ arguments: Arguments, environment: [String: String], scan: Bool, writable: Bool = false)
        throws(UsageError) -> ViewRequest
    {
        let zone = try ZoneOption.resolve(arguments.single("--tz"), environment: environment)
        let now = try Clock.now(environment)
        return ViewRequest(
            storePath: StoreLocation.path(arguments, environment), scan: scan,
            settingsPath: SettingsLocation.path(arguments, environment),
            readings: ReadingsLocation.beside(environment: environment), costMode: try CostModeOption.parse(arguments),
            zone: zone, now: now, device: arguments.single(Option.device.name), writable: writable)
    }

    /// Opens the view (scanning first unless `--no-scan`), or prints why it could not be and fails with the
    /// exit status to end with. A scan is followed by a sync when the settings name a sync folder
    /// (`config set sync-dir`), unless `sync` is false; its problems are printed and make `syncStatus` 1.
    static func open(
        _ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String], scan: Bool? = nil, writable: Bool = false,
        sync: Bool = true
    ) throws(UsageError) -> Result<Opened, Failure> {
        let request = try request(
            arguments, environment: environment, scan: scan ?? !arguments.has("--no-scan"), writable: writable)
        let step = ScanStep(
            environment: environment, home: HomeDirectory.path(environment), progress: { ProgressBar.forScan(environment: environment) })
        let view: OpenedView
        do {
            view = try UsageQueries.open(request, descriptors: catalog.descriptors, step: step)
        } catch {
            return .failure(Failure(status: try status(of: error)))
        }
        var syncStatus = ExitCode.success
        if sync, view.scan != nil, let directory = view.settings.syncDirectory {
            syncStatus = SyncRun.quietly(view.queries, settings: view.settings, directory: directory)
        }
        return .success(Opened(view: view, syncStatus: syncStatus))
    }

    /// Prints why a view could not be opened and gives the exit status to end with; an unknown `--device` is a
    /// usage error.
    static func status(of error: ViewOpeningError) throws(UsageError) -> ExitCode {
        switch error {
        case .settings(let error):
            printError("unprompt-scan: settings: \(error.description)")
            return .settings
        case .readings(let error):
            printError("unprompt-scan: \(error.message)")
            return .invalidData
        case .store(let error): return StoreFailure.report(error)
        case .device(let message): throw UsageError(message)
        }
    }

    struct Opened {
        let view: OpenedView
        /// 1 when the sync after the scan had problems (printed), else 0; a store error of the sync is 4.
        let syncStatus: ExitCode
    }

    struct Failure: Error {
        let status: ExitCode
    }

    /// The body of a view: opens it, renders its queries, prints the result (then `terminator`), and exits with
    /// the scan's status (`ScanWarning`); a store that cannot be read is reported with exit status 4, and so is one
    /// that can but holds something wrong (after the view, which shows what it holds).
    static func show(
        _ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String], terminator: String = "\n",
        render: (UsageQueries) throws(StoreError) -> String
    ) throws(UsageError) -> ExitCode {
        let opened: Opened
        switch try open(arguments, catalog: catalog, environment: environment) {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        let status = ExitCode.worst(ScanWarning.status(view.scan), opened.syncStatus)
        let output: String
        do {
            output = try render(view.queries)
        } catch {
            return StoreFailure.report(error)
        }
        print(output, terminator: terminator)
        return StoreFailure.report(view.storeProblems) ?? status
    }
}

/// A store that cannot be opened, read or written: said once, the same way everywhere (exit status 4).
enum StoreFailure {
    static func report(_ error: StoreError) -> ExitCode {
        printError("unprompt-scan: store: \(error.message)")
        return .store
    }

    /// What is wrong with a store that opened, each said once; nil when nothing is.
    static func report(_ problems: [StoreProblem]) -> ExitCode? {
        for problem in problems { printError("unprompt-scan: store: \(problem.message)") }
        return problems.isEmpty ? nil : .store
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
