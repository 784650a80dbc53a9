/// A plan-limit reading found in a log: how full one window was at one moment, and when it resets.
public struct LimitSample: Sendable, Equatable {
    public let tool: String
    /// Milliseconds since 1970 of the record that carried the reading.
    public let time: Int64
    /// The window's name as the descriptor gives it, e.g. `primary`, `secondary`, `five_hour`.
    public let window: String
    public let usedPercent: Double?
    public let windowMinutes: Int64?
    /// Milliseconds since 1970 at which the window resets, when known.
    public let resetsAt: Int64?

    public init(
        tool: String, time: Int64, window: String, usedPercent: Double?, windowMinutes: Int64?, resetsAt: Int64?
    ) {
        self.tool = tool
        self.time = time
        self.window = window
        self.usedPercent = usedPercent
        self.windowMinutes = windowMinutes
        self.resetsAt = resetsAt
    }
}

extension LimitSample {
    /// The latest reading of each tool's window (the later sample wins a tie), sorted by tool and window.
    /// Limit readings are gauges, and Codex repeats them on every token count: only the latest matters.
    public static func latestPerWindow(_ samples: [LimitSample]) -> [LimitSample] {
        // A tool has a few windows, and Codex repeats them on every line: the latest are found by comparing names
        // with the few kept, and kept by their place, without building a key or copying a sample for every sample.
        var latest: [Int] = []
        for index in samples.indices {
            let sample = samples[index]
            let sameWindow = { (kept: Int) in samples[kept].tool == sample.tool && samples[kept].window == sample.window }
            if let kept = latest.firstIndex(where: sameWindow) {
                if samples[latest[kept]].time <= sample.time { latest[kept] = index }
            } else {
                latest.append(index)
            }
        }
        return latest.map { samples[$0] }.sorted { ($0.tool, $0.window) < ($1.tool, $1.window) }
    }
}
