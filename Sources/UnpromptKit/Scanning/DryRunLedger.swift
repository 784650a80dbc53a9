/// A dry run's `ScanLedger`: identities and totals in memory, for one reader, with no checkpoint and nothing
/// that can fail. Every read is new to it, so every source is read whole, from the start.
final class DryRunLedger: ScanLedger {
    typealias Failure = Never

    private struct Tally {
        var deduplicator = Deduplicator(CompactIdentityLedger())
        var totals = UsageTotals()
        var latestLimits: [LimitSample] = []
        var limitSamples = 0

        mutating func commit(_ read: SourceCommit) -> CommitOutcome {
            var outcome = CommitOutcome()
            for event in read.events {
                switch deduplicator.admit(event) {
                case .counted:
                    outcome.counted += 1
                    totals.add(event)
                case .duplicate:
                    outcome.duplicates += 1
                case .replaced(let previous):
                    outcome.duplicates += 1
                    totals.remove(previous)
                    totals.add(event)
                }
            }
            limitSamples += read.limits.count
            // The latest of each read's first, so that its samples are not copied (the later one still wins a tie).
            latestLimits = LimitSample.latestPerWindow(latestLimits + LimitSample.latestPerWindow(read.limits))
            return outcome
        }
    }

    private let tally = Locked(Tally())

    var keepsCheckpoints: Bool { false }
    var commitGroup: CommitGroup { CommitGroup(reads: 1, events: 1, seconds: 0) }

    /// Each dry run has its own ledger: nothing to wait for.
    func lockForScan() -> ScanLease { ScanLease {} }

    func allCheckpoints() -> [String: Checkpoint] { [:] }

    func commit(_ reads: [SourceCommit]) -> [CommitOutcome] {
        tally.withLock { tally in reads.map { tally.commit($0) } }
    }

    func finishCommits() {}

    /// A dry run keeps nothing, so it is never a measurement of anything.
    func recordMeasurement(at time: Int64) {}

    /// What was counted: the totals, the latest sample of each window, and how many samples were read.
    var folded: (totals: UsageTotals, latestLimits: [LimitSample], limitSamples: Int) {
        tally.withLock { ($0.totals, $0.latestLimits, $0.limitSamples) }
    }
}
