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

    public init(id: String) { self.id = id }
}

/// Reads every source of the given descriptors and reports what would be counted, writing nothing.
///
/// Sources are read on all cores, but their results are merged in sorted path order, so the outcome
/// (which copy of a duplicate counts) never depends on timing.
public struct DryRun {
    public let discovery: SourceDiscovery
    public let timeZone: TimeZone
    public let workers: Int

    public init(discovery: SourceDiscovery, timeZone: TimeZone = TimeZone(identifier: "UTC")!, workers: Int? = nil) {
        self.discovery = discovery
        self.timeZone = timeZone
        self.workers = workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    public func run(_ descriptor: Descriptor, explicitPaths: [String] = []) -> ReaderReport {
        let tally = Tally(id: descriptor.id)
        for input in descriptor.inputs {
            let sources: [String]
            if explicitPaths.isEmpty {
                let (found, problems) = discovery.sources(for: input)
                sources = found.map(\.path)
                for problem in problems { tally.noteUnlisted(problem.reason) }
            } else {
                sources = SourceDiscovery.distinct(explicitPaths)
            }
            readAll(sources, CompiledInput(input, descriptor: descriptor), into: tally)
        }
        return tally.finish()
    }

    /// Reads sources on `workers` threads. Each worker hands its result to `tally`, which merges results in
    /// source order as soon as every earlier one is in: no extra thread, so none competes with the readers.
    private func readAll(_ paths: [String], _ input: CompiledInput, into tally: Tally) {
        let next = SourceCounter(count: paths.count)
        let rules = UncheckedBox(input)
        let zone = timeZone
        let base = tally.beginInput(sourceCount: paths.count)
        let group = DispatchGroup()
        for _ in 0..<min(workers, max(paths.count, 1)) {
            DispatchQueue.global().async(group: group) {
                let reader = SourceReaders.make(rules.value, timeZone: zone)
                while let index = next.take() {
                    let path = paths[index]
                    let outcome = Result { () throws(SourceReadError) in
                        try reader.read(path: path, sourceKey: SourceKey.of(path: path), from: 0, state: SourceState())
                    }
                    tally.finish(base + index, outcome)
                }
            }
        }
        group.wait()
    }
}

/// Hands out source indexes to workers.
final class SourceCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// The report being built. Results may arrive in any order; they are merged in source order, so which
/// copy of a duplicate counts never depends on timing.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var report: ReaderReport
    private var deduplicator = Deduplicator()
    private var waiting: [Int: Result<SourceReadResult, SourceReadError>] = [:]
    private var nextToMerge = 0

    init(id: String) { report = ReaderReport(id: id) }

    /// Reserves numbers for an input's sources and returns the first.
    func beginInput(sourceCount: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let base = report.sources
        report.sources += sourceCount
        return base
    }

    func note(_ reason: String) {
        lock.lock()
        defer { lock.unlock() }
        if report.problems.count < SourceReadResult.problemLimit { report.problems.append((0, 0, reason)) }
    }

    func noteUnlisted(_ reason: String) {
        note(reason)
        lock.lock()
        report.unlistedDirectories += 1
        lock.unlock()
    }

    func finish(_ index: Int, _ outcome: Result<SourceReadResult, SourceReadError>) {
        lock.lock()
        defer { lock.unlock() }
        waiting[index] = outcome
        while let ready = waiting.removeValue(forKey: nextToMerge) {
            nextToMerge += 1
            merge(ready, sourceNumber: nextToMerge)
        }
    }

    func finish() -> ReaderReport {
        lock.lock()
        defer { lock.unlock() }

        return report
    }

    private func merge(_ outcome: Result<SourceReadResult, SourceReadError>, sourceNumber: Int) {
        let result: SourceReadResult
        switch outcome {
        case .failure(let error):
            report.failedSources += 1
            report.skipped[SkipReason.unreadableSource, default: 0] += 1
            if report.problems.count < SourceReadResult.problemLimit {
                report.problems.append((sourceNumber, 0, error.description))
            }
            return
        case .success(let read): result = read
        }
        report.lines += result.lines
        report.records += result.records
        for (reason, count) in result.skipped { report.skipped[reason, default: 0] += count }
        for problem in result.problems where report.problems.count < SourceReadResult.problemLimit {
            report.problems.append((sourceNumber, problem.line, problem.reason))
        }
        for event in result.events {
            switch deduplicator.admit(event) {
            case .counted: report.totals.add(event)
            case .duplicate: report.skipped[SkipReason.duplicate, default: 0] += 1
            case .replaced(let previous):
                report.totals.remove(previous)
                report.totals.add(event)
                report.skipped[SkipReason.duplicate, default: 0] += 1
            }
        }
        report.limitSamples += result.limits.count
        report.latestLimits = LimitSample.latestPerWindow(report.latestLimits + result.limits)
    }
}

/// Shares the immutable compiled rules with worker threads. Their regular expressions are immutable and
/// documented as safe to use from several threads.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The opaque name of a source in the store and in identities: a hash of its path, never the path.
public enum SourceKey {
    public static func of(path: String) -> String {
        var hasher = IdentityHasher()
        hasher.combine(path)
        return hasher.finalize().description
    }
}
