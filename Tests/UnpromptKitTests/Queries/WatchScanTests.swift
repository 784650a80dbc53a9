import Foundation
import Testing
@testable import UnpromptKit
import UnpromptTestSupport

/// `WatchScan`'s rounds on a Claude home copied from a fixture, with the wall clock injected.
final class WatchScanTests {
    let directory: String
    let descriptors: [Descriptor]
    var claude: String { directory + "/claude" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("watch-scan-\(UUID().uuidString)").path
        descriptors = ReaderCatalog(directories: [Repository.readers]).descriptors
        try FileManager.default.createDirectory(atPath: claude, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repository.fixtures + "/claude-code/content-blocks/projects", toPath: claude + "/projects")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func scan(clock: @escaping () -> Int64) throws -> WatchScan {
        WatchScan(
            store: try UsageStore(path: directory + "/usage.sqlite"),
            step: ScanStep(environment: ["CLAUDE_CONFIG_DIR": claude], home: "/nonexistent-home"), descriptors: descriptors,
            clock: clock)
    }

    /// Appends one assistant line the store has not seen to the fixture's session file.
    func appendLine(_ id: String) throws {
        let project = try #require(try FileManager.default.contentsOfDirectory(atPath: claude + "/projects").first)
        let folder = claude + "/projects/" + project
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".jsonl") })
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/" + file))
        handle.seekToEndOfFile()
        handle.write(Data((#"{"type":"assistant","timestamp":"2026-01-05T10:00:00.000Z","requestId":"req_\#(id)","message":{"model":"claude-sonnet-4-5","id":"msg_\#(id)","usage":{"input_tokens":3,"cache_read_input_tokens":1200,"output_tokens":42}}}"# + "\n").utf8))
        try handle.close()
    }

    @Test func eachRoundCountsWhatIsNewByToolAndIsAMeasurement() throws {
        var time: Int64 = 1_000
        var scan = try scan { time }
        let first = scan.round { false }
        #expect(first.events > 0 && first.counted.map(\.tool) == ["claude-code"] && first.sourcesRead == 1)
        #expect(first.storeErrors.isEmpty && !first.fatal && first.newProblems.isEmpty)
        #expect(first.finishedAt == 1_000)
        #expect(try scan.store.measuredAt() == 1_000)

        time = 2_000
        try appendLine("W1")
        let second = scan.round { false }
        #expect(second.counted == [WatchScan.Count(tool: "claude-code", events: 1)])
        #expect(try scan.store.measuredAt() == 2_000)

        time = 3_000
        let quiet = scan.round { false }
        #expect(quiet.events == 0 && quiet.counted.isEmpty && quiet.sourcesRead == 0)
        #expect(try scan.store.measuredAt() == 3_000, "a round that found nothing new is still a measurement")
    }

    @Test func aRoundStoppedBetweenDescriptorsIsNoMeasurement() throws {
        var time: Int64 = 1_000
        var scan = try scan { time }
        _ = scan.round { false }
        time = 2_000
        try appendLine("W2")
        // Stopped after the first two descriptors (aider, amp): Claude's new line waits for the next round.
        var asked = 0
        let stopped = scan.round {
            asked += 1
            return asked > 2
        }
        #expect(stopped.events == 0 && asked == 3)
        #expect(try scan.store.measuredAt() == 1_000)
        let next = scan.round { false }
        #expect(next.counted == [WatchScan.Count(tool: "claude-code", events: 1)])
    }

    @Test func aStoreFoundDamagedByTheDailyPageCheckEndsTheWatchBeforeAnythingIsWritten() throws {
        var time: Int64 = 1_000
        var scan = try scan { time }
        #expect(!scan.round { false }.fatal)
        try StoreDamage.breakFirstPage(of: "identities", store: scan.store.path)
        time += UsageStore.pageCheckInterval - 1
        let withinADay = scan.round { false }
        #expect(!withinADay.fatal && withinADay.storeErrors.isEmpty, "no check is due yet, and nothing new reads the damaged page: \(withinADay.storeErrors)")

        try appendLine("W4")
        time += UsageStore.pageCheckInterval
        let due = scan.round { false }
        #expect(due.fatal && due.events == 0 && due.sourcesRead == 0)
        #expect(due.storeErrors.map(\.message).first?.contains("the store is damaged (SQLite's check of its pages:") == true)
        #expect(try scan.store.measuredAt() != time, "a refused round is no measurement")
    }
}
