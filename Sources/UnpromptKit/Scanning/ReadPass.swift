import Foundation

/// One source to read: where it is, where it stopped last time, and the compiled rules of its input.
struct PlannedRead: Sendable {
    let path: String
    let key: String
    let checkpoint: Checkpoint?
    let rules: CompiledInput
    let size: Int64
}

/// A read that finished: what it found, and the checkpoint to record with it (none for a ledger that keeps none).
struct CompletedRead: Sendable {
    let result: SourceReadResult
    let checkpoint: Checkpoint?
    let start: Int64
    /// The saved reader state did not decode, so the source was read from the start with an empty state.
    let stateWasDamaged: Bool
}

/// The machine the scan and the dry run share: planned sources read on `workers` threads, and committed to the
/// ledger in their planned order, in groups, by one worker at a time while the others go on reading.
struct ReadPass<Ledger: ScanLedger> {
    /// Reads done while an earlier one is being committed hold at most about this many events, a read counting as
    /// one more (a store's commit group, a few megabytes): enough for the readers to keep going through a commit.
    static var backlogEvents: Int { 4096 }
    /// A pass that reads this much lasts long enough for its peak memory to matter: it first gives back the code
    /// start-up ran (`ProgramCode`). A smaller one would only pay the faults.
    static var longPassBytes: Int64 { 64 << 20 }

    let ledger: Ledger
    let timeZone: TimeZone
    let workers: Int

    /// Reads and commits `work`, adding to `report`; a read's problems name it by `first + 1 +` its index.
    func run(
        _ work: [PlannedRead], numberedFrom first: Int, into report: inout ScanReport,
        progress: (@Sendable (ScanProgress) -> Void)?
    ) throws(Ledger.Failure) {
        let totalBytes = work.reduce(0) { $0 + $1.size }
        if totalBytes >= Self.longPassBytes { ProgramCode.releaseStartupPages() }
        let queue = Locked(
            CommitQueue(
                ledger: ledger, report: report, numberedFrom: first, total: work.count, totalBytes: totalBytes,
                progress: progress))
        let zone = timeZone
        let fingerprint = ledger.keepsCheckpoints
        OrderedWorkPool.run(
            count: work.count, threads: workers, backlog: Self.backlogEvents,
            weight: { _, outcome in
                guard case .success(let read) = outcome else { return 1 }
                return 1 + read.result.events.count
            },
            workerState: { [ObjectIdentifier: any SourceReader]() },
            job: { readers, index in
                let plan = work[index]
                let reader =
                    readers[ObjectIdentifier(plan.rules)] ?? SourceReaders.make(plan.rules.compiledAgain(), timeZone: zone)
                readers[ObjectIdentifier(plan.rules)] = reader
                return (plan, Self.read(plan, with: reader, recordingCheckpoint: fingerprint))
            },
            inOrder: { finished in queue.withLock { $0.add(finished) } })
        report = try queue.withLock { queue throws(Ledger.Failure) in try queue.finish() }
    }

    /// Opens, checks the checkpoint against the file, reads the new bytes and records the new checkpoint.
    ///
    /// An appended file resumes at its checkpoint with its saved state; a document or database is read
    /// whole, continuing its saved state (see `SourceReader`). A saved state that does not decode is never
    /// guessed at: the source is read from the start with an empty state, identities keep what was counted
    /// before from counting again, and running totals that the empty state cannot continue are not counted
    /// (`SourceState.runningTotalsLost`).
    static func read(_ plan: PlannedRead, with reader: any SourceReader, recordingCheckpoint: Bool)
        -> Result<CompletedRead, SourceReadError>
    {
        let fd = SystemPath.openForReading(plan.path)
        guard fd >= 0 else { return .failure(SourceReadError(errno: errno, operation: "open")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(SourceReadError(errno: errno, operation: "stat")) }
        guard SystemPath.isRegularFile(info) else { return .failure(.notARegularFile) }
        let before = SourceFingerprint.changeStamp(SourceFingerprint.stamp(info), of: plan.path, format: plan.rules.format)
        var start = reader.resumesAtOffset ? SourceFingerprint.resumeOffset(fd: fd, current: before, checkpoint: plan.checkpoint) : 0
        var state = SourceState()
        var damaged = false
        if start > 0 || !reader.resumesAtOffset, let checkpoint = plan.checkpoint {
            do {
                state = try checkpoint.state()
            } catch {
                damaged = true
                start = 0
                // An appended file read from its start gives its running totals again; a document or database
                // shows only their latest values.
                state.runningTotalsLost = !reader.resumesAtOffset
            }
        }
        do {
            let result = try reader.read(fd: fd, path: plan.path, sourceKey: plan.key, from: start, state: state)
            let checkpoint =
                recordingCheckpoint
                ? try SourceFingerprint.checkpoint(fd: fd, before: before, end: result.endOffset, state: result.state) : nil
            return .success(CompletedRead(result: result, checkpoint: checkpoint, start: start, stateWasDamaged: damaged))
        } catch {
            return .failure(error)
        }
    }
}

/// Finished reads waiting to be committed, in source order. They are committed together, in one call to the
/// ledger, as its `commitGroup` says.
private struct CommitQueue<Ledger: ScanLedger>: Sendable {

