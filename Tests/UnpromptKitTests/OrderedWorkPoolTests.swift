import Foundation
import Testing

@testable import UnpromptKit

/// Jobs run on several threads, and their outputs come back in job order, whatever order the jobs finish in.
struct OrderedWorkPoolTests {
    /// Job i sleeps longer the earlier it is, so later jobs finish first.
    private static func job(_ count: Int) -> @Sendable (inout Int, Int) -> Int {
        { _, index in
            usleep(UInt32((count - index) * 300))
            return index * index
        }
    }

    @Test func outputsComeInJobOrderOnAWorker() {
        let count = 40
        let seen = Locked([Int]())
        OrderedWorkPool.run(
            count: count, threads: 4, workerState: { 0 }, job: Self.job(count),
            inOrder: { output in seen.withLock { $0.append(output) } })
        #expect(seen.withLock { $0 } == (0..<count).map { $0 * $0 })
    }

    /// The first output's hand-over waits until the third job has started: that job can only start if the worker
    /// that finished the second one did not wait for the hand-over.
    @Test func aSlowHandOverHoldsUpNoWorker() {
        let thirdStarted = DispatchSemaphore(value: 0)
        let seen = Locked([Int]())
        let waitedInTime = Locked(true)
        OrderedWorkPool.run(
            count: 3, threads: 2, workerState: { 0 },
            job: { _, index in
                if index == 2 { thirdStarted.signal() }
                // The second job ends after the first, so its worker finds the first one being handed over.
                if index == 1 { usleep(20_000) }
                return index
            },
            inOrder: { output in
                if output == 0, thirdStarted.wait(timeout: .now() + 10) == .timedOut {
                    waitedInTime.withLock { $0 = false }
                }
                seen.withLock { $0.append(output) }
            })
        #expect(waitedInTime.withLock { $0 })
        #expect(seen.withLock { $0 } == [0, 1, 2])
    }

    /// With a backlog of one output, the worker that leaves the second output while the first is handed over waits
    /// there: no third job starts until the hand-over is done.
    @Test func aFullBacklogHoldsTheWorkersBack() {
        let started = Locked(0)
        let secondDone = DispatchSemaphore(value: 0)
        let startedDuringHandOver = Locked(-1)
        OrderedWorkPool.run(
            count: 10, threads: 2, backlog: 1, workerState: { 0 },
            job: { _, index in
                started.withLock { $0 += 1 }
                // The second job ends after the first, so its worker finds the first one being handed over.
                if index == 1 {
                    usleep(20_000)
                    secondDone.signal()
                }
                return index
            },
            inOrder: { output in
                guard output == 0 else { return }
                // Time for the second job's worker to leave its output and, were it not held, take more jobs.
                _ = secondDone.wait(timeout: .now() + 10)
                usleep(100_000)
                startedDuringHandOver.withLock { $0 = started.withLock { $0 } }
            })
        #expect(startedDuringHandOver.withLock { $0 } == 2)
        #expect(started.withLock { $0 } == 10)
    }

    @Test func outputsComeInJobOrderOnTheCallingThread() {
        let count = 40
        let caller = pthread_self()
        var seen: [Int] = []
        var onCaller = true
        OrderedWorkPool.run(
            count: count, threads: 4, workerState: { 0 }, job: Self.job(count),
            onCallingThread: { output in
                onCaller = onCaller && pthread_equal(pthread_self(), caller) != 0
                seen.append(output)
            })
        #expect(seen == (0..<count).map { $0 * $0 })
        #expect(onCaller)
    }

    @Test func noJobRunsNothing() {
        var called = false
        OrderedWorkPool.run(count: 0, threads: 2, workerState: { 0 }, job: Self.job(0), onCallingThread: { _ in called = true })
        OrderedWorkPool.run(count: 0, threads: 2, workerState: { 0 }, job: Self.job(0), inOrder: { _ in preconditionFailure() })
        #expect(!called)
    }
}
