import Testing
import UnpromptKit

/// `WatchLoop`'s schedule on a scripted clock: no test sleeps.
struct WatchLoopTests {
    /// Changes at scripted moments and a stop at one; `wait` moves the clock to the next of them, or by its
    /// whole timeout when none comes first.
    final class ScriptedChanges: ChangeSource {
        var now: Duration = .zero
        var changes: [Duration]
        var stopAt: Duration?
        /// Every wait's timeout, in order.
        var timeouts: [Double] = []

        init(changes: [Duration] = [], stopAt: Duration? = nil) {
            self.changes = changes.sorted()
            self.stopAt = stopAt
        }

        var isStopped: Bool { stopAt.map { now >= $0 } ?? false }

        func wait(timeout: Double?) -> Bool {
            let timeout = timeout ?? 1e9
            timeouts.append(timeout)
            if isStopped { return false }
            let deadline = now + .milliseconds(Int64((timeout * 1000).rounded()))
            let change = changes.first { $0 > now && $0 <= deadline }
            if let stopAt, stopAt > now, stopAt <= deadline, change.map({ stopAt <= $0 }) ?? true {
                now = stopAt
                return false
            }
            guard let change else {
                now = deadline
                return false
            }
            now = change
            changes.removeAll { $0 <= change }
            return true
        }
    }

    static func ms(_ milliseconds: Int64) -> Duration { .milliseconds(milliseconds) }

    /// Runs the loop; each round takes `roundTime` on the scripted clock. Returns when each round started.
    func rounds(_ changes: ScriptedChanges, interval: Duration = .seconds(60), roundTime: Duration = .zero) -> ([Duration], Bool) {
        var started: [Duration] = []
        let loop = WatchLoop(timing: WatchLoop.Timing(interval: interval), now: { changes.now })
        let stopped = loop.run(changes) { _ in
            started.append(changes.now)
            changes.now += roundTime
            return true
        }
        return (started, stopped)
    }

    @Test func aChangeAfterAQuietSpellIsScannedAtOnce() {
        let changes = ScriptedChanges(changes: [Self.ms(5_000)], stopAt: .seconds(30))
        let (started, stopped) = rounds(changes)
        #expect(started == [.zero, Self.ms(5_000)])
        #expect(stopped)
    }

    @Test func aChangeSoonAfterARoundIsScannedOnceItHasBeenQuietForTheDebounce() {
        // The round for the change at 5.0 s takes 50 ms; the change at 5.1 s comes 50 ms after it ended.
        let changes = ScriptedChanges(changes: [Self.ms(5_000), Self.ms(5_100)], stopAt: .seconds(30))
        let (started, _) = rounds(changes, roundTime: Self.ms(50))
        #expect(started == [.zero, Self.ms(5_000), Self.ms(5_250)])
    }

    @Test func aBurstIsScannedAtItsStartAtTheDebounceLimitThenAgainWhenItEnds() {
        // A write every 100 ms from 5.0 s to 6.0 s: the first is scanned at once; after it quiet never lasts 150 ms
        // until the burst ends.
        let burst = (0...10).map { Self.ms(5_000 + 100 * $0) }
        let changes = ScriptedChanges(changes: burst, stopAt: .seconds(30))
        let (started, _) = rounds(changes)
        // 5.1 starts a settle whose limit is 5.6; then 5.7 one that ends 150 ms after the last write, at 6.15.
        #expect(started == [.zero, Self.ms(5_000), Self.ms(5_600), Self.ms(6_150)])
    }

    @Test func withNothingChangingItRescansEveryIntervalAfterTheLastRoundEnded() {
        let changes = ScriptedChanges(stopAt: .seconds(130))
        let (started, stopped) = rounds(changes, roundTime: .seconds(2))
        #expect(started == [.zero, .seconds(62), .seconds(124)])
        #expect(stopped)
        #expect(changes.timeouts.prefix(2) == [60, 60])
    }

    @Test func aStopIsSeenBetweenTheStepsOfARoundAndEndsTheLoop() {
        let changes = ScriptedChanges(changes: [.seconds(1), .seconds(2)], stopAt: Self.ms(1_500))
        var steps: [Int] = []
        var rounds = 0
        let loop = WatchLoop(timing: WatchLoop.Timing(interval: .seconds(60)), now: { changes.now })
        let stopped = loop.run(changes) { stopRequested in
            rounds += 1
            // Three steps of a second each: the stop at 1.5 s is seen before the third.
            for step in 1...3 {
                if stopRequested() { break }
                steps.append(step)
                changes.now += .seconds(1)
            }
            return true
        }
        #expect(stopped)
        #expect(steps == [1, 2] && rounds == 1, "the changes at 1 s and 2 s make no round after the stop")
    }

    @Test func aStopDuringTheDebounceScansNothingMore() {
        // The change at 5.05 s comes within the debounce of the round for 5.0 s; the stop comes while it settles.
        let changes = ScriptedChanges(changes: [.seconds(5), Self.ms(5_050)], stopAt: Self.ms(5_100))
        let (started, stopped) = rounds(changes)
        #expect(started == [.zero, .seconds(5)] && stopped)
    }

    @Test func aRoundThatFailsEndsTheLoop() {
        let changes = ScriptedChanges(changes: [.seconds(5)], stopAt: .seconds(30))
        var rounds = 0
        let loop = WatchLoop(timing: WatchLoop.Timing(interval: .seconds(60)), now: { changes.now })
        let stopped = loop.run(changes) { _ in
            rounds += 1
            return rounds < 2
        }
        #expect(!stopped && rounds == 2)
    }
}
