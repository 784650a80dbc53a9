import Foundation
import Testing
import UnpromptTestSupport

/// Exactly once, file by file: what log shippers' tail tests check (Fluent Bit, Telegraf, Vector, Alloy),
/// with the real binary scanning a temporary Claude Code (and Codex) home into a store after each step.
/// Every step asserts the store's totals equal the sum of the unique responses written so far, to the token.
struct TailTests {
    let project = "-home-dev-project"

    // MARK: Append and partial lines

    @Test func appendCountsOnlyTheNewLines() throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/s1.jsonl")
        try tree.write(file, ClaudeResponse.lines(1...5))
        var scan = try tree.scan()
        #expect(scan.status == 0, "\(scan.output.stderr)")
        #expect(scan.int("events") == 5)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...5))

        // New responses, one of them written as three content-block lines, plus a resumed copy of an old one.
        let appended = ClaudeResponse.lines(6...9, blocks: 3) + ClaudeResponse(3).lines()
        try tree.append(file, appended)
        scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("read") == 1)
        #expect(scan.int("reread") == 0, "an append must be read from the checkpoint, not from the start")
        #expect(scan.int("bytesRead") == appended.utf8.count, "only the appended bytes are read")
        #expect(scan.int("events") == 4)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...9))
    }

    /// Fluent Bit's `partial_line_across_restart_is_completed_once`: a fragment without its newline is not
    /// counted; once completed it is counted exactly once.
    @Test func partialLineAcrossRestartIsCompletedOnce() throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/s1.jsonl")
        let fresh = tree.project(project + "/s2.jsonl")
        let pending = ClaudeResponse(4, blocks: 1).lines()
        let prompt = String(pending.split(separator: "\n", omittingEmptySubsequences: false)[0]) + "\n"
        let answer = String(pending.dropFirst(prompt.count))
        let cut = answer.utf8.count / 2
        let firstHalf = String(decoding: Array(answer.utf8)[..<cut], as: UTF8.self)
        let secondHalf = String(decoding: Array(answer.utf8)[cut...], as: UTF8.self)
        try tree.write(file, ClaudeResponse.lines(1...3) + prompt + firstHalf)
        // A file whose only line is still being written.
        let only = ClaudeResponse(5, blocks: 1).lines()
        let onlyPrompt = String(only.split(separator: "\n", omittingEmptySubsequences: false)[0]) + "\n"
        let onlyCut = only.utf8.count - 40
        try tree.write(fresh, String(decoding: Array(only.utf8)[..<onlyCut], as: UTF8.self))

        var scan = try tree.scan()
        #expect(scan.status == 0, "\(scan.output.stderr)")
        #expect(scan.int("events") == 3)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...3))

        // Restart with nothing new: the fragments are neither counted nor lost.
        scan = try tree.scan()
        #expect(scan.int("events") == 0)
        #expect(scan.int("unchanged") == 2)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...3))

        try tree.append(file, secondHalf)
        try tree.append(fresh, String(decoding: Array(only.utf8)[onlyCut...], as: UTF8.self))
        scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("events") == 2)
        #expect(scan.int("reread") == 0)
        // The completed lines are read again from their first byte, and nothing before them is.
        #expect(scan.int("bytesRead") == answer.utf8.count + only.utf8.count - onlyPrompt.utf8.count)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...5))

        scan = try tree.scan()
        #expect(scan.int("events") == 0)
        #expect(scan.int("unchanged") == 2)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...5))
    }

    // MARK: Truncation, copy-truncate, replacement

    /// Truncated to nothing, scanned, then written again: what was counted stays; the new lines count.
    @Test func truncateThenNewLines() throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/s1.jsonl")
        try tree.write(file, ClaudeResponse.lines(1...6))
        #expect(try tree.scan().status == 0)
        let inode = tree.inode(file)

        try tree.write(file, "")
        var scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("events") == 0)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...6), "a truncation must not erase counted history")

        try tree.append(file, ClaudeResponse.lines(7...8))
        #expect(tree.inode(file) == inode, "the test meant to keep the same inode")
        scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("events") == 2)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...8))

        // Truncated and rewritten between two scans, larger than before: an offset-only tail would resume
        // in the middle of the new content.
        try tree.write(file, ClaudeResponse.lines(20...40))
        #expect(tree.size(file) > Int64(ClaudeResponse.lines(7...8).utf8.count))
        scan = try tree.scan()
        #expect(scan.int("reread") == 1)
        #expect(scan.int("events") == 21)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...8) + ClaudeResponse.totals(20...40))
    }

    enum SizeChange: String, CaseIterable, CustomTestStringConvertible {
        case smaller, sameSize, larger
        var testDescription: String { rawValue }
    }

    /// Telegraf's copytruncate split (smaller, same size, larger): the file is copied away (to a name the
    /// glob does not match, as logrotate does), truncated in place, and different content written, all
    /// between two scans. The same-size case is the one Telegraf admits it misses.
    @Test(arguments: SizeChange.allCases)
    func copyTruncate(_ change: SizeChange) throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/s1.jsonl")
        let old = ClaudeResponse.lines(1...4) + fillerLine(length: 600)
        try tree.write(file, old)
        #expect(try tree.scan().status == 0)
        let inode = tree.inode(file)
        let before = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        // The file system's clock is coarse (a few ms): let it move so the rewrite gets a new mtime.
        Thread.sleep(forTimeInterval: 0.02)

        try FileManager.default.copyItem(atPath: file, toPath: file + ".1")
        let fresh = ClaudeResponse.lines(101...104)
        let target: Int
        switch change {
        case .smaller: target = fresh.utf8.count + 100
        case .sameSize: target = old.utf8.count
        case .larger: target = old.utf8.count + 300
        }
        try tree.write(file, fresh + fillerLine(length: target - fresh.utf8.count))
        #expect(tree.inode(file) == inode, "copytruncate keeps the inode")
        #expect(tree.size(file) == Int64(target))
        if change == .sameSize { #expect(tree.size(file) == Int64(old.utf8.count)) }
        let after = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        #expect(before != after, "the rewrite should have a new modification time")

        let scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("reread") == 1)
        #expect(scan.int("events") == 4)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...4) + ClaudeResponse.totals(101...104))
    }

    /// An atomic rewrite: a new file renamed over the old one (new inode), holding the old lines and new ones.
    @Test func replacedWithANewInode() throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/s1.jsonl")
        try tree.write(file, ClaudeResponse.lines(1...5))
        #expect(try tree.scan().status == 0)
        let inode = tree.inode(file)

        try tree.write(file + ".tmp", ClaudeResponse.lines(1...5) + ClaudeResponse.lines(6...8))
        try #require(rename(file + ".tmp", file) == 0)
        #expect(tree.inode(file) != inode, "the test meant to replace the inode")
        var scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("reread") == 1)
        #expect(scan.int("events") == 3)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...8))

        // Replaced again with the very same bytes: nothing new.
        try tree.write(file + ".tmp", ClaudeResponse.lines(1...5) + ClaudeResponse.lines(6...8))
        try #require(rename(file + ".tmp", file) == 0)
        scan = try tree.scan()
        #expect(scan.int("events") == 0)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...8))
    }

    // MARK: Delete, recreate, rename

    @Test func deleteAndRecreateCountsOnlyTheNewLines() throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/s1.jsonl")
        let other = tree.project(project + "/s2.jsonl")
        try tree.write(file, ClaudeResponse.lines(1...4))
        try tree.write(other, ClaudeResponse.lines(5...6))
        #expect(try tree.scan().status == 0)

        try FileManager.default.removeItem(atPath: file)
        var scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("sources") == 1)
        #expect(scan.int("events") == 0)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...6), "a deleted file keeps its counted history")

        // Recreated at the same path (the inode may or may not be reused) with the old lines and new ones.
        try tree.write(file, ClaudeResponse.lines(1...4) + ClaudeResponse.lines(7...9))
        scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("events") == 3)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...9))
    }

    /// A file renamed inside the tree (another project folder, another name) is read again under its new
    /// path, and nothing in it counts twice; appends after the rename count once; renaming it back too.
    @Test func renameWithinTheTreeCountsNothingTwice() throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/s1.jsonl")
        let moved = tree.project("-home-dev-other/s1-moved.jsonl")
        try tree.write(file, ClaudeResponse.lines(1...5))
        #expect(try tree.scan().status == 0)

        try FileManager.default.createDirectory(
            atPath: (moved as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try #require(rename(file, moved) == 0)
        var scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("events") == 0)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...5))

        try tree.append(moved, ClaudeResponse.lines(6...7))
        scan = try tree.scan()
        #expect(scan.int("events") == 2)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...7))

        try #require(rename(moved, file) == 0)
        scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("events") == 0)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...7))
    }

    // MARK: Rescans

    /// A second scan with nothing new opens nothing and adds nothing; a deleted file's history stays.
    @Test func rescanWithNothingNewAddsNothing() throws {
        let tree = try ScanTree()
        for (index, range) in [1...3, 4...9, 10...10].enumerated() {
            try tree.write(tree.project(project + "/s\(index).jsonl"), ClaudeResponse.lines(range))
        }
        var scan = try tree.scan()
        #expect(scan.int("events") == 10)
        try FileManager.default.removeItem(atPath: tree.project(project + "/s1.jsonl"))
        for _ in 0..<2 {
            scan = try tree.scan()
            #expect(scan.status == 0)
            #expect(scan.int("sources") == 2)
            #expect(scan.int("unchanged") == 2)
            #expect(scan.int("read") == 0)
            #expect(scan.int("bytesRead") == 0)
            #expect(scan.int("events") == 0)
            #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...10))
        }
    }

    // MARK: Concurrency

    /// A file that grows while it is read: a thread appends responses (each line in two writes, so a
    /// half line is often on disk) while scans run; after the writer stops, one more scan makes the totals
    /// exact.
    @Test func fileGrowingWhileItIsRead() throws {
        let tree = try ScanTree()
        let file = tree.project(project + "/big.jsonl")
        // 20 MB of tool output that passes the prefilter (a nested "usage") but counts nothing, so a read
        // takes long enough for appends to land during it.
        let pad = String(repeating: "y", count: 1800)
        let filler =
            #"{"parentUuid":null,"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]},"timestamp":"2026-01-05T08:00:00.000Z","toolUseResult":{"usage":{"input_tokens":5,"output_tokens":3},"content":"\#(pad)"}}"#
            + "\n"
        try tree.write(file, String(repeating: filler, count: 10_000) + ClaudeResponse.lines(1...2))
        let appender = Appender(path: file, first: 1000)
        var appendedDuringScans = 0
        // Identities would hide a byte read twice; the bytes read, summed over every scan, must be the
        // file's size: each byte is consumed exactly once.
        var bytesRead = 0
        for _ in 0..<3 {
            let before = appender.count
            let run = try BinaryRun(["--store", tree.store, "--json"], environment: tree.environment)
            appender.start()
            let output = run.wait()
            appender.stop()
            appendedDuringScans += appender.count - before
            #expect(output.status == 0, "\(output.stderr)")
            if case .number(let bytes)? = (try? JSONTree(parsing: output.stdout))?["scan"]?["bytesRead"] {
                bytesRead += Int(bytes)
            } else {
                Issue.record("no bytesRead in \(output.stdout)")
            }
            let counted = try tree.claudeTotals()
            #expect(counted.events <= Int64(2 + appender.count), "more events than responses written")
        }
        #expect(appendedDuringScans > 0, "no append landed while a scan ran")
        let scan = try tree.scan()
        #expect(scan.status == 0)
        bytesRead += scan.int("bytesRead") ?? 0
        let expected = ClaudeResponse.totals(1...2) + ClaudeResponse.totals(1000..<(1000 + appender.count))
        #expect(try tree.claudeTotals() == expected)
        #expect(Int64(bytesRead) == tree.size(file), "bytes read twice or skipped")
        #expect(try tree.scan().int("events") == 0)
    }

    /// Two scan processes started at once against one existing store: both succeed, the events they
    /// report add up to the unique responses, and the store counts each once.
    @Test func twoScansAtOnce() throws {
        let tree = try ScanTree()
        var written = 0
        func addResponses() throws {
            for file in 0..<12 {
                let range = (written + 1)...(written + 15)
                try tree.append(tree.project("-home-dev-p\(file % 3)/s\(file).jsonl"), ClaudeResponse.lines(range, blocks: 2))
                written += 15
            }
        }
        for directory in 0..<3 {
            try FileManager.default.createDirectory(atPath: tree.project("-home-dev-p\(directory)"), withIntermediateDirectories: true)
        }
        // The store exists before the concurrent scans start.
        #expect(try tree.scan().status == 0)
        for round in 0..<3 {
            let countedBefore = try tree.claudeTotals().events
            try addResponses()
            let runs = try (0..<2).map { _ in try BinaryRun(["--store", tree.store, "--json"], environment: tree.environment) }
            let outputs = runs.map { $0.wait() }
            var reported = 0
            for output in outputs {
                #expect(output.status == 0, "round \(round): \(output.stderr)")
                if case .number(let events)? = (try? JSONTree(parsing: output.stdout))?["scan"]?["events"] {
                    reported += Int(events)
                } else {
                    Issue.record("round \(round): no scan report in \(output.stdout)")
                }
            }
            #expect(Int64(reported) == Int64(written) - countedBefore, "round \(round): events reported twice or lost")
            #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...written), "round \(round)")
        }
    }

    // MARK: Failures

    /// A source that cannot be read (a link to /proc/self/mem: reading it fails with EIO, even as root)
    /// is reported with exit 1, nothing of it counts, other sources are counted; once fixed it is counted.
    /// A source already read that turns unreadable keeps its history and its checkpoint.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/mem")))
    func unreadableSourceIsReportedAndRetried() throws {
        let tree = try ScanTree()
        let good = tree.project(project + "/good.jsonl")
        let bad = tree.project(project + "/bad.jsonl")
        let later = tree.project(project + "/later.jsonl")
        try tree.write(good, ClaudeResponse.lines(1...3))
        try tree.write(later, ClaudeResponse.lines(20...22))
        try FileManager.default.createSymbolicLink(atPath: bad, withDestinationPath: "/proc/self/mem")

        var scan = try tree.scan()
        #expect(scan.status == 1, "an unreadable source must give exit 1")
        #expect(scan.int("failed") == 1)
        #expect(scan.int("read") == 2)
        #expect(scan.output.stdout.contains("unreadable-source"))
        if case .array(let problems)? = scan.report["problems"] {
            #expect(problems.count == 1)
        } else {
            Issue.record("no problems reported")
        }
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...3) + ClaudeResponse.totals(20...22))

        // An already counted source turns unreadable: its history stays, the failure is reported again.
        try tree.append(later, ClaudeResponse.lines(23...23))
        try FileManager.default.removeItem(atPath: later)
        // Another target than bad.jsonl's: one file reached by two paths is listed once.
        try FileManager.default.createSymbolicLink(atPath: later, withDestinationPath: "/proc/thread-self/mem")
        scan = try tree.scan()
        #expect(scan.status == 1)
        #expect(scan.int("failed") == 2)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...3) + ClaudeResponse.totals(20...22))

        // Fixed: both are real files again, and count once.
        try FileManager.default.removeItem(atPath: bad)
        try FileManager.default.removeItem(atPath: later)
        try tree.write(bad, ClaudeResponse.lines(4...6))
        try tree.write(later, ClaudeResponse.lines(20...24))
        scan = try tree.scan()
        #expect(scan.status == 0, "\(scan.output.stdout)")
        #expect(scan.int("failed") == 0)
        #expect(scan.int("events") == 5)
        #expect(try tree.claudeTotals() == ClaudeResponse.totals(1...6) + ClaudeResponse.totals(20...24))
    }

    // MARK: Codex: state carried across scans

    /// Codex counts are running totals and its model comes from an earlier line: both must survive a
    /// restart in the middle of a session, a partial line, and the session being archived (moved to
    /// `archived_sessions/`, another glob of the same reader).
    @Test func codexRunningTotalsSurviveRestartsAndArchiving() throws {
        let tree = try ScanTree()
        let file = tree.session("2026/01/12/rollout-2026-01-12T10-04-31-019bb1aa-1067-7536-b6df-fce8112d9d11.jsonl")
        var rollout = CodexRollout()
        var byModel: [String: StoreTotals] = [:]
        func calls(_ count: Int, model: String, reemit: Bool = false) -> String {
            let before = rollout.expected
            let text = (0..<count).map { _ in rollout.call(reemit: reemit) }.joined()
            byModel[model, default: .zero] += StoreTotals(
                input: rollout.expected.input - before.input, output: rollout.expected.output - before.output,
                cacheRead: rollout.expected.cacheRead - before.cacheRead, reasoning: rollout.expected.reasoning - before.reasoning,
                events: rollout.expected.events - before.events)
            return text
        }
        func expectStore(_ comment: Comment) throws {
            let stored = try StoreReader.totalsByModel(store: tree.store)
            #expect(stored == Dictionary(uniqueKeysWithValues: byModel.map { ("codex/" + $0.key, $0.value) }), comment)
        }

        try tree.write(file, rollout.header() + rollout.turn(model: "gpt-5.1-codex") + calls(3, model: "gpt-5.1-codex"))
        #expect(try tree.scan().status == 0)
        try expectStore("first scan")

        let next = calls(2, model: "gpt-5.1-codex", reemit: true)
        let cut = next.utf8.count - 25
        try tree.append(file, String(decoding: Array(next.utf8)[..<cut], as: UTF8.self))
        #expect(try tree.scan().status == 0)
        try tree.append(file, String(decoding: Array(next.utf8)[cut...], as: UTF8.self))
        var scan = try tree.scan()
        #expect(scan.int("reread") == 0)
        try expectStore("after a partial line was completed")

        try tree.append(file, rollout.turn(model: "gpt-5.1-codex-mini") + calls(2, model: "gpt-5.1-codex-mini"))
        scan = try tree.scan()
        #expect(scan.int("events") == 2)
        try expectStore("after the model changed")

        let archived = tree.codex + "/archived_sessions/" + (file as NSString).lastPathComponent
        try FileManager.default.createDirectory(atPath: tree.codex + "/archived_sessions", withIntermediateDirectories: true)
        try #require(rename(file, archived) == 0)
        scan = try tree.scan()
        #expect(scan.status == 0)
        #expect(scan.int("events") == 0)
        try expectStore("after archiving")

        try tree.append(archived, calls(1, model: "gpt-5.1-codex-mini"))
        scan = try tree.scan()
        #expect(scan.int("events") == 1)
        try expectStore("after appending to the archived copy")
        #expect(try tree.codexTotals() == rollout.expected)
    }
}

