import Foundation
import Testing
import UnpromptTestSupport

/// FIFOs and loops of symbolic links among a tool's logs: a scan never waits on a FIFO, never walks a loop, never
/// counts a file twice through a second name, and counts each name that is no file as `not-a-file`.
struct SpecialFileFaultTests {
    static let project = ".claude/projects/p"

    /// Runs the binary, failing (and killing it) if it has not ended within `seconds`: a scan that opens a FIFO
    /// without O_NONBLOCK, or follows a loop, would never end.
    static func runWithin(_ seconds: Double, _ arguments: [String], home: HostileHome) throws -> Binary.Output? {
        let run = try BinaryRun(
            arguments, environment: ["HOME": home.home, "UNPROMPT_AIDER_ROOTS": home.home, "UNPROMPT_NOW": "2026-04-05T12:00:00Z"])
        let deadline = Date().addingTimeInterval(seconds)
        while run.process.isRunning && Date() < deadline { usleep(20_000) }
        guard !run.process.isRunning else {
            run.kill()
            return nil
        }
        return run.wait()
    }

    @Test func fifosAndSymlinkLoopsAmongTheLogsAreCountedAsNotAFileAndNeverHang() throws {
        let home = try HostileHome("special-files")
        defer { home.remove() }
        try home.write(
            HostileHome.claudeRecord("a", input: "100") + HostileHome.claudeRecord("b", input: "20"),
            at: Self.project + "/a.jsonl")
        let directory = home.home + "/" + Self.project
        // Five names the glob matches that are no file: a FIFO, a link to itself, two links to each other, a
        // link to nothing. And two that it must leave alone: a second name for a.jsonl, a FIFO it does not match.
        #expect(mkfifo(directory + "/fifo.jsonl", 0o644) == 0)
        #expect(mkfifo(directory + "/fifo.txt", 0o644) == 0)
        #expect(symlink("self.jsonl", directory + "/self.jsonl") == 0)
        #expect(symlink("pong.jsonl", directory + "/ping.jsonl") == 0)
        #expect(symlink("ping.jsonl", directory + "/pong.jsonl") == 0)
        #expect(symlink("missing.jsonl", directory + "/dangling.jsonl") == 0)
        #expect(symlink("a.jsonl", directory + "/same.jsonl") == 0)
        // Links to directories above and beside: never followed, so the walk cannot loop or count twice.
        #expect(symlink("..", directory + "/up") == 0)
        #expect(symlink("p", home.home + "/.claude/projects/q") == 0)

        for _ in 0..<2 {
            let scan = try #require(try Self.runWithin(60, ["--json", "--store", home.store], home: home), "the scan hung")
            #expect(scan.status == 0, "\(scan.stderr)")
            let skipped = try JSONTree(parsing: scan.stdout)["scan"]?["skipped"]
            #expect(skipped?["not-a-file"] == .number(5), "\(scan.stdout.prefix(400))")
            #expect(try StoreReader.totals(store: home.store)["claude-code"] == StoreTotals(input: 120, output: 2, events: 2))
        }
        let dryRun = try #require(
            try Self.runWithin(60, ["--dry-run", "--reader", "claude-code", "--json"], home: home), "the dry run hung")
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let report = try JSONTree(parsing: dryRun.stdout)["readers"]
        guard case .array(let readers) = report, let claude = readers.first else {
            Issue.record("no reader in \(dryRun.stdout.prefix(400))")
            return
        }
        #expect(claude["skipped"]?["not-a-file"] == .number(5))
        #expect(claude["events"] == .number(2))
        #expect(claude["totals"]?["input"] == .number(120))
    }
}
