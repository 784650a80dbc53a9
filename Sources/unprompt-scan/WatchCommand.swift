import Foundation
import UnpromptKit

/// `unprompt-scan watch [--store PATH] [--interval SECONDS] [--json]`: scan, then scan again whenever a
/// source changes, printing one line for each scan that counted something, until SIGINT or SIGTERM.
///
/// - Changes come from `ChangeWatcher` (inotify on Linux; polling every 2 s on macOS or when inotify
///   cannot be used). The watcher starts before the first scan, so nothing written meanwhile is missed.
/// - When to scan is `WatchLoop`'s (debounced changes, a full rescan every `--interval` seconds, 60 by
///   default); each round is `WatchScan`'s, descriptor by descriptor. With inotify an appended line reaches
///   the store in about 0.15 s plus the scan; with polling, within the poll interval more.
/// - A signal only sets the stop flag (a byte in the watcher's stop pipe). The flag is checked between
///   rounds and between the descriptors of one round, so the store is never left mid-transaction: every
///   source's events and checkpoint are committed together, and the current descriptor's scan finishes.
/// - With a sync folder in the settings (`config set sync-dir`), every round syncs (`RoundSync`): it imports
///   what is new in the folder, which is watched too, and writes this device's export at most once a minute.
enum WatchCommand {
    static let defaultInterval = 60.0

    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let interval = try self.interval(arguments)
        let json = arguments.has("--json")
        let path = StoreLocation.path(arguments, environment)
        let store: UsageStore
        do {
            store = try UsageStore(path: path)
            // Said once, at the start; the watch goes on (its lines show what the store holds).
            _ = StoreFailure.report(try store.problems())
        } catch {
            return StoreFailure.report(error)
        }
        guard let settings = SettingsLocation.load(arguments, environment) else { return .settings }
        var syncing: RoundSync?
        if let directory = settings.syncDirectory {
            guard let readings = Readings.open(mode: .calculate, environment: environment) else { return .invalidData }
            syncing = RoundSync(directory: directory, settings: settings, readings: readings)
        }
        let home = HomeDirectory.path(environment)
        let watcher = ChangeWatcher(
            targets: WatchTarget.targets(for: catalog.descriptors, environment: environment, home: home) + (syncing.map { [$0.target] } ?? []))
        StopSignals.install(wakingUp: watcher.stopDescriptor)
        defer { StopSignals.restore() }
        if isatty(STDERR_FILENO) == 1 {
            let how = watcher.backend == .inotify ? "inotify" : "polling every \(format(watcher.pollInterval)) s"
            printError(
                "unprompt-scan: watching \(watcher.targets.count) source locations (\(how)); a full rescan every \(format(interval)) s; Ctrl-C stops"
            )
        }

        var announcedFallback = false
        // The same scan as every other command, run one descriptor at a time.
        var scan = WatchScan(
            store: store,
            step: ScanStep(environment: environment, home: home, progress: { ProgressBar.forScan(environment: environment) }),
            descriptors: catalog.descriptors, clock: wallClock)
        let loop = WatchLoop(timing: WatchLoop.Timing(interval: .milliseconds(Int64(interval * 1000))))
        let stopped = loop.run(watcher) { stopRequested in
            announceFallback(watcher, &announcedFallback)
            let round = scan.round(stopRequested: stopRequested)
            for error in round.storeErrors { printError("unprompt-scan: store: \(error.message)") }
            guard !round.fatal else { return false }
            for problem in round.newProblems { printError("unprompt-scan: " + self.problem(problem)) }
            _ = syncing?.after(store, at: round.finishedAt)
            if let line = line(round, json: json) {
                print(line)
                // A pipe is block-buffered: each line must reach the reader when it happens.
                fflush(nil)
            }
            return true
        }
        return stopped ? .success : .store
    }

    /// The line printed for a round: nil when it counted nothing.
    static func line(_ round: WatchScan.Round, json: Bool) -> String? {
        let events = round.events
        guard events > 0 else { return nil }
        if json {
            return JSON.object([
                ("time", .string(CountsFormat.instant(round.finishedAt))), ("events", .int(events)),
                ("sources", .int(round.sourcesRead)),
                ("tools", .object(round.counted.map { ($0.tool, .int($0.events)) })),
            ]).text
        }
        let tools = round.counted.map { "\($0.tool): \(CountsFormat.grouped($0.events))" }.joined(separator: ", ")
        return "\(clockTime(round.finishedAt)) +\(CountsFormat.grouped(events)) \(events == 1 ? "event" : "events") (\(tools))"
    }

    static func problem(_ problem: WatchScan.Problem) -> String {
        "\(problem.tool): " + ScanFormat.problem(source: problem.source, line: problem.line, reason: problem.reason)
    }

    /// On Linux, polling means inotify failed (unavailable, or the watch limit reached): say so once,
    /// since changes are then seen within the poll interval rather than at once.
    static func announceFallback(_ watcher: ChangeWatcher, _ announced: inout Bool) {
        #if os(Linux)
            guard watcher.backend == .polling, !announced else { return }
            announced = true
            printError(
                "unprompt-scan: inotify is unavailable or its watch limit (fs.inotify.max_user_watches) is reached; polling every \(format(watcher.pollInterval)) s instead"
            )
        #endif
    }

    static func interval(_ arguments: Arguments) throws(UsageError) -> Double {
        guard let text = arguments.single("--interval") else { return defaultInterval }
        guard let value = Double(text), value.isFinite, value >= 1, value <= 86_400 else {
            throw UsageError("--interval takes a number of seconds from 1 to 86400; found '\(text)'")
        }
        return value
    }

    /// Milliseconds since 1970 by the system clock (the watch runs in real time, whatever `UNPROMPT_NOW` says).
    static func wallClock() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// `HH:MM:SS` in the local time zone.
    static func clockTime(_ milliseconds: Int64) -> String {
        var seconds = time_t(CivilDate.floorDivide(milliseconds, 1000))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
