import Foundation

/// Runs jobs `0..<count` on up to `threads` threads and hands their outputs to `inOrder` in job order, one at
/// a time, so that what `inOrder` does (which copy of a duplicate counts, what a store commits) never depends on
/// timing.
///
/// Each thread makes its own `WorkerState` (readers keep buffers and parsers), which never leaves it.
package enum OrderedWorkPool {
    /// `inOrder` runs on whichever thread finishes the next job in line: no extra thread competes with the workers.
    package static func run<WorkerState, Output: Sendable>(
        count: Int, threads: Int, workerState: @escaping @Sendable () -> WorkerState,
        job: @escaping @Sendable (inout WorkerState, Int) -> Output, inOrder: @escaping @Sendable (Output) -> Void
    ) {
        let reorder = Locked(ReorderBuffer<Output>())
        let group = start(count: count, threads: threads, workerState: workerState, job: job) { index, output in
            reorder.withLock { buffer in
                buffer.waiting[index] = output
                while let ready = buffer.waiting.removeValue(forKey: buffer.next) {
                    buffer.next += 1
                    inOrder(ready)
                }
            }
        }
        group?.wait()
    }

    /// As `run`, but `inOrder` runs on the calling thread, each output as soon as it and those before it are done,
    /// while the workers go on: for outputs used where only the caller may use them (a transaction it holds).
    package static func run<WorkerState, Output: Sendable>(
        count: Int, threads: Int, workerState: @escaping @Sendable () -> WorkerState,
        job: @escaping @Sendable (inout WorkerState, Int) -> Output, onCallingThread inOrder: (Output) -> Void
    ) {
        let done = Locked<[Int: Output]>([:])
        let ready = DispatchSemaphore(value: 0)
        let group = start(count: count, threads: threads, workerState: workerState, job: job) { index, output in
            done.withLock { $0[index] = output }
            ready.signal()
        }
        guard let group else { return }
        for index in 0..<count {
            // Each output signals once: a wake-up for a later one leaves it waiting for its turn.
            while true {
                if let output = done.withLock({ $0.removeValue(forKey: index) }) {
                    inOrder(output)
                    break
                }
                ready.wait()
            }
        }
        group.wait()
    }

    /// Starts the workers, each taking the next job until none is left and giving `finished` its output; nil when
    /// there is no job.
    private static func start<WorkerState, Output: Sendable>(
        count: Int, threads: Int, workerState: @escaping @Sendable () -> WorkerState,
        job: @escaping @Sendable (inout WorkerState, Int) -> Output, finished: @escaping @Sendable (Int, Output) -> Void
    ) -> DispatchGroup? {
        guard count > 0 else { return nil }
        let next = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<min(max(threads, 1), count) {
            DispatchQueue.global().async(group: group) {
                var state = workerState()
                while let index = next.withLock({ taken -> Int? in
                    guard taken < count else { return nil }
                    taken += 1
                    return taken - 1
                }) {
                    finished(index, job(&state, index))
                }
            }
        }
        return group
    }
}

/// Outputs that finished before an earlier one, until it is in.
private struct ReorderBuffer<Output> {
    var waiting: [Int: Output] = [:]
    var next = 0
}
