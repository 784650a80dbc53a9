/// Plan limits at the clock's moment: every tool's latest reading of each window (used %, window length,
/// countdown to the reset), stale readings marked with their age, and the windows derived from use
/// (`DerivedWindow`), each with the cost of its tokens at API list prices; and each window's pace since it
/// started (`LimitPace`).
public struct LimitsReport: Sendable {
    /// A reading and where it stands at `now`.
    public struct Reading: Sendable {
        public let status: LimitStatus
        /// Milliseconds since the window reset, when the reset is known and has passed.
        public let sinceReset: Int64?
        /// True for a sample of a derived window's `ended_by` window: a limit-reached record, which says
        /// when the limit was hit and when it resets, and no used share of its own.
        public let limitReached: Bool
        /// The pace from the window's start to the reading, and when it would be used up at it; nil for a
        /// reading that is stale, whose reset has passed, that is a limit-reached record, or that lacks a used
        /// share, a reset or a length.
        public let pace: LimitPace?
    }

    /// A derived window in progress, and the cost of its tokens so far (its buckets from its start to now).
    public struct Window: Sendable {
        public let tool: String
        /// The window's length, as the tool's descriptor declares it.
        public let minutes: Int64
        public let window: FiveHourWindow
        /// Milliseconds from `now` to the window's end.
        public let endsIn: Int64
        public let cost: CostReading
        /// Tokens an hour from the window's start to `now`.
        public let tokensPerHour: Double?
    }

    public let now: Int64
    /// By tool, then window name.
    public let readings: [Reading]
    public let windows: [Window]
    /// The tools whose windows are derived from use, with their length in minutes, whether one is in progress
    /// or not.
    public let derived: [String: Int64]

    /// Every tool with a reading or a window in progress, in order.
    public var tools: [String] { Set(readings.map(\.status.sample.tool) + windows.map(\.tool)).sorted() }
}

extension UsageQueries {
    public func limits() throws(StoreError) -> LimitsReport {
        let derived = derivedWindows.mapValues(\.minutes)
        guard let store else { return LimitsReport(now: now, readings: [], windows: [], derived: derived) }
        let latest = try store.latestLimits(loggedBy: now, devices: devices).map(reading)
        var windows: [LimitsReport.Window] = []
        let since = now - FiveHourWindow.lookbackMilliseconds
        for (tool, derivedWindow) in derivedWindows.sorted(by: { $0.key < $1.key }) {
            let rows = try store.buckets(
                fromQuarter: Bucket.quarter(of: since), toQuarter: Bucket.quarter(of: now) + 1, tools: [tool], devices: devices)
            var resets: [(loggedAt: Int64, resetsAt: Int64)] = []
            if let endedBy = derivedWindow.endedBy {
                resets = try store.limitSamples(
                    tool: tool, window: endedBy, since: since - derivedWindow.milliseconds, devices: devices)
                    .filter { $0.time <= now }
                    .compactMap { sample in sample.resetsAt.map { (loggedAt: sample.time, resetsAt: $0) } }
            }
            if let window = FiveHourWindow.current(rows: rows, resets: resets, now: now, length: derivedWindow.milliseconds) {
                let inWindow = rows.filter { $0.quarter * Bucket.quarterMilliseconds >= window.start }
                windows.append(
                    LimitsReport.Window(
                        tool: tool, minutes: derivedWindow.minutes, window: window, endsIn: window.end - now,
                        cost: readings.pricer.reading(of: inWindow),
                        tokensPerHour: LimitPace.tokensPerHour(window.tokens, since: window.start, now: now)))
            }
        }
        return LimitsReport(now: now, readings: latest, windows: windows, derived: derived)
    }

    /// Where a reading stands at `now`, and its pace.
    func reading(_ sample: LimitSample) -> LimitsReport.Reading {
        // A limit-reached record is about its tool's derived window, and names no length of its own.
        let window = derivedWindows[sample.tool]
        let limitReached = window?.endedBy == sample.window
        let status = LimitStatus(sample, now: now, fallbackWindowMinutes: limitReached ? window?.minutes : nil)
        let current = !status.stale && !status.resetPassed && !limitReached
        return LimitsReport.Reading(
            status: status, sinceReset: status.resetPassed ? sample.resetsAt.map { now - $0 } : nil, limitReached: limitReached,
            pace: current ? LimitPace(sample, windowMinutes: status.windowMinutes) : nil)
    }
}
