import Foundation

/// Runs jobs `0..<count` on up to `threads` threads and hands their outputs to `inOrder` in job order, one at
/// a time, on whichever thread finishes the next job in line: no extra thread competes with the workers, and
/// what `inOrder` does (which copy of a duplicate counts, what a store commits) never depends on timing.
///
/// Each thread makes its own `WorkerState` (readers keep buffers and parsers), which never leaves it.
package enum OrderedWorkPool {
    package static func run<WorkerState, Output: Sendable>(
        count: Int, threads: Int, workerState: @escaping @Sendable () -> WorkerState,
        job: @escaping @Sendable (inout WorkerState, Int) -> Output, inOrder: @escaping @Sendable (Output) -> Void
    ) {
        guard count > 0 else { return }
        let next = Locked(0)
        let reorder = Locked(ReorderBuffer<Output>())
        let group = DispatchGroup()
        for _ in 0..<min(max(threads, 1), count) {
            DispatchQueue.global().async(group: group) {
                var state = workerState()
                while let index = next.withLock({ taken -> Int? in
                    guard taken < count else { return nil }
                    taken += 1
                    return taken - 1
                }) {
                    let output = job(&state, index)
                    reorder.withLock { buffer in
                        buffer.waiting[index] = output
                        while let ready = buffer.waiting.removeValue(forKey: buffer.next) {
                            buffer.next += 1
                            inOrder(ready)
                        }
                    }
                }
            }
        }
        group.wait()
    }
}

/// Outputs that finished before an earlier one, until it is in.
private struct ReorderBuffer<Output> {
    var waiting: [Int: Output] = [:]
    var next = 0
}
