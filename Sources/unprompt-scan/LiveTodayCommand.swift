import Foundation
import UnpromptKit

/// `unprompt-scan today --live`: today on one screen, kept up to date like `top` (`LiveSession`), until `q`,
/// Ctrl-C, SIGINT, SIGTERM or SIGHUP; the terminal is then as it was (`RawTerminal`).
///
/// - It scans as `watch` does: once at start, then within a second of every change (`ChangeWatcher`,
///   `WatchLoop`, `WatchScan`), and fully every 60 s; a signal or a key only stops it between two steps of a
///   scan, so the store is never left mid-transaction.
/// - It redraws once a second (`TickingChanges`): today's tokens tick with the live estimate and every limit
///   counts down, from the numbers queried after the last scan. In between it sleeps: one wakeup a second,
///   and the watcher's `poll` otherwise.
/// - With a sync folder in the settings, every round syncs as `watch`'s do (`RoundSync`): the folder is watched
///   with the sources, so another device's new export shows within a second or so; an export already imported
///   costs the read of its header.
/// - The clock is the system's, whatever `UNPROMPT_NOW` says: the screen runs in real time.
enum LiveTodayCommand {
    static func run(_ arguments: Arguments, layout: TableLayout, catalog: ReaderCatalog, environment: [String: String])
        throws(UsageError) -> ExitCode
    {
        for option in [Option.json, .noScan] where arguments.has(option.name) {
            throw UsageError("today --live does not take \(option.name): it keeps a screen up to date, scanning as logs change")
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw UsageError(
                "today --live draws on a terminal, and standard input and output are not both one; `unprompt-scan today` prints today once, `unprompt-scan watch` a line per scan")
        }
        let home = HomeDirectory.path(environment)
        // (Settings that do not load are said by the view opened below.)
        let syncFolder = (try? UserConfig.load(path: SettingsLocation.path(arguments, environment)))?.syncDirectory
        // Started before the first scan, so nothing written meanwhile is missed (in the sync folder either).
        let watcher = ChangeWatcher(
            targets: WatchTarget.targets(for: catalog.descriptors, environment: environment, home: home)
                + (syncFolder.map { [WatchTarget(directory: $0)] } ?? []))
        let view: OpenedView
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment, scan: true) {
        case .success(let opened): view = opened.view
        case .failure(let failure): return failure.status
        }
        guard let store = view.queries.store else { preconditionFailure("a view opened with a scan has its store") }
        var syncing = view.settings.syncDirectory.map { RoundSync(directory: $0, settings: view.settings, readings: view.queries.readings) }
        let session = LiveSession(queries: view.queries, layout: layout, environment: environment, watcher: watcher)
        do {
            try session.requery()
        } catch {
            return StoreFailure.report(error)
        }
        StopSignals.install(wakingUp: watcher.stopDescriptor, signals: [SIGINT, SIGTERM, SIGHUP])
        defer { StopSignals.restore() }
        guard let terminal = RawTerminal.enter() else {
            printError("unprompt-scan: today --live: the terminal's settings cannot be read or changed")
            return .usage
        }
        Keys.stop(watcher)
        var scan = WatchScan(
            store: store, step: ScanStep(environment: environment, home: home), descriptors: catalog.descriptors,
            clock: WatchCommand.wallClock)
        let loop = WatchLoop(timing: WatchLoop.Timing(interval: .milliseconds(Int64(WatchCommand.defaultInterval * 1000))))
        var fatal: StoreError?
        session.draw()
        _ = loop.run(TickingChanges(watcher, tick: session.draw)) { stopRequested in
            let round = scan.round(stopRequested: stopRequested)
            guard !round.fatal else {
                fatal = round.storeErrors.last
                return false
            }
            // What other devices exported since shows with this round's numbers.
            _ = syncing?.after(store, at: round.finishedAt)
            session.scanned(round)
            return true
        }
        terminal.restore()
        return fatal.map(StoreFailure.report) ?? .success
    }

    /// The keys that end the screen, read on a thread of their own (it blocks in `read`, costing nothing).
    enum Keys {
        /// `q`, `Q`, Ctrl-C and Ctrl-D; the end of input too.
        static let quit: Set<UInt8> = [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4]

        static func stop(_ watcher: ChangeWatcher) {
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while true {
                    let count = read(STDIN_FILENO, &byte, 1)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 || quit.contains(byte) { break }
                }
                watcher.stop()
            }
        }
    }
}