/// Appends Claude responses to a file from a background thread, each line in two writes.
final class Appender: @unchecked Sendable {
    private let lock = NSLock()
    private let path: String
    private let first: Int
    private var written = 0
    private var running = false
    private var finished = DispatchSemaphore(value: 0)

    init(path: String, first: Int) {
        self.path = path
        self.first = first
    }

    /// Responses fully written so far, numbered from `first`.
    var count: Int { lock.withLock { written } }

    func start() {
        lock.withLock { running = true }
        finished = DispatchSemaphore(value: 0)
        let done = finished
        Thread.detachNewThread { [self] in
            let fd = open(path, O_WRONLY | O_APPEND)
            defer {
                close(fd)
                done.signal()
            }
            while lock.withLock({ running }) {
                let number = lock.withLock { first + written }
                let bytes = Array(ClaudeResponse(number, blocks: 2).lines().utf8)
                let cut = bytes.count / 2 + number % 50
                for part in [bytes[..<cut], bytes[cut...]] {
                    var done = part.startIndex
                    while done < part.endIndex {
                        let n = part.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + (done - part.startIndex), part.endIndex - done) }
                        if n <= 0 { return }
                        done += n
                    }
                    usleep(300)
                }
                lock.withLock { written += 1 }
            }
        }
    }

    /// Stops after the response being written is complete; waits at most 5 s.
    func stop() {
        lock.withLock { running = false }
        _ = finished.wait(timeout: .now() + 5)
    }
}
