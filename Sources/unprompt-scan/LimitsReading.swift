import Foundation
import UnpromptKit

/// Plan limits at the clock's moment: every tool's latest reading of each window (Codex's primary and
/// secondary: used %, window length, countdown to the reset; Claude's limit-reached records: the reset),
/// stale readings marked with their age, and the 5-hour windows derived from use (Claude's), with the cost of
/// their tokens at API list prices.
struct LimitsReading {
    /// A window in progress and the cost of its tokens so far (its buckets from the window's start to now).
    struct Window {
        let tool: String
        let window: FiveHourWindow
        let cost: CostReading
    }

    /// Tools whose windows are derived from when they were used, and the window their limit-reached
    /// records are logged under.
    static let derived = [(tool: "claude-code", resets: "limit_reached")]
    /// A reading's window when it names none: Claude's limit-reached records are about its 5-hour window.
    static let fallbackWindowMinutes = ["claude-code": Int64(300)]

    let statuses: [LimitStatus]
    let windows: [Window]

    static func read(_ context: ViewContext) throws(StoreError) -> LimitsReading {
        guard let store = context.store else { return LimitsReading(statuses: [], windows: []) }
        let statuses = try store.latestLimits(loggedBy: context.now).map { sample in
            LimitStatus(sample, now: context.now, fallbackWindowMinutes: fallbackWindowMinutes[sample.tool])
        }
        var windows: [Window] = []
        let since = context.now - FiveHourWindow.lookbackMilliseconds
        for (tool, resetWindow) in derived {
            let rows = try store.buckets(
                fromQuarter: CivilDate.floorDivide(since, Bucket.quarterMilliseconds),
                toQuarter: CivilDate.floorDivide(context.now, Bucket.quarterMilliseconds) + 1, tool: tool)
            let resets = try store.limitSamples(tool: tool, window: resetWindow, since: since - FiveHourWindow.length)
                .filter { $0.time <= context.now }
                .compactMap { sample in sample.resetsAt.map { (loggedAt: sample.time, resetsAt: $0) } }
            if let window = FiveHourWindow.current(rows: rows, resets: resets, now: context.now) {
                let inWindow = rows.filter { $0.quarter * Bucket.quarterMilliseconds >= window.start }
                windows.append(Window(tool: tool, window: window, cost: context.readings.pricer.reading(of: inWindow)))
            }
        }
        return LimitsReading(statuses: statuses, windows: windows)
    }
}
