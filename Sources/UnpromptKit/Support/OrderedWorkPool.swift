import Foundation

/// Runs jobs `0..<count` on up to `threads` threads and hands their outputs to `inOrder` in job order, one at
/// a time, so that what `inOrder` does (which copy of a duplicate counts, what a store commits) never depends on
/// timing.
///
/// Each thread makes its own `WorkerState` (readers keep buffers and parsers), which never leaves it.
package enum OrderedWorkPool {
    /// `inOrder` runs on a worker, one output at a time: the worker that finds the next output in line hands it
    /// over, and those after it that are done, while the other workers leave their outputs and go on with their
    /// next jobs. No extra thread competes with the workers, and a slow `inOrder` (a store's commit) does not hold
    /// up the other workers.
    ///
    /// Outputs left waiting weigh at most about `backlog` (by `weight`): a worker that leaves one when they
    /// weigh `backlog` or more waits, once it is left, until the hand-over brings them under. It waits only
    /// after leaving its output, so the next output in line always comes in.
    package static func run<WorkerState, Output: Sendable>(
        count: Int, threads: Int, backlog: Int = .max, weight: @escaping @Sendable (Output) -> Int = { _ in 1 },
        workerState: @escaping @Sendable () -> WorkerState,
        job: @escaping @Sendable (inout WorkerState, Int) -> Output, inOrder: @escaping @Sendable (Output) -> Void
    ) {
        precondition(backlog > 0, "a backlog of nothing would hold every worker that is not handing over")
        let reorder = Locked(ReorderBuffer<Output>())
        let drained = DispatchSemaphore(value: 0)
        let group = start(count: count, threads: threads, workerState: workerState, job: job) { index, output in
            let handsOver = reorder.withLock { buffer -> Bool in
                buffer.waiting[index] = output
                buffer.weight += weight(output)
                guard !buffer.handingOver else { return false }
                buffer.handingOver = true
                return true
            }
            guard handsOver else {
                while reorder.withLock({ buffer -> Bool in
                    guard buffer.weight >= backlog else { return false }
                    buffer.sleepers += 1
                    return true
                }) {
                    drained.wait()
                }
                return
            }
            // Only one worker at a time is here (`handingOver`), so outputs go to `inOrder` one by one, in order,
            // outside the lock. It stops only under the lock, when the next output is not in yet: whoever
            // leaves that one takes over.
            while let (ready, wake) = reorder.withLock({ buffer -> (Output, Int)? in
                guard let ready = buffer.waiting.removeValue(forKey: buffer.next) else {
                    buffer.handingOver = false
                    return nil
                }
                buffer.next += 1
                buffer.weight -= weight(ready)
                guard buffer.weight < backlog else { return (ready, 0) }
                defer { buffer.sleepers = 0 }
                return (ready, buffer.sleepers)
            }) {
                for _ in 0..<wake { drained.signal() }
                inOrder(ready)
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
    /// The weight of `waiting`.
    var weight = 0
    /// A worker is handing outputs to `inOrder`.
    var handingOver = false
    /// Workers waiting for `weight` to fall under the backlog.
    var sleepers = 0
}
