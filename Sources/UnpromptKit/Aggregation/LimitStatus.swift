/// Where a plan-limit reading stands at a given moment: how old it is, whether it is stale, and how long
/// until its window resets. A pure function of the sample and the clock.
///
/// A reading older than its window is stale: the window it measured has certainly ended since, so its
/// percentage says nothing about the current one. Its age is shown instead of a countdown.
public struct LimitStatus: Sendable, Equatable {
    public let sample: LimitSample
    /// Milliseconds since the reading was logged.
    public let age: Int64
    /// The window length used to judge staleness, in minutes: the sample's own, else the tool's.
    public let windowMinutes: Int64?
    public let stale: Bool
    /// Milliseconds until the window resets; nil when unknown, or when the reset has passed.
    public let resetsIn: Int64?
    /// True when the reset time is known and has passed: the reading no longer applies.
    public let resetPassed: Bool

    /// `fallbackWindowMinutes` is the tool's window when the sample names none (Claude's limit-reached
    /// records: 300 minutes).
    public init(_ sample: LimitSample, now: Int64, fallbackWindowMinutes: Int64? = nil) {
        self.sample = sample
        let age = max(0, now - sample.time)
        let windowMinutes = sample.windowMinutes ?? fallbackWindowMinutes
        self.age = age
        self.windowMinutes = windowMinutes
        stale = windowMinutes.map { age > $0 * 60_000 } ?? false
        resetPassed = sample.resetsAt.map { $0 <= now } ?? false
        resetsIn = sample.resetsAt.flatMap { $0 > now ? $0 - now : nil }
    }
}
