import Foundation
import XCTest
@testable import UnpromptKit

/// Databases whose rows are updated in place and hold running totals (Crush's session cost, Zed's thread
/// usage): read again after a change, continuing the saved state, only the growth counts.
final class SQLiteRunningTotalTests: XCTestCase {
    var dir = ""
    let utc = TimeZone(identifier: "UTC")!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-running-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func database(_ statements: String) throws -> String {
        let path = dir + "/tool.db"
        let database = try Database(path: path, options: [.readWrite, .create])
        try database.execute(statements)
        return path
    }

    func reader(_ descriptorFile: String) throws -> (any SourceReader, Descriptor) {
        let d = try DescriptorLoader.load(path: DescriptorLoaderTests.repoRoot.appendingPathComponent(descriptorFile).path)
        return (SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: utc), d)
    }

    /// readers/crush.yaml on one database, changed between reads as Crush changes it.
    func testCrushSessionCostCountsItsGrowthAcrossReads() throws {
        let path = try database("""
            CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, cost REAL NOT NULL,
              updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL);
            CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, model TEXT, created_at INTEGER);
            INSERT INTO sessions VALUES ('a', NULL, 't', 0.25, 1000, 900), ('b', NULL, 't', 0.5, 2000, 900);
            INSERT INTO messages VALUES ('m', 'a', 'assistant', 'claude-sonnet-4-5', 950);
            """)
        let (reader, _) = try reader("readers/crush.yaml")
        let first = try reader.read(path: path, sourceKey: "k", from: 0, state: SourceState())
        XCTAssertEqual(first.events.map(\.loggedCost), [0.25, 0.5])
        XCTAssertEqual(first.events.map(\.model), ["claude-sonnet-4-5", "unknown"])
        XCTAssertEqual(first.state.watermark, .integer(2000))

        // Session a grows (its trigger bumps updated_at); b is read again (>= its watermark) unchanged; a new
        // child session (whose cost Crush also adds to a) is not read.
        let database = try Database(path: path, options: [.readWrite])
        try database.execute("""
            UPDATE sessions SET cost = 0.75, updated_at = 3000 WHERE id = 'a';
            INSERT INTO sessions VALUES ('a-child', 'a', 't', 0.1, 3000, 2500);
            """)
        let second = try reader.read(path: path, sourceKey: "k", from: 0, state: first.state)
        XCTAssertEqual(second.events.map(\.loggedCost), [0.5])
        XCTAssertEqual(second.events.map(\.time), [3_000_000])
        XCTAssertEqual(second.skipped, ["unchanged-total": 1])
        XCTAssertEqual(second.lines, 2, "rows from the watermark on: b (2000) and a (3000)")

        // State lost: a read from scratch counts a in full, under the identity its growth was counted with.
        let fresh = try reader.read(path: path, sourceKey: "k", from: 0, state: SourceState())
        XCTAssertEqual(fresh.events.map(\.loggedCost), [0.5, 0.75])
        XCTAssertEqual(Set(fresh.events.compactMap(\.identity)), Set([first.events[1], second.events[0]].compactMap(\.identity)))
    }

    /// readers/zed.yaml: each save upserts the whole thread; a read after a save counts the growth of
    /// `cumulative_token_usage`, and a save with no new request counts nothing.
    func testZedThreadUsageCountsItsGrowthAcrossSaves() throws {
        func data(_ input: Int, _ output: Int, _ read: Int) -> String {
            #"'{"version":"0.3.0","model":{"provider":"zed.dev","model":"claude-sonnet-4-5"},"cumulative_token_usage":{"input_tokens":\#(input),"output_tokens":\#(output),"cache_creation_input_tokens":0,"cache_read_input_tokens":\#(read)}}'"#
        }
        let path = try database("""
            CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL,
              data_type TEXT NOT NULL, data BLOB NOT NULL);
            INSERT INTO threads VALUES ('t', 's', '2026-05-01T10:00:00+00:00', 'json', CAST(\(data(100, 10, 0)) AS BLOB));
            """)
        let (reader, _) = try reader("readers/zed.yaml")
        let first = try reader.read(path: path, sourceKey: "k", from: 0, state: SourceState())
        XCTAssertEqual(first.events.map(\.counts), [TokenCounts(input: 100, output: 10)])

        let database = try Database(path: path, options: [.readWrite])
        try database.execute("UPDATE threads SET updated_at = '2026-05-01T10:05:00+00:00', data = CAST(\(data(250, 30, 400)) AS BLOB)")
        let second = try reader.read(path: path, sourceKey: "k", from: 0, state: first.state)
        XCTAssertEqual(second.events.map(\.counts), [TokenCounts(input: 150, cacheRead: 400, output: 20)])
        XCTAssertEqual(second.events.map(\.time), [1_777_629_900_000])

        try database.execute("UPDATE threads SET updated_at = '2026-05-01T10:06:00+00:00'")
        let third = try reader.read(path: path, sourceKey: "k", from: 0, state: second.state)
        XCTAssertEqual(third.events, [])
        XCTAssertEqual(third.skipped, ["unchanged-total": 1])
    }
}
