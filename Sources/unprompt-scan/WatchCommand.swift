import Foundation
import UnpromptKit

/// `unprompt-scan watch [--store PATH] [--interval SECONDS] [--json]`: scan, then scan again whenever a
/// source changes, printing one line for each scan that counted something, until SIGINT or SIGTERM.
///
/// - Changes come from `ChangeWatcher` (inotify on Linux; polling every 2 s on macOS or when inotify
///   cannot be used). The watcher starts before the first scan, so nothing written meanwhile is missed.
/// - After a change, it waits until the sources have been quiet for `debounce` (at most `debounceLimit`
///   after the first change), so a burst of writes makes one scan. With inotify an appended line reaches
///   the store in about 0.15 s plus the scan; with polling, within the poll interval more.
/// - Every `--interval` seconds (60 by default) it rescans anyway, a stat-only pass when nothing changed:
///   the safety net for changes inotify cannot see (see `ChangeWatcher`).
/// - A signal only sets the stop flag (a byte in the watcher's stop pipe). The flag is checked between
///   scans and between the descriptors of one scan, so the store is never left mid-transaction: every
///   source's events and checkpoint are committed together, and the current descriptor's scan finishes.
enum WatchCommand {
    static let debounce = 0.15
    static let debounceLimit = 0.5
    static let defaultInterval = 60.0

    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        guard arguments.words.count == 1 else { throw UsageError("watch takes no arguments") }
        let interval = try self.interval(arguments)
        let json = arguments.has("--json")
        let path = try StoreLocation.path(arguments, environment)
        let store: UsageStore
        do {
            store = try UsageStore(path: path)
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        let home = HomeDirectory.path(environment)
        // The same scanner as every other command, run one descriptor at a time.
        let scanner = ScanStep(environment: environment, home: home).scanner(store)
        let watcher = ChangeWatcher(
            targets: WatchTarget.targets(for: catalog.descriptors, environment: environment, home: home))
        StopSignals.install(wakingUp: watcher.stopDescriptor)
        defer { StopSignals.restore() }
        if isatty(STDERR_FILENO) == 1 {
            let how = watcher.backend == .inotify ? "inotify" : "polling every \(format(watcher.pollInterval)) s"
            printError(
                "unprompt-scan: watching \(watcher.targets.count) source locations (\(how)); a full rescan every \(format(interval)) s; Ctrl-C stops"
            )
        }

        var announcedFallback = false
        announceFallback(watcher, &announcedFallback)
        var session = Session(json: json)
        let clock = ContinuousClock()
        var nextRescan = clock.now
        var changed = true
        while !watcher.isStopped {
            if changed || clock.now >= nextRescan {
                guard session.scan(catalog.descriptors, with: scanner, watcher: watcher, environment: environment) else {
                    return .store
                }
                nextRescan = clock.now.advanced(by: .milliseconds(Int64(interval * 1000)))
            }
            let left = clock.now.duration(to: nextRescan)
            changed = watcher.wait(timeout: max(0, seconds(left)))
            if changed { settle(watcher) }
            announceFallback(watcher, &announcedFallback)
        }
        return .success
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

    /// Lets a burst of writes end before scanning: quiet for `debounce`, or `debounceLimit` in all.
    static func settle(_ watcher: ChangeWatcher) {
        let clock = ContinuousClock()
        let limit = clock.now.advanced(by: .milliseconds(Int64(debounceLimit * 1000)))
        while clock.now < limit, !watcher.isStopped {
            guard watcher.wait(timeout: min(debounce, seconds(clock.now.duration(to: limit)))) else { return }
        }
    }

    static func interval(_ arguments: Arguments) throws(UsageError) -> Double {
        guard let text = try arguments.single("--interval") else { return defaultInterval }
        guard let value = Double(text), value.isFinite, value >= 1, value <= 86_400 else {
            throw UsageError("--interval takes a number of seconds from 1 to 86400; found '\(text)'")
        }
        return value
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// What one watch session has printed, so a failing source is reported when its problem appears, not
    /// on every scan.
    struct Session {
        let json: Bool
        var lastProblems: [String] = []

        /// One incremental scan, descriptor by descriptor (for the per-tool counts, and so a stop request
        /// waits for one descriptor's scan at most). False on a store error, which ends the watch.
        mutating func scan(
            _ descriptors: [Descriptor], with scanner: UnpromptKit.Scanner, watcher: ChangeWatcher, environment: [String: String]
        ) -> Bool {
            var perTool: [(String, Int)] = []
            var sources = 0
            var problems: [String] = []
            let started = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            var complete = true
            for descriptor in descriptors {
                if watcher.isStopped {
                    complete = false
                    break
                }
                let report: ScanReport
                do {
                    report = try scanner.scan([descriptor], progress: ProgressBar.forScan(environment: environment))
                } catch {
                    printError("unprompt-scan: store: \(error.message)")
                    complete = false
                    // Busy: another program holds the store; the next change or rescan tries again.
                    if error.busy { continue }
                    return false
                }
                if report.counted > 0 { perTool.append((descriptor.id, report.counted)) }
                sources += report.read
                problems += report.problems.map { p in
                    "\(descriptor.id): " + (p.source == 0 ? "" : "read \(p.source), line \(p.line): ") + p.reason
                }
            }
            // Every descriptor scanned: the store is measured as of this round's start (the live estimate's
            // measuredAt, as after any other scan).
            if complete {
                do {
                    try scanner.store.recordMeasurement(at: started)
                } catch {
                    printError("unprompt-scan: store: \(error.message)")
                    if !error.busy { return false }
                }
            }
            if problems != lastProblems {
                for problem in problems where !lastProblems.contains(problem) { printError("unprompt-scan: \(problem)") }
                lastProblems = problems
            }
            let events = perTool.reduce(0) { $0 + $1.1 }
            guard events > 0 else { return true }
            let now = Date()
            if json {
                let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
                print(
                    JSON.object([
                        ("time", .string(CountsFormat.instant(milliseconds))), ("events", .int(events)),
                        ("sources", .int(sources)),
                        ("tools", .object(perTool.map { ($0.0, .int($0.1)) })),
                    ]).text)
            } else {
                let tools = perTool.map { "\($0.0): \(CountsFormat.grouped($0.1))" }.joined(separator: ", ")
                print("\(clockTime(now)) +\(CountsFormat.grouped(events)) \(events == 1 ? "event" : "events") (\(tools))")
            }
            // A pipe is block-buffered: each line must reach the reader when it happens.
            fflush(nil)
            return true
        }

        /// `HH:MM:SS` in the local time zone.
        private func clockTime(_ date: Date) -> String {
            var seconds = time_t(date.timeIntervalSince1970)
            var parts = tm()
            localtime_r(&seconds, &parts)
            return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
        }
    }
}

/// SIGINT and SIGTERM ask the watch to stop: the handler only writes one byte to the watcher's stop pipe
/// (`write` is async-signal-safe), which wakes its `poll` and is seen as the stop flag between scans.
private enum StopSignals {
    nonisolated(unsafe) static var descriptor: Int32 = -1

    /// Without a stop pipe (it could not be made) the default actions stay: a signal still ends the process.
    static func install(wakingUp descriptor: Int32) {
        guard descriptor >= 0 else { return }
        self.descriptor = descriptor
        for signal in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if os(Linux)
                action.__sigaction_handler.sa_handler = { _ in
                    var byte: UInt8 = 1
                    _ = write(StopSignals.descriptor, &byte, 1)
                }
            #else
                action.__sigaction_u.__sa_handler = { _ in
                    var byte: UInt8 = 1
                    _ = write(StopSignals.descriptor, &byte, 1)
                }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        // A parent may have started us with these blocked (a blocked mask is inherited through exec).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    static func restore() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
