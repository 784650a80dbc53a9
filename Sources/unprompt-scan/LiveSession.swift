import Foundation
import UnpromptKit

/// The screen of `today --live`: what it shows, and drawing it.
///
/// Today and the limits are queried after each scan (`LiveToday`); every second in between they are read at
/// the wall clock's moment through pure functions (the live estimate, the countdowns), and the store is
/// queried again only once a reset, a window's end or midnight has passed.
final class LiveSession {
    private var queries: UsageQueries
    private var frame: LiveToday?
    private let layout: TableLayout
    private let environment: [String: String]
    private let watching: String
    /// The last scan's line, and what went wrong lately (a store error, sources that could not be read).
    private var scanLine = "scanning…"
    private var problem: String?

    init(queries: UsageQueries, layout: TableLayout, environment: [String: String], watcher: ChangeWatcher) {
        self.queries = queries
        self.layout = layout
        self.environment = environment
        let how = watcher.backend == .inotify ? "inotify" : "polling every \(Int(watcher.pollInterval)) s"
        watching = "watching \(watcher.targets.count) source locations (\(how)), a full rescan every \(Int(WatchCommand.defaultInterval)) s"
    }

    /// Queries today and the limits again, at the wall clock's moment.
    func requery() throws(StoreError) {
        let now = WatchCommand.wallClock()
        queries = queries.at(now)
        frame = try queries.liveToday()
    }

    /// After a scan: the numbers queried again, and the scan's line.
    func scanned(_ round: WatchScan.Round) {
        let time = LocalFormat.time(round.finishedAt, queries.calendar, seconds: true)
        let events = round.events
        scanLine = "last scan \(time): "
            + (events == 0 ? "nothing new" : "\(CountsFormat.grouped(events)) new event\(events == 1 ? "" : "s") ("
                + round.counted.map { "\($0.tool) \(CountsFormat.grouped($0.events))" }.joined(separator: ", ") + ")")
        problem = nil
        if !round.newProblems.isEmpty {
            problem = "\(round.newProblems.count) sources could not be read at \(time); nothing of them was counted (`unprompt-scan` names them)"
        }
        if let error = round.storeErrors.last { problem = "store at \(time): \(error.message); the next scan retries" }
        refresh()
        draw()
    }

    /// Queries again (keeping the numbers shown when the store cannot be read now).
    private func refresh() {
        do {
            try requery()
        } catch {
            problem = "store: \(error.message); the numbers are from the scan before"
        }
    }

    func draw() {
        let now = WatchCommand.wallClock()
        if let frame, !frame.holds(at: now) { refresh() }
        let width = Terminal.width(of: STDOUT_FILENO, environment)
        let height = Terminal.height(of: STDOUT_FILENO) ?? 24
        var layout = self.layout
        layout.width = width
        var lines = [
            "today, live · \(LocalFormat.time(now, queries.calendar, seconds: true)) (\(queries.zone.name)) · q quits", "",
        ]
        if let frame {
            lines += TodaySummary.lines(
                frame.today, countdowns: frame.limits.countdowns(at: now), at: now, queries, layout: layout, seconds: true)
        }
        lines += [""] + Prose.parts([scanLine, watching], width: width) + (problem.map { Prose.wrap($0, width: width) } ?? [])
        RawTerminal.write(Self.screen(lines, width: width, height: height))
    }

    /// One frame: from the top left, each line cleared and written (cut to the width), the rest of the screen
    /// cleared; one line short of the bottom, so the last newline never scrolls.
    static func screen(_ lines: [String], width: Int?, height: Int) -> String {
        let shown = lines.prefix(max(1, height - 1)).map { line in
            "\u{1B}[2K" + Table.text(Table.cut([Table.Span(text: line)], width ?? line.count), color: false)
        }
        return "\u{1B}[H" + shown.joined(separator: "\n") + "\n\u{1B}[J"
    }
}
