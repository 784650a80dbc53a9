import Foundation

/// What one scan did.
public struct ScanReport: Sendable {
    public var sources = 0
    /// Sources whose stat showed nothing new: not opened.
    public var unchanged = 0
    public var read = 0
    /// Sources read again from the start: truncated, replaced or rewritten.
    public var reread = 0
    public var failed = 0
    public var unlistedDirectories = 0
    public var bytesRead: Int64 = 0
    /// Wall time of the scan itself (discovery, reading and committing), without the process around it.
    public var elapsedMilliseconds = 0.0
    public var counted = 0
    public var duplicates = 0
    public var skipped: [String: Int] = [:]
    /// The first problems: `source` is the read's number in this scan, 0 for discovery problems.
    public var problems: [(source: Int, line: Int, reason: String)] = []

    public init() {}
}

/// Progress of a scan, for a progress bar.
public struct ScanProgress: Sendable {
    public let sourcesDone: Int
    public let sourcesTotal: Int
    public let bytesDone: Int64
    public let bytesTotal: Int64
}

/// Incremental scanning into the store: only new bytes are read, and each source's new events, their
/// identities and its checkpoint are committed together, so every record counts once whatever happens.
///
/// A source whose stat matches its checkpoint is not opened. One that grew is read from its checkpoint,
/// after checking that the bytes before it are unchanged. One that was truncated, replaced or rewritten
/// is read from the start, and identities keep what was counted before from counting again. A source
/// that cannot be read is reported and keeps its checkpoint; the next scan retries it.
public struct Scanner {
    public let store: UsageStore
    public let discovery: SourceDiscovery
    public let timeZone: TimeZone
    public let workers: Int

    public init(
        store: UsageStore, discovery: SourceDiscovery, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        workers: Int? = nil
    ) {
        self.store = store
        self.discovery = discovery
        self.timeZone = timeZone
        self.workers = workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    public func scan(_ descriptors: [Descriptor], progress: ((ScanProgress) -> Void)? = nil) throws(StoreError)
        -> ScanReport
    {
        let started = DispatchTime.now().uptimeNanoseconds
        let lock = try ScanLock(storePath: store.path)
        defer { lock.release() }
        var report = ScanReport()
        let checkpoints = try store.allCheckpoints()
        var work: [PlannedRead] = []
        for descriptor in descriptors {
            for input in descriptor.inputs {
                let (found, problems) = discovery.sources(for: input)
                report.unlistedDirectories += problems.count
                for problem in problems { note(&report, 0, 0, problem.reason) }
                // Compiled only when a source of this input has something new: a rescan with nothing new
                // compiles nothing.
                var rules: CompiledInput?
                for source in found {
                    report.sources += 1
                    let key = SourceKey.of(path: source.path)
                    let info = SourceFingerprint.changeStat(source.info, of: source.path, format: input.format)
                    if let checkpoint = checkpoints[key], SourceFingerprint.unchanged(info, since: checkpoint) {
                        report.unchanged += 1
                        continue
                    }
                    let compiled = rules ?? CompiledInput(input, descriptor: descriptor)
                    rules = compiled
                    work.append(PlannedRead(path: source.path, key: key, checkpoint: checkpoints[key], rules: compiled, size: source.size))
                }
            }
        }
        let merger = CommitQueue(store: store, report: report, total: work.count, totalBytes: work.reduce(0) { $0 + $1.size }, progress: progress)
        let next = SourceCounter(count: work.count)
        let zone = timeZone
        let plans = UncheckedBox(work)
        let group = DispatchGroup()
        for _ in 0..<min(workers, max(work.count, 1)) where !work.isEmpty {
            DispatchQueue.global().async(group: group) {
                var readers: [ObjectIdentifier: SourceReader] = [:]
                while let index = next.take() {
                    let plan = plans.value[index]
                    let reader = readers[ObjectIdentifier(plan.rules)] ?? SourceReaders.make(plan.rules, timeZone: zone)
                    readers[ObjectIdentifier(plan.rules)] = reader
                    merger.finish(index, plan, Self.read(plan, with: reader))
                }
            }
        }
        group.wait()
        var finished = try merger.finish()
        finished.elapsedMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        return finished
    }

    private func note(_ report: inout ScanReport, _ source: Int, _ line: Int, _ reason: String) {
        if report.problems.count < SourceReadResult.problemLimit { report.problems.append((source, line, reason)) }
    }

    /// Opens, checks the checkpoint against the file, reads the new bytes and records the new checkpoint.
    ///
    /// An appended file resumes at its checkpoint with its saved state; a document or database is read
    /// whole, continuing its saved state (see `SourceReader`).
    static func read(_ plan: PlannedRead, with reader: SourceReader) -> Result<CompletedRead, SourceReadError> {
        let fd = open(plan.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(SourceReadError(errno: errno, operation: "open")) }
        defer { close(fd) }
        var before = stat()
        guard fstat(fd, &before) == 0 else { return .failure(SourceReadError(errno: errno, operation: "stat")) }
        before = SourceFingerprint.changeStat(before, of: plan.path, format: plan.rules.format)
        var start = reader.resumesAtOffset ? SourceFingerprint.resumeOffset(fd: fd, current: before, checkpoint: plan.checkpoint) : 0
        var state = SourceState()
        if start > 0 || !reader.resumesAtOffset, let checkpoint = plan.checkpoint {
            // A saved state that does not decode is never guessed at: the source is read from the start
            // with an empty state, and identities keep what was counted from counting again.
            if let saved = try? checkpoint.state() { state = saved } else { start = 0 }
        }
        do {
            let result = try reader.read(fd: fd, path: plan.path, sourceKey: plan.key, from: start, state: state)
            guard let checkpoint = SourceFingerprint.checkpoint(fd: fd, before: before, end: result.endOffset, state: result.state)
            else { return .failure(SourceReadError(errno: EIO, operation: "recording the checkpoint (re-reading the bytes just read)")) }
            return .success(CompletedRead(result: result, checkpoint: checkpoint, start: start))
        } catch {
            return .failure(error)
        }
    }
}

struct PlannedRead {
    let path: String
    let key: String
    let checkpoint: Checkpoint?
    let rules: CompiledInput
    let size: Int64
}

struct CompletedRead {
    let result: SourceReadResult
    let checkpoint: Checkpoint
    let start: Int64
}

/// Commits finished reads to the store in source order, one transaction each, on whichever worker
/// finishes the next one in line: no extra thread competes with the readers.
private final class CommitQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let store: UsageStore
    private var report: ScanReport
    private var waiting: [Int: (PlannedRead, Result<CompletedRead, SourceReadError>)] = [:]
    private var next = 0
    private var storeError: StoreError?
    private let total: Int
    private let totalBytes: Int64
    private let progress: ((ScanProgress) -> Void)?

