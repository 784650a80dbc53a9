import Foundation
import XCTest
@testable import UnpromptKit

/// What a scan does when what it saved, or what it must save, is not usable: it says so, with the cause, and
/// still counts every record once.
final class ScanFailureTests: XCTestCase {
    static let t0: Int64 = 1_704_164_645
    var dir = ""
    var store: UsageStore!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-failure-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/home", withIntermediateDirectories: true)
        store = try UsageStore(path: dir + "/store/usage.sqlite")
    }

    override func tearDownWithError() throws {
        store = nil
        try? FileManager.default.removeItem(atPath: dir)
    }

    func descriptor(_ input: String) throws -> Descriptor {
        try DescriptorLoader.load(text: "schema: 1\nid: test\nname: Test\ninputs:\n" + input, file: "test.yaml")
    }

    func scan(_ descriptor: Descriptor) throws -> ScanReport {
        try Scanner(
            store: store, discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: dir + "/home"),
            workers: 1
        ).scan([descriptor])
    }

    var storedInput: Int64 {
        get throws { try store.buckets(fromQuarter: 0, toQuarter: Int64.max).reduce(0) { $0 + $1.counts.input } }
    }

    /// Overwrites every saved reader state with bytes that do not decode.
    func damageSavedStates() throws {
        let database = try Database(path: store.path, options: [.readWrite])
        try database.execute("UPDATE checkpoints SET state = x'7b2262'")
        XCTAssertEqual(database.changes, 1)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: dir + "/home/" + name, atomically: false, encoding: .utf8)
    }

    func append(_ name: String, _ text: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: dir + "/home/" + name))
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        handle.closeFile()
    }

    /// An input of running totals, each record named by the total itself (as Codex's and Zed's are).
    static func runningTotals(format: String, glob: String) -> String {
        """
          - format: \(format)
            sources: [{ root: /nonexistent, glob: "\(glob)" }]
            records:
              - name: total
                time: { path: t, as: epoch_s }
                tokens: { input: n }
                counting: { input_includes_cache: false, output_includes_reasoning: true }
                cumulative: { key: s }
                identity: { key: [s, n], keep: first }
        """
    }

    func line(_ total: Int64) -> String { #"{"t": \#(Self.t0), "s": "a", "n": \#(total)}"# + "\n" }

    /// An appended file whose saved state is damaged is read again from its start: its running totals are
    /// in the file, so they are found again, the records read before are duplicates by identity, and only
    /// the new one counts. The report says what happened.
    func testADamagedStateOfAnAppendedFileIsReportedAndItsRecordsCountOnce() throws {
        let d = try descriptor(Self.runningTotals(format: "jsonl", glob: "*.jsonl"))
        try write("s.jsonl", line(10) + line(30))
        XCTAssertEqual(try scan(d).counted, 2)
        XCTAssertEqual(try storedInput, 30)

        try damageSavedStates()
        try append("s.jsonl", line(60))
        let report = try scan(d)

        XCTAssertEqual(report.skipped[SkipReason.damagedState], 1)
        XCTAssertEqual(report.reread, 1, "read again from the start")
        XCTAssertEqual(report.problems.map(\.reason).first { $0.contains("saved reader state was damaged") } != nil, true, "\(report.problems)")
        XCTAssertEqual(report.counted, 1)
        XCTAssertEqual(report.duplicates, 2)
        XCTAssertEqual(try storedInput, 60, "counted once: not 30 + 60 from a state guessed as empty at the old offset")

        try append("s.jsonl", line(65))
        let next = try scan(d)
        XCTAssertEqual(next.skipped[SkipReason.damagedState], nil, "the state saved by the repaired read is sound")
        XCTAssertEqual(try storedInput, 65)
    }

    /// A document read whole shows only its latest running total: after its saved state is damaged, the
    /// total it shows only becomes the baseline. Growth since the last good read is not counted, rather than
    /// the whole total counted a second time; later growth counts again.
    func testADamagedStateOfADocumentNeverCountsARunningTotalTwice() throws {
        let d = try descriptor(Self.runningTotals(format: "json", glob: "*.json"))
        func document(_ total: Int64) -> String { #"{"t": \#(Self.t0), "s": "a", "n": \#(total)}"# }
        try write("s.json", document(100))
        _ = try scan(d)
        XCTAssertEqual(try storedInput, 100)

        try damageSavedStates()
        try write("s.json", document(150) + " ")
        let report = try scan(d)
        XCTAssertEqual(report.skipped[SkipReason.damagedState], 1)
        XCTAssertEqual(report.skipped[SkipReason.lostRunningTotal], 1)
        XCTAssertEqual(report.counted, 0)
        XCTAssertEqual(try storedInput, 100, "never 100 + 150")

        try write("s.json", document(180))
        XCTAssertEqual(try scan(d).counted, 1)
        XCTAssertEqual(try storedInput, 130, "the growth from the baseline the repaired read set")
    }

    /// A reader state that cannot be saved (an infinite watermark: JSON has no infinity) fails the source with
    /// that cause, not as an I/O error it never had; nothing of it is kept, and the next scan tries again.
    func testAStateThatCannotBeSavedFailsTheSourceWithItsCause() throws {
        let path = dir + "/home/usage.db"
        try Database(path: path, options: [.readWrite, .create]).execute(
            """
            CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER, mark REAL);
            INSERT INTO usage VALUES (1, \(Self.t0), 5, 1), (2, \(Self.t0), 7, 9e999);
            """)
        let d = try descriptor(
            """
              - format: sqlite
                sources: [{ root: /nonexistent, glob: "*.db" }]
                query: { sql: "SELECT id, at, tokens, mark FROM usage WHERE mark >= :watermark", watermark: mark }
                records:
                  - name: row
                    time: { path: at, as: epoch_s }
                    tokens: { input: tokens }
                    counting: { input_includes_cache: false, output_includes_reasoning: true }
                    identity: { key: [id], keep: first }
            """)
        let report = try scan(d)

        XCTAssertEqual(report.failed, 1)
        XCTAssertEqual(report.problems.count, 1)
        let reason = try XCTUnwrap(report.problems.first?.reason)
        XCTAssertTrue(reason.hasPrefix("saving the reader's state failed"), reason)
        XCTAssertFalse(reason.contains("recording the checkpoint"), reason)
        XCTAssertEqual(try storedInput, 0)
        XCTAssertNil(try store.checkpoint(for: SourceKey.of(path: path)))
    }
}
