/// Where a scan keeps what it counted and where each source stopped: the store (`UsageStore`), or memory for
/// a dry run (`DryRunLedger`). The scanner commits through this and knows no more of either.
///
/// Contract: each read in `commit` is kept whole or not at all (its events, each identity counted once across
/// everything the ledger holds, its limit samples and its new checkpoint), and a read whose `expected`
/// checkpoint is no longer the one kept (another scan moved it) keeps nothing and says so (`applied` false).
/// A ledger that can fail says how (`Failure`); a dry run's cannot.
public protocol ScanLedger<Failure>: Sendable {
    associatedtype Failure: Error

    /// False for a ledger that keeps no checkpoint (a dry run's): its reads then record none, and save the
    /// hashing and the encoding of the reader's state that recording one costs on every source.
    var keepsCheckpoints: Bool { get }
    /// How finished reads are grouped into one commit: the store groups many, to write its journal (and each
    /// page of its identities) once per group; memory takes each as it comes, so no read waits holding its events.
    var commitGroup: CommitGroup { get }
    /// Makes the caller's scan the only one of this ledger (the store: across processes too) until the lease
    /// is released; waits while another holds it.
    func lockForScan() throws(Failure) -> ScanLease
    /// Every source's checkpoint, by source key: one query for a whole rescan.
    func allCheckpoints() throws(Failure) -> [String: Checkpoint]
    /// What a rescan compares each source's stat with, by source key (`SourceKey.identity`): one query, and no
    /// hash or saved state of a source that has nothing new. A key that is no source key's text names no source
    /// a scan finds, and is left out.
    func checkpointStamps() throws(Failure) -> [Identity: CheckpointStamp]
    /// One source's checkpoint, for a source whose stamp shows it changed.
    func checkpoint(for sourceKey: String) throws(Failure) -> Checkpoint?
    /// Commits reads in order, each as the contract says; the group in one transaction where the ledger has them
    /// (a crash loses the whole group, whose sources are then read again). While the scan's lease is held, a
    /// ledger may keep that transaction open for later groups until `finishCommits`: a failure or a crash then
    /// loses everything since its last commit, never part of a read.
    func commit(_ reads: [SourceCommit]) throws(Failure) -> [CommitOutcome]
    /// Makes every read committed so far durable as a whole; called once the scan's last group is committed.
    func finishCommits() throws(Failure)
    /// Records that a scan starting at `time` (milliseconds since 1970) has completed: the ledger holds every
    /// readable record up to then (the live estimate's `measuredAt`).
    func recordMeasurement(at time: Int64) throws(Failure)
}

extension ScanLedger {
    public func checkpointStamps() throws(Failure) -> [Identity: CheckpointStamp] {
        var stamps: [Identity: CheckpointStamp] = [:]
        for (key, checkpoint) in try allCheckpoints() {
            var text = key
            if let identity = text.withUTF8({ Identity(description: UnsafeRawBufferPointer($0)) }) {
                stamps[identity] = checkpoint.stamp
            }
        }
        return stamps
    }

    public func checkpoint(for sourceKey: String) throws(Failure) -> Checkpoint? {
        try allCheckpoints()[sourceKey]
    }
}

/// When a group of finished reads is committed: once it holds this many reads or this many events, or this long
/// has passed since the last commit (so progress shows, and a crash loses little), whichever comes first.
public struct CommitGroup: Sendable {
    public let reads: Int
    public let events: Int
    public let seconds: Double

    public init(reads: Int, events: Int, seconds: Double) {
        self.reads = reads
        self.events = events
        self.seconds = seconds
    }
}

/// A ledger held for one scan.
public struct ScanLease: Sendable {
    private let end: @Sendable () -> Void

    public init(release: @escaping @Sendable () -> Void) {
        end = release
    }

    public func release() { end() }
}

/// One source's read, ready to commit.
public struct SourceCommit: Sendable {
    public let sourceKey: String
    /// The checkpoint the read started from: nil for a source never read.
    public let expected: Checkpoint?
    public let events: [TokenEvent]
    public let limits: [LimitSample]
    /// Where the read stopped; nil only for a ledger that keeps no checkpoint.
    public let checkpoint: Checkpoint?

    public init(sourceKey: String, expected: Checkpoint?, events: [TokenEvent], limits: [LimitSample], checkpoint: Checkpoint?) {
        self.sourceKey = sourceKey
        self.expected = expected
        self.events = events
        self.limits = limits
        self.checkpoint = checkpoint
    }
}

/// What committing one source's read did.
public struct CommitOutcome: Sendable, Equatable {
    public var counted = 0
    public var duplicates = 0
    /// False when another scan moved this source's checkpoint first: nothing was written.
    public var applied = true

    public init(counted: Int = 0, duplicates: Int = 0, applied: Bool = true) {
        self.counted = counted
        self.duplicates = duplicates
        self.applied = applied
    }
}
