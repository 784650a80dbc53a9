import Foundation
import UnpromptKit

/// A `ChangeWatcher` waited on in slices that end on the wall clock's seconds, calling `tick` at each: the
/// watch loop (`WatchLoop`) waits for changes as ever, and a screen is drawn once a second meanwhile. The
/// process wakes once a second and sleeps in between.
final class TickingChanges: ChangeSource {
    let watcher: ChangeWatcher
    let tick: () -> Void

    init(_ watcher: ChangeWatcher, tick: @escaping () -> Void) {
        self.watcher = watcher
        self.tick = tick
    }

    var isStopped: Bool { watcher.isStopped }

    func wait(timeout: Double?) -> Bool {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: .milliseconds(Int64(max(0, $0) * 1000))) }
        while true {
            let second = (WatchCommand.wallClock() / 1000 + 1) * 1000
            // A few milliseconds past the second, so a wait that ends a little early still ends after it.
            var slice = Double(second + 5 - WatchCommand.wallClock()) / 1000
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return false }
                slice = min(slice, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            }
            if watcher.wait(timeout: max(0, slice)) { return true }
            if watcher.isStopped { return false }
            if WatchCommand.wallClock() >= second { tick() }
        }
    }
}
