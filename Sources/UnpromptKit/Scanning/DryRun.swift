import Foundation

/// What a dry run found for one reader: counts, skips by reason, the first problems, totals and limits.
public struct ReaderReport: Sendable {
    public let id: String
    public var sources = 0
    public var failedSources = 0
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
        var report = ReaderReport(id: descriptor.id)
        var deduplicator = Deduplicator()
        var latest: [String: LimitSample] = [:]
        for input in descriptor.inputs {
            guard input.format == .jsonl else {
                // Said, not skipped silently: the descriptor is valid, but this version cannot read it yet.
                report.problems.append((0, 0, "the \(input.format.rawValue) format has no reader in this version; this input was not read"))
                continue
            }
            let sources: [String]
            if explicitPaths.isEmpty {
                let (found, problems) = discovery.sources(for: input)
                sources = found.map(\.path)
                for problem in problems { report.problems.append((0, 0, problem.reason)) }
            } else {
                sources = explicitPaths
            }
            let base = report.sources
            report.sources += sources.count
            let compiled = CompiledInput(input, descriptor: descriptor)
            readAll(sources, compiled) { index, outcome in
                switch outcome {
                case .failure(let error):
                    report.failedSources += 1
                    report.skipped["unreadable-source", default: 0] += 1
                    if report.problems.count < SourceReadResult.problemLimit {
                        report.problems.append((base + index + 1, 0, error.description))
                    }
                case .success(let result):
                    merge(result, sourceNumber: base + index + 1, into: &report, &deduplicator, &latest)
                }
            }
        }
        report.latestLimits = latest.values.sorted { $0.window < $1.window }
        return report
    }

    private func merge(
        _ result: SourceReadResult, sourceNumber: Int, into report: inout ReaderReport,
        _ deduplicator: inout Deduplicator, _ latest: inout [String: LimitSample]
    ) {
        report.lines += result.lines
        report.records += result.records
        for (reason, count) in result.skipped { report.skipped[reason, default: 0] += count }
        for problem in result.problems where report.problems.count < SourceReadResult.problemLimit {
            report.problems.append((sourceNumber, problem.line, problem.reason))
        }
        for event in result.events {
            switch deduplicator.admit(event) {
            case .counted: report.totals.add(event)
            case .duplicate: report.skipped["duplicate", default: 0] += 1
            case .replaced(let previous):
                report.totals.remove(previous)
                report.totals.add(event)
                report.skipped["duplicate", default: 0] += 1
            }
        }
        report.limitSamples += result.limits.count
        for sample in result.limits where (latest[sample.window]?.time ?? Int64.min) <= sample.time {
            latest[sample.window] = sample
        }
    }

    /// Reads sources on `workers` threads and hands each result to `deliver` on the calling thread, in
    /// source order, so memory holds only the results waiting for their turn.
    private func readAll(
        _ paths: [String], _ input: CompiledInput,
        _ deliver: (Int, Result<SourceReadResult, SourceReadError>) -> Void
    ) {
        let queue = ReadQueue(count: paths.count)
        let rules = UncheckedBox(input)
        let zone = timeZone
        let group = DispatchGroup()
        for _ in 0..<min(workers, max(paths.count, 1)) {
            DispatchQueue.global().async(group: group) {
                let reader = JSONLinesReader(input: rules.value, timeZone: zone)
                while let index = queue.next() {
                    let path = paths[index]
                    queue.put(index, Result { () throws(SourceReadError) in
                        try reader.read(path: path, sourceKey: SourceKey.of(path: path), from: 0, state: SourceState())
                    })
                }
            }
        }
        for index in paths.indices { deliver(index, queue.take(index)) }
        group.wait()
    }
}

/// Hands out source indexes to workers, and their results to the merging thread.
private final class ReadQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var nextIndex = 0
    private let count: Int
    private var finished: [Int: Result<SourceReadResult, SourceReadError>] = [:]

    init(count: Int) { self.count = count }

    func next() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    func put(_ index: Int, _ outcome: Result<SourceReadResult, SourceReadError>) {
        condition.lock()
        finished[index] = outcome
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the result of `index` and removes it.
    func take(_ index: Int) -> Result<SourceReadResult, SourceReadError> {
        condition.lock()
        defer { condition.unlock() }
        while finished[index] == nil { condition.wait() }
        return finished.removeValue(forKey: index)!
    }
}

/// Shares the immutable compiled rules with worker threads. Their regular expressions are immutable and
/// documented as safe to use from several threads.
private struct UncheckedBox<T>: @unchecked Sendable {
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
