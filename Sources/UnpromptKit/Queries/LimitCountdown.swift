/// A window counting down to its reset: a plan-limit reading that still applies at a moment (not stale, its
/// reset known and ahead), or a window derived from use that is in progress. `today` shows those close to a
/// reset, and `today --live` counts every one down.
public struct LimitCountdown: Sendable {
    public enum Window: Sendable {
        /// A reading a tool logged (Codex's `primary`, `secondary`).
        case reading(LimitsReport.Reading)
        /// A window derived from use (Claude's 5 hours), with its tokens so far.
        case derived(LimitsReport.Window)
    }

    public let tool: String
    public let window: Window
    /// Milliseconds since 1970.
    public let resetsAt: Int64

    /// Milliseconds from `now` to the reset (0 once it has passed).
    public func resetsIn(at now: Int64) -> Int64 { max(0, resetsAt - now) }
}

extension LimitsReport {
    /// How near a reset must be for `today` to show its window: 24 hours, so every window of a few hours
    /// shows, and a weekly one on its last day. It is where a reset stands in time, nothing more: no share
    /// used makes a window show or hide.
    public static let closeToResetMilliseconds: Int64 = 24 * 3_600_000

    /// Every window counting down at `now` (the report's moment or later, the same local day), by tool, then
    /// by reset. A limit-reached record is left out where its tool's derived window is in progress: that
    /// window ends at the reset the record logged.
    public func countdowns(at now: Int64) -> [LimitCountdown] {
        var countdowns: [LimitCountdown] = []
        for window in windows where window.window.end > now {
            countdowns.append(LimitCountdown(tool: window.tool, window: .derived(window), resetsAt: window.window.end))
        }
        let inProgress = Set(countdowns.map(\.tool))
        for reading in readings {
            let status = reading.status
            guard let reset = status.sample.resetsAt, reset > now, !(reading.limitReached && inProgress.contains(status.sample.tool))
            else { continue }
            guard !LimitStatus(status.sample, now: now, fallbackWindowMinutes: status.windowMinutes).stale else { continue }
            countdowns.append(LimitCountdown(tool: status.sample.tool, window: .reading(reading), resetsAt: reset))
        }
        return countdowns.sorted { ($0.tool, $0.resetsAt) < ($1.tool, $1.resetsAt) }
    }

    /// The countdowns at `now` whose reset is at most `closeToResetMilliseconds` away.
    public func closeToReset(at now: Int64) -> [LimitCountdown] {
        countdowns(at: now).filter { $0.resetsAt - now <= Self.closeToResetMilliseconds }
    }

    /// The first moment after `now` at which `countdowns` changes otherwise than by counting down: a reset
    /// passes, a derived window ends, a reading turns stale. nil when none lies ahead.
    public func nextChange(after now: Int64) -> Int64? {
        var moments = windows.map(\.window.end)
        for reading in readings {
            let status = reading.status
            if let reset = status.sample.resetsAt { moments.append(reset) }
            if let minutes = status.windowMinutes { moments.append(status.sample.time + minutes * 60_000 + 1) }
        }
        return moments.filter { $0 > now }.min()
    }
}
