/// The rounds of `watch` (`WatchLoop`): each an incremental scan of every descriptor, one at a time, so a stop
/// request waits for one descriptor's scan at most, and the events counted are known per tool.
///
/// A round first has the store's pages checked when a check is due (`UsageStore.refuseDamagedPagesWhenDue`): a
/// damaged store ends the watch before anything is written. A round that scanned every descriptor records its start as when the store was last measured (the live
/// estimate's `measuredAt`, as after any scan). A problem is reported in the round it appears, not in every
/// round while it lasts.
public struct WatchScan {
    /// A source that could not be read, in a descriptor's scan.
    public struct Problem: Sendable, Equatable {
        public let tool: String
        /// The source's number in its scan's reading order (0 for a problem of no one source), and the line.
        public let source: Int
        public let line: Int
        public let reason: String
    }

    public struct Round: Sendable {
        /// New events by tool, in descriptor order; tools that counted nothing are left out.
        public let counted: [Count]
        /// Sources read (not only stat'ed) in the round.
        public let sourcesRead: Int
        /// Problems not reported by the round before.
        public let newProblems: [Problem]
        /// Store errors met, in order. A busy store (another program holds it) is retried by the next round.
        public let storeErrors: [StoreError]
        /// A store error that is not a busy store: the watch cannot go on.
        public let fatal: Bool
        /// When the round ended, in milliseconds since 1970.
        public let finishedAt: Int64

        public var events: Int { counted.reduce(0) { $0 + $1.events } }
    }

    public struct Count: Sendable, Equatable {
        public let tool: String
        public let events: Int
    }

    public let store: UsageStore
    public let step: ScanStep
    public let descriptors: [Descriptor]
    /// The wall clock, in milliseconds since 1970.
    let clock: () -> Int64
    private var lastProblems: [Problem] = []

    public init(store: UsageStore, step: ScanStep, descriptors: [Descriptor], clock: @escaping () -> Int64) {
        self.store = store
        self.step = step
        self.descriptors = descriptors
        self.clock = clock
    }

    /// One round; `stopRequested` is checked before each descriptor.
    public mutating func round(stopRequested: () -> Bool) -> Round {
        let started = clock()
        var counted: [Count] = []
        var sources = 0
        var problems: [Problem] = []
        var errors: [StoreError] = []
        var complete = true
        do {
            try store.refuseDamagedPagesWhenDue(now: started)
        } catch {
            return Round(
                counted: [], sourcesRead: 0, newProblems: [], storeErrors: [error], fatal: !error.busy, finishedAt: clock())
        }
        for descriptor in descriptors {
            if stopRequested() {
                complete = false
                break
            }
            let report: ScanReport
            do {
                report = try step.scan(store, [descriptor])
            } catch {
                errors.append(error)
                complete = false
                if error.busy { continue }
                return Round(counted: counted, sourcesRead: sources, newProblems: [], storeErrors: errors, fatal: true, finishedAt: clock())
            }
            if report.counted > 0 { counted.append(Count(tool: descriptor.id, events: report.counted)) }
            sources += report.read
            problems += report.problems.map { Problem(tool: descriptor.id, source: $0.source, line: $0.line, reason: $0.reason) }
        }
        if complete {
            do {
                try store.recordMeasurement(at: started)
            } catch {
                errors.append(error)
                if !error.busy {
                    return Round(
                        counted: counted, sourcesRead: sources, newProblems: [], storeErrors: errors, fatal: true, finishedAt: clock())
                }
            }
        }
        let new = problems == lastProblems ? [] : problems.filter { !lastProblems.contains($0) }
        if problems != lastProblems { lastProblems = problems }
        return Round(counted: counted, sourcesRead: sources, newProblems: new, storeErrors: errors, fatal: false, finishedAt: clock())
    }
}

/// Rounds run one after another on the watch loop's thread, and remember what the last one reported.
@available(*, unavailable)
extension WatchScan: Sendable {}