    let ledger: Ledger
    var report: ScanReport
    /// Reads committed so far; the next one is read number `first + committed + 1`.
    private var committed = 0
    private let first: Int
    private var pending: [(PlannedRead, Result<CompletedRead, SourceReadError>)] = []
    private var pendingEvents = 0
    private var failure: Ledger.Failure?
    private var lastCommit = Date()
    private let total: Int
    private let totalBytes: Int64
    private let progress: (@Sendable (ScanProgress) -> Void)?

    init(
        ledger: Ledger, report: ScanReport, numberedFrom first: Int, total: Int, totalBytes: Int64,
        progress: (@Sendable (ScanProgress) -> Void)?
    ) {
        self.ledger = ledger
        self.report = report
        self.first = first
        self.total = total
        self.totalBytes = totalBytes
        self.progress = progress
    }

    mutating func add(_ finished: (PlannedRead, Result<CompletedRead, SourceReadError>)) {
        pending.append(finished)
        if case .success(let read) = finished.1 { pendingEvents += read.result.events.count }
        let group = ledger.commitGroup
        if pending.count >= group.reads || pendingEvents >= group.events
            || Date().timeIntervalSince(lastCommit) >= group.seconds
        {
            flush()
        }
    }

    mutating func finish() throws(Ledger.Failure) -> ScanReport {
        flush()
        if let failure { throw failure }
        return report
    }

    /// Commits every pending read in one call to the ledger, then accounts for each in order.
    private mutating func flush() {
        guard failure == nil, !pending.isEmpty else { return }
        let reads = pending.compactMap { plan, outcome -> SourceCommit? in
            guard case .success(let read) = outcome else { return nil }
            return SourceCommit(
                sourceKey: plan.key, expected: plan.checkpoint, events: read.result.events, limits: read.result.limits,
                checkpoint: read.checkpoint)
        }
        do {
            var outcomes = ArraySlice(reads.isEmpty ? [] : try ledger.commit(reads))
            for (plan, outcome) in pending {
                committed += 1
                switch outcome {
                case .failure(let error):
                    report.failed += 1
                    report.skipped[SkipReason.unreadableSource, default: 0] += 1
                    report.note(source: first + committed, line: 0, error.description)
                case .success(let read):
                    account(plan, read, outcomes.removeFirst())
                }
            }
        } catch {
            failure = error
        }
        pending = []
        pendingEvents = 0
        lastCommit = Date()
        progress?(
            ScanProgress(sourcesDone: committed, sourcesTotal: total, bytesDone: report.bytesRead, bytesTotal: totalBytes))
    }

    private mutating func account(_ plan: PlannedRead, _ read: CompletedRead, _ done: CommitOutcome) {
        let number = first + committed
        guard done.applied else {
            report.note(source: number, line: 0, "another scan read this source first; its result was kept")
            return
        }
        report.read += 1
        if read.start == 0, plan.checkpoint != nil { report.reread += 1 }
        if read.stateWasDamaged {
            report.skipped[SkipReason.damagedState, default: 0] += 1
            report.note(
                source: number, line: 0,
                "its saved reader state was damaged: read again from the start (what was counted before counts once)")
        }
        report.bytesRead += read.result.endOffset - read.start
        report.lines += read.result.lines
        report.records += read.result.records
        report.counted += done.counted
        report.duplicates += done.duplicates
        if done.duplicates > 0 { report.skipped[SkipReason.duplicate, default: 0] += done.duplicates }
        for (reason, count) in read.result.skipped { report.skipped[reason, default: 0] += count }
        for problem in read.result.problems { report.note(source: number, line: problem.line, problem.reason) }
        report.diagnostics.add(read.result.diagnostics, source: number)
    }
}
