import Foundation

/// What one scan did.
public struct ScanReport: Sendable {
    public var sources = 0
    /// Sources whose stat showed nothing new: not opened.
    public var unchanged = 0
    public var read = 0
    /// Sources read again from the start: truncated, replaced or rewritten, or their saved state was damaged.
    public var reread = 0
    public var failed = 0
    public var unlistedDirectories = 0
    public var bytesRead: Int64 = 0
    /// Complete lines (or documents, or rows) read, and records matched by a record rule in them.
    public var lines = 0
    public var records = 0
    /// Wall time of the scan itself (discovery, reading and committing), without the process around it.
    public var elapsedMilliseconds = 0.0
    public var counted = 0
    public var duplicates = 0
    public var skipped: [String: Int] = [:]
    /// The first problems: `source` is the read's number in this scan, 0 for discovery problems.
    public var problems: [(source: Int, line: Int, reason: String)] = []
    /// What the dry run explains its warnings with; sources numbered as in `problems`.
    public var diagnostics = ReadDiagnostics()

    public init() {}

    /// Keeps a problem when fewer than `SourceReadResult.problemLimit` are kept; the counts say the rest.
    mutating func note(source: Int, line: Int, _ reason: String) {
        if problems.count < SourceReadResult.problemLimit { problems.append((source, line, reason)) }
    }
}

/// Progress of a scan, for a progress bar.
public struct ScanProgress: Sendable {
    public let sourcesDone: Int
    public let sourcesTotal: Int
    public let bytesDone: Int64
    public let bytesTotal: Int64
}

/// Incremental scanning into a ledger (the store): only new bytes are read, and each source's new events,
/// their identities and its checkpoint are committed together, so every record counts once whatever happens.
///
/// A source whose stat matches its checkpoint is not opened. One that grew is read from its checkpoint,
/// after checking that the bytes before it are unchanged. One that was truncated, replaced or rewritten
/// is read from the start, and identities keep what was counted before from counting again. A source
/// that cannot be read is reported and keeps its checkpoint; the next scan retries it.
public struct Scanner: Sendable {
    public let store: any ScanLedger<StoreError>
    public let discovery: SourceDiscovery
    public let timeZone: TimeZone
    public let workers: Int

    public init(
        store: any ScanLedger<StoreError>, discovery: SourceDiscovery,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!, workers: Int? = nil
    ) {
        self.store = store
        self.discovery = discovery
        self.timeZone = timeZone
        self.workers = workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    public func scan(_ descriptors: [Descriptor], progress: (@Sendable (ScanProgress) -> Void)? = nil)
        throws(StoreError) -> ScanReport
    {
        let started = DispatchTime.now().uptimeNanoseconds
        var finished = try scan(descriptors, into: store, progress: progress)
        finished.elapsedMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        return finished
    }

    private func scan<Ledger: ScanLedger>(
        _ descriptors: [Descriptor], into ledger: Ledger, progress: (@Sendable (ScanProgress) -> Void)?
    ) throws(Ledger.Failure) -> ScanReport {
        let lease = try ledger.lockForScan()
        defer { lease.release() }
        var report = ScanReport()
        // Stamps only: the hashes and saved state of a source are read once its stat shows it changed.
        let stamps = try ledger.checkpointStamps()
        var work: [PlannedRead] = []
        // A descriptor none of whose sources can be here is not decoded, and one whose sources have nothing new
        // only as far as its layout.
        for descriptor in descriptors where discovery.mayFind(descriptor) {
            for (index, input) in descriptor.layout.enumerated() {
                let (found, problems, leftOut) = discovery.sources(for: input.sources)
                report.unlistedDirectories += problems.count
                if leftOut > 0 { report.skipped[SkipReason.notAFile, default: 0] += leftOut }
                for problem in problems { report.note(source: 0, line: 0, problem.reason) }
                // Compiled only when a source of this input has something new: a rescan with nothing new
                // compiles nothing.
                var rules: CompiledInput?
                for source in found {
                    report.sources += 1
                    let identity = SourceKey.identity(of: source.path)
                    let current = SourceFingerprint.changeStamp(source.stamp, of: source.path, format: input.format)
                    let stamp = stamps[identity]
                    if let stamp, current == stamp {
                        report.unchanged += 1
                        continue
                    }
                    let key = identity.description
                    let compiled = rules ?? CompiledInput(descriptor.inputs[index], descriptor: descriptor)
                    rules = compiled
                    let checkpoint = stamp == nil ? nil : try ledger.checkpoint(for: key)
                    work.append(
                        PlannedRead(path: source.path, key: key, checkpoint: checkpoint, rules: compiled, size: source.size))
                }
            }
        }
        try ReadPass(ledger: ledger, timeZone: timeZone, workers: workers)
            .run(work, numberedFrom: 0, into: &report, progress: progress)
        try ledger.finishCommits()
        return report
    }
}
