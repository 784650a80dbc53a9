import Foundation

/// What a dry run found for one reader: counts, skips by reason, the first problems, totals and limits.
public struct ReaderReport: Sendable {
    public let id: String
    public var sources = 0
    /// Sources that could not be read; nothing of them is counted.
    public var failedSources = 0
    /// Roots or directories that could not be listed, so sources in them may have been missed.
    public var unlistedDirectories = 0
    public var lines = 0
    public var records = 0
    public var skipped: [String: Int] = [:]
    public var totals = UsageTotals()
    /// The latest sample of each window, sorted by window name.
    public var latestLimits: [LimitSample] = []
    public var limitSamples = 0
    /// The first problems: the source's number in this report's sorted source list, and the line.
    public var problems: [(source: Int, line: Int, reason: String)] = []
    /// Mistakes the descriptor may hold (`DryRunWarnings`).
    public var warnings: [DryRunWarning] = []

    public init(id: String) { self.id = id }
}

/// Reads every source of the given descriptors and reports what would be counted, writing nothing: the
/// scanner's own reading and committing (`ReadPass`), into memory (`DryRunLedger`) instead of the store.
///
/// Sources are read on all cores, but their results are committed in sorted path order, so the outcome
/// (which copy of a duplicate counts) never depends on timing.
public struct DryRun: Sendable {
    public let discovery: SourceDiscovery
    public let timeZone: TimeZone
    public let workers: Int
    /// Milliseconds since 1970, for the warning about times ahead of the clock.
    public let now: Int64
    /// Whether a reader that finds no source says where it looked (`no-sources`): for a reader asked for by
    /// name or below `--root`, not for every tool that is simply not installed.
    public let explainsMissingSources: Bool

    public init(
        discovery: SourceDiscovery, timeZone: TimeZone = TimeZone(identifier: "UTC")!, workers: Int? = nil, now: Int64? = nil,
        explainsMissingSources: Bool = true
    ) {
        self.discovery = discovery
        self.explainsMissingSources = explainsMissingSources
        self.timeZone = timeZone
        self.workers = workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        self.now = now ?? Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    public func run(_ descriptor: Descriptor, explicitPaths: [String] = []) -> ReaderReport {
        let ledger = DryRunLedger()
        let pass = ReadPass(ledger: ledger, timeZone: timeZone, workers: workers)
        var scan = ScanReport()
        let diagnosis = DryRunWarnings(descriptor: descriptor, now: now)
        var warnings: [DryRunWarning] = []
        for input in descriptor.inputs {
            let sources: [(path: String, size: Int64)]
            if explicitPaths.isEmpty {
                let (found, problems, leftOut) = discovery.sources(for: input.sources)
                sources = found.map { ($0.path, $0.size) }
                scan.unlistedDirectories += problems.count
                if leftOut > 0 { scan.skipped[SkipReason.notAFile, default: 0] += leftOut }
                for problem in problems { scan.note(source: 0, line: 0, problem.reason) }
            } else {
                sources = SourceDiscovery.distinct(explicitPaths).map { ($0, 0) }
            }
            let rules = CompiledInput(input, descriptor: descriptor)
            let work = sources.map { source in
                PlannedRead(path: source.path, key: SourceKey.of(path: source.path), checkpoint: nil, rules: rules, size: source.size)
            }
            let first = scan.sources
            scan.sources += work.count
            pass.run(work, numberedFrom: first, into: &scan, progress: nil)
            warnings += diagnosis.warnings(input, scan.diagnostics)
            scan.diagnostics = ReadDiagnostics()
        }
        if scan.sources == 0, explicitPaths.isEmpty, explainsMissingSources { warnings = diagnosis.noSources(discovery) + warnings }
        var report = ReaderReport(id: descriptor.id)
        report.sources = scan.sources
        report.failedSources = scan.failed
        report.unlistedDirectories = scan.unlistedDirectories
        report.lines = scan.lines
        report.records = scan.records
        report.skipped = scan.skipped
        report.problems = scan.problems
        report.warnings = warnings
        (report.totals, report.latestLimits, report.limitSamples) = ledger.folded
        return report
    }
}

/// The opaque name of a source in the store and in identities: a hash of its path, never the path.
public enum SourceKey: Sendable {
    public static func of(path: String) -> String {
        identity(of: path).description
    }

    /// The key as a value, which a rescan looks its stamps up by (`ScanLedger.checkpointStamps`): its text is
    /// spelled only for a source that changed.
    static func identity(of path: String) -> Identity {
        // The path's bytes (`SystemPath`): for a UTF-8 path, its text, as before.
        var hasher = IdentityHasher()
        SystemPath.withBytes(path) { hasher.combine($0) }
        return hasher.finalize()
    }
}
