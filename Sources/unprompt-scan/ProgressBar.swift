import Foundation
import UnpromptKit

/// The scan's progress bar on standard error: only on a terminal, only once a scan has run for about a
/// second, at most ten redraws a second, and its line cleared when the last source is done, so whatever
/// is printed next starts on a clean line.
///
/// It is plain text: `\r` and spaces, no color and no escape sequences, so `NO_COLOR` and dumb terminals
/// are respected by construction.
final class ProgressBar: Sendable {
    /// Silence before the first draw: quick scans never show a bar.
    static let delay = 1.0
    /// The least time between two draws.
    static let redrawInterval = 0.1

    /// A progress callback for `Scanner.scan`, or nil when standard error is not a terminal.
    static func forScan(environment: [String: String]) -> (@Sendable (ScanProgress) -> Void)? {
        guard isatty(STDERR_FILENO) == 1, environment["TERM"] != "dumb" else { return nil }
        let bar = ProgressBar(width: Terminal.width(of: STDERR_FILENO, environment) ?? 80)
        return { bar.update($0) }
    }

    private struct Drawn {
        var lastDraw: ContinuousClock.Instant?
        var length = 0
    }

    private let drawn = Locked(Drawn())
    private let start = ContinuousClock.now
    private let width: Int
    private let write: @Sendable (String) -> Void

    init(width: Int, write: @escaping @Sendable (String) -> Void = { text in FileHandle.standardError.write(Data(text.utf8)) }) {
        self.width = width
        self.write = write
    }

    func update(_ progress: ScanProgress, now: ContinuousClock.Instant = .now) {
        drawn.withLock { drawn in
            if progress.sourcesDone >= progress.sourcesTotal {
                finish(&drawn)
                return
            }
            guard start.duration(to: now) >= .seconds(Self.delay) else { return }
            if let lastDraw = drawn.lastDraw, lastDraw.duration(to: now) < .seconds(Self.redrawInterval) { return }
            drawn.lastDraw = now
            let line = Self.line(progress, width: width)
            let padding = String(repeating: " ", count: max(0, drawn.length - line.count))
            write("\r" + line + padding)
            drawn.length = line.count
        }
    }

    /// Clears the bar's line (nothing happens when it was never drawn).
    private func finish(_ drawn: inout Drawn) {
        guard drawn.length > 0 else { return }
        write("\r" + String(repeating: " ", count: drawn.length) + "\r")
        drawn.length = 0
    }

    /// `files 120/650 · MB 12.3/300.0 [#####-----]`, no wider than `width - 1` (a full last column would wrap).
    static func line(_ progress: ScanProgress, width: Int) -> String {
        let megabytes = { (bytes: Int64) in String(format: "%.1f", Double(bytes) / 1_000_000) }
        let text = "files \(progress.sourcesDone)/\(progress.sourcesTotal) · MB \(megabytes(progress.bytesDone))/\(megabytes(progress.bytesTotal))"
        // Bytes show a cold scan's real work; sources make sure it ends full when a resumed read is short.
        let bySources = progress.sourcesTotal > 0 ? Double(progress.sourcesDone) / Double(progress.sourcesTotal) : 1
        let byBytes = progress.bytesTotal > 0 ? Double(progress.bytesDone) / Double(progress.bytesTotal) : 0
        let fraction = min(1, max(bySources, byBytes))
        let room = min(30, width - 1 - text.count - 3)
        guard room >= 5 else { return String(text.prefix(max(0, width - 1))) }
        let filled = Int((fraction * Double(room)).rounded(.down))
        return text + " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: room - filled) + "]"
    }
}
