import Foundation

/// The incremental scan every front end runs before it shows the store: the one scanner configuration, and
/// the measurement that follows it (the live estimate's `measuredAt`).
public struct ScanStep: Sendable {
    public let environment: [String: String]
    public let home: String
    /// Makes the progress callback of one scan (a new one per scan), or nil for none. The callback is
    /// called from the scan's worker threads.
    public let progress: @Sendable () -> (@Sendable (ScanProgress) -> Void)?

    public init(environment: [String: String], home: String, progress: @escaping @Sendable () -> (@Sendable (ScanProgress) -> Void)? = { nil }) {
        self.environment = environment
        self.home = home
        self.progress = progress
    }

    /// The scanner of `store`. Times written without a zone (Aider's) are read in the system's zone, where the
    /// logs were written.
    func scanner(_ store: UsageStore) -> Scanner {
        Scanner(store: store, discovery: SourceDiscovery(environment: environment, home: home), timeZone: TimeZone.current)
    }

    /// Scans `descriptors` into `store`, then records `now`, when it started, as when the store was last measured.
    /// A store whose pages are found damaged (checked once a day) is refused before anything is written.
    public func run(_ store: UsageStore, _ descriptors: [Descriptor], now: Int64) throws(StoreError) -> ScanReport {
        try store.refuseDamagedPagesWhenDue(now: now)
        let report = try scan(store, descriptors)
        try store.recordMeasurement(at: now)
        return report
    }

    /// Scans `descriptors` into `store`, recording no measurement and checking no page (a watch round does both
    /// once for all of them).
    public func scan(_ store: UsageStore, _ descriptors: [Descriptor]) throws(StoreError) -> ScanReport {
        try scanner(store).scan(descriptors, progress: progress())
    }
}

extension ScanReport {
    /// False when some sources, or directories holding them, could not be read (nothing of them was counted).
    public var readEverything: Bool { failed == 0 && unlistedDirectories == 0 }
}
