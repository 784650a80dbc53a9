import Foundation
import UnpromptKit

/// `unprompt-scan sync [--dir DIR] [--no-scan] [--store PATH] [--config FILE] [--json]`: a scan (unless
/// `--no-scan`), then this device's export written into the sync folder and every other device's imported
/// (`DeviceSync`). The folder is `--dir`, else the settings' `sync-dir`.
enum SyncCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let given = arguments.single(Option.dir.name).map(FolderOption.absolute)
        let opened: ViewOpener.Opened
        switch try ViewOpener.open(
            arguments, catalog: catalog, environment: environment, scan: !arguments.has(Option.noScan.name), writable: true,
            sync: false)
        {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        guard let directory = given ?? view.settings.syncDirectory else {
            throw UsageError("sync needs a folder: --dir DIR, or `unprompt-scan config set sync-dir DIR` once")
        }
        let scanStatus = ScanWarning.status(view.scan)
        let report: SyncReport
        let label: String
        switch SyncRun.sync(view.queries, settings: view.settings, directory: directory) {
        case .success(let result): (report, label) = result
        case .failure(let failure): return ExitCode.worst(scanStatus, failure.status)
        }
        let device: String
        do {
            device = try view.queries.store!.deviceID()
        } catch {
            return StoreFailure.report(error)
        }
        print(arguments.has(Option.json.name) ? json(report, device: device, label: label).text : text(report, label: label))
        return ExitCode.worst(scanStatus, report.complete ? .success : .sourcesUnreadable)
    }

    /// `{"device": {"id", "label"}, "export": {"sequence", "written", "bytes"}, "imported": [{"device", "label",
    /// "sequence", "tokens"}], "unchanged", "refused": [{"device", "label", "copy", "reason"}], "partial",
    /// "milliseconds"}`.
    static func json(_ report: SyncReport, device: String, label: String) -> JSON {
        .object([
            ("device", .object([("id", .string(device)), ("label", .string(label))])),
            ("export", .object([
                ("sequence", .integer(report.sequence)), ("written", .bool(report.wrote)), ("bytes", .int(report.exportBytes)),
            ])),
            ("imported", .array(report.imported.map { entry in
                .object([
                    ("device", .string(entry.device)), ("label", .string(entry.label)), ("sequence", .integer(entry.sequence)),
                    ("tokens", .integer(entry.tokens)),
                ])
            })),
            ("unchanged", .int(report.unchanged)),
            ("refused", .array(report.refused.map { refusal in
                .object([
                    ("device", refusal.device.map { .string($0) } ?? .null), ("label", refusal.label.map { .string($0) } ?? .null),
                    ("copy", .bool(refusal.copy)), ("reason", .string(refusal.problem.message)),
                ])
            })),
            ("partial", .int(report.partial)),
            ("milliseconds", .number((report.milliseconds * 10).rounded() / 10)),
        ])
    }

    static func text(_ report: SyncReport, label: String) -> String {
        var lines = [
            report.wrote
                ? "sync: wrote this device's export (\(label), sequence \(report.sequence), \(CountsFormat.grouped(report.exportBytes)) bytes)"
                : "sync: this device's export (\(label), sequence \(report.sequence)) was already up to date"
        ]
        if report.imported.isEmpty {
            lines.append("imported no device")
        } else {
            lines.append("imported \(report.imported.count) \(report.imported.count == 1 ? "device" : "devices"):")
            for entry in report.imported {
                lines.append(
                    "  \(entry.label) (\(entry.device.prefix(8))): sequence \(entry.sequence), \(CountsFormat.grouped(Int(entry.tokens))) tokens")
            }
        }
        lines.append(
            "\(report.unchanged) \(report.unchanged == 1 ? "device" : "devices") unchanged; \(report.partial) partial \(report.partial == 1 ? "file" : "files") left for the next sync; in \(String(format: "%.0f", report.milliseconds)) ms")
        return lines.joined(separator: "\n")
    }
}