    init(store: UsageStore, report: ScanReport, total: Int, totalBytes: Int64, progress: ((ScanProgress) -> Void)?) {
        self.store = store
        self.report = report
        self.total = total
        self.totalBytes = totalBytes
        self.progress = progress
    }

    /// Sources committed together, in one transaction, once this many are ready or this much time has
    /// passed since the last commit: a crash loses at most one group, which the next scan reads again.
    static let batchSources = 64
    static let batchSeconds = 0.2
    private var lastCommit = Date()

    func finish(_ index: Int, _ plan: PlannedRead, _ outcome: Result<CompletedRead, SourceReadError>) {
        lock.lock()
        defer { lock.unlock() }
        waiting[index] = (plan, outcome)
        var ready = 0
        while waiting[next + ready] != nil { ready += 1 }
        if ready >= CommitQueue.batchSources || (ready > 0 && Date().timeIntervalSince(lastCommit) >= CommitQueue.batchSeconds) {
            flush()
        }
    }

    func finish() throws(StoreError) -> ScanReport {
        lock.lock()
        defer { lock.unlock() }
        flush()
        if let storeError { throw storeError }
        return report
    }

    /// Commits every result that is next in line, in one transaction.
    private func flush() {
        guard storeError == nil, waiting[next] != nil else { return }
        do {
            try store.batch { () throws(StoreError) in
                while let (plan, outcome) = waiting.removeValue(forKey: next) {
                    next += 1
                    try commit(plan, outcome, number: next)
                }
            }
        } catch {
            storeError = error
        }
        lastCommit = Date()
        progress?(ScanProgress(sourcesDone: next, sourcesTotal: total, bytesDone: report.bytesRead, bytesTotal: totalBytes))
    }

    private func commit(_ plan: PlannedRead, _ outcome: Result<CompletedRead, SourceReadError>, number: Int) throws(StoreError) {
        switch outcome {
        case .failure(let error):
            report.failed += 1
            report.skipped[SkipReason.unreadableSource, default: 0] += 1
            problem(number, 0, error.description)
        case .success(let read):
            let done = try store.commit(
                sourceKey: plan.key, expected: plan.checkpoint, events: read.result.events, limits: read.result.limits,
                checkpoint: read.checkpoint)
            guard done.applied else {
                problem(number, 0, "another scan read this source first; its result was kept")
                return
            }
            report.read += 1
            if read.start == 0, plan.checkpoint != nil { report.reread += 1 }
            report.bytesRead += read.checkpoint.offset - read.start
            report.counted += done.counted
            report.duplicates += done.duplicates
            if done.duplicates > 0 { report.skipped[SkipReason.duplicate, default: 0] += done.duplicates }
            for (reason, count) in read.result.skipped { report.skipped[reason, default: 0] += count }
            for p in read.result.problems { problem(number, p.line, p.reason) }
        }
    }

    private func problem(_ source: Int, _ line: Int, _ reason: String) {
        if report.problems.count < SourceReadResult.problemLimit { report.problems.append((source, line, reason)) }
    }
}

/// One writer at a time per store: a second scan waits for the first to finish (it then finds little or
/// nothing new), and so does a second process creating the schema. Held with `flock` on a file beside the
/// store, released by the kernel if the holder dies.
final class ScanLock {
    private let fd: Int32

    init(storePath: String) throws(StoreError) {
        fd = open(storePath + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError(message: "cannot open the store's lock file: \(String(cString: strerror(errno)))", busy: false)
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                throw StoreError(message: "cannot lock the store: \(String(cString: strerror(errno)))", busy: true)
            }
        }
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
