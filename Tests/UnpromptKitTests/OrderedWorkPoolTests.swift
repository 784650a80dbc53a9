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