/// The sync, as `sync`, a view's scan and `watch` run it: its problems said on standard error, the same way.
enum SyncRun {
    struct Failure: Error {
        let status: ExitCode
    }

    /// Syncs `view`'s store with `directory`; refused files are printed here (the report still says them).
    static func sync(_ queries: UsageQueries, settings: UserConfig, directory: String, export: Bool = true)
        -> Result<(SyncReport, String), Failure>
    {
        guard let store = queries.store else { preconditionFailure("a sync opens its store for writing") }
        let label: String
        do {
            label = UsageQueries.label(settings, device: try store.deviceID())
        } catch {
            return .failure(Failure(status: StoreFailure.report(error)))
        }
        let report: SyncReport
        do {
            report = try DeviceSync.run(queries, directory: directory, label: label, export: export)
        } catch {
            switch error {
            case .store(let error): return .failure(Failure(status: StoreFailure.report(error)))
            case .folder(let error):
                printError("unprompt-scan: sync: \(error.message)")
                return .failure(Failure(status: .sourcesUnreadable))
            }
        }
        for refusal in report.refused { printError("unprompt-scan: sync: " + refused(refusal)) }
        return .success((report, label))
    }

    /// A sync after a scan: only its problems are printed. 1 when there were some, 4 for a store error.
    static func quietly(_ queries: UsageQueries, settings: UserConfig, directory: String, export: Bool = true) -> ExitCode {
        switch sync(queries, settings: settings, directory: directory, export: export) {
        case .success(let (report, _)): report.complete ? .success : .sourcesUnreadable
        case .failure(let failure): failure.status
        }
    }

    /// `refused the export of laptop (device 3f2a1b2c): it is cut short or damaged (…); its previous import stays`.
    static func refused(_ refusal: SyncReport.Refused) -> String {
        let who: String
        switch (refusal.label, refusal.device) {
        case (let label?, let device?): who = "\(label) (device \(device.prefix(8)))"
        case (nil, let device?): who = "an unknown device (device \(device.prefix(8)))"
        case (let label?, nil): who = label
        case (nil, nil): who = "an unknown device"
        }
        let what = refusal.copy ? "a copy of the export of" : "the export of"
        return "refused \(what) \(who): \(refusal.problem.message); \(refusal.label == nil && refusal.device == nil ? "nothing of it was imported" : "its previous import stays")"
    }
}

/// A folder given on the command line, made absolute (the settings keep absolute paths).
enum FolderOption {
    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return expanded }
        return FileManager.default.currentDirectoryPath + "/" + expanded
    }
}

/// The sync of a command that keeps running (`watch`, `today --live`), with `config set sync-dir`: after every
/// scan round it imports what is new in the folder (an export already imported costs the read of its header),
/// and writes this device's export at most every `exportSeconds`, so a sync engine is not handed a new file
/// every second and each export is at most that old. The folder is watched with the sources (`target`), so
/// another device's new export starts a round.
struct RoundSync {
    static let exportSeconds: Int64 = 60

    let directory: String
    let settings: UserConfig
    let readings: Readings
    private var lastExport: Int64?

    init(directory: String, settings: UserConfig, readings: Readings) {
        self.directory = directory
        self.settings = settings
        self.readings = readings
    }

    /// The folder, watched with the sources.
    var target: WatchTarget { WatchTarget(directory: directory) }

    /// Syncs `store` after a round that finished at `now`; the exit status a sync would end with.
    mutating func after(_ store: UsageStore, at now: Int64) -> ExitCode {
        let exporting = lastExport.map { now - $0 >= Self.exportSeconds * 1000 } ?? true
        if exporting { lastExport = now }
        let queries = UsageQueries(
            store: store, readings: readings, zone: .utc, workHours: settings.workHours, now: now, descriptors: [])
        return SyncRun.quietly(queries, settings: settings, directory: directory, export: exporting)
    }
}
