/// What the watch loop waits on: changes to the sources, and a request to stop (`ChangeWatcher`).
public protocol ChangeSource: AnyObject {
    /// Blocks until something changed (true), or until `timeout` seconds passed or a stop was asked for (false).
    func wait(timeout: Double?) -> Bool
    var isStopped: Bool { get }
}

extension ChangeWatcher: ChangeSource {}

/// When `watch` scans: a round at once, then a round after every change, and at least every `interval` (a
/// stat-only pass when nothing changed: the safety net for changes a watcher cannot see).
///
/// A change after a quiet spell (`debounce` since the last round ended) is scanned at once: a line a tool appends
/// reaches the store in the time a round takes. A change that comes sooner is part of a burst of writes: the loop
/// then waits until the sources have been quiet for `debounce`, at most `debounceLimit` after that change, so the
/// rest of a burst makes one more round, not one per write. A stop request ends the loop between rounds, and a
/// round is handed a predicate to check it between its own steps, so a round is never cut mid-step.
///
/// The clock is injected (and the waiting is the change source's), so the schedule is tested without sleeping.
public struct WatchLoop {
    public struct Timing: Sendable {
        public var debounce: Duration
        public var debounceLimit: Duration
        public var interval: Duration

        public init(debounce: Duration = .milliseconds(150), debounceLimit: Duration = .milliseconds(500), interval: Duration) {
            self.debounce = debounce
            self.debounceLimit = debounceLimit
            self.interval = interval
        }
    }

    public let timing: Timing
    /// Monotonic time since an arbitrary start.
    let now: () -> Duration

    public init(timing: Timing, now: @escaping () -> Duration = WatchLoop.monotonic()) {
        self.timing = timing
        self.now = now
    }

    /// The system's monotonic clock, from the moment this is called.
    public static func monotonic() -> () -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// Runs rounds until a stop is asked for (true) or a round returns false (false). `round` is given a
    /// predicate that is true once a stop has been asked for.
    public func run(_ changes: some ChangeSource, round: (_ stopRequested: () -> Bool) -> Bool) -> Bool {
        var nextRound = now()
        var lastRoundEnded: Duration?
        var changed = true
        while !changes.isStopped {
            if changed || now() >= nextRound {
                guard round({ changes.isStopped }) else { return false }
                lastRoundEnded = now()
                nextRound = now() + timing.interval
            }
            changed = changes.wait(timeout: Self.seconds(max(.zero, nextRound - now())))
            if changed, let lastRoundEnded, now() - lastRoundEnded < timing.debounce { settle(changes) }
        }
        return true
    }

    /// Lets a burst of writes end: quiet for `debounce`, or `debounceLimit` after it began.
    func settle(_ changes: some ChangeSource) {
        let limit = now() + timing.debounceLimit
        while now() < limit, !changes.isStopped {
            guard changes.wait(timeout: Self.seconds(min(timing.debounce, limit - now()))) else { return }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// A loop runs on the thread that calls `run`, with a clock that need not be shared.
@available(*, unavailable)
extension WatchLoop: Sendable {}
