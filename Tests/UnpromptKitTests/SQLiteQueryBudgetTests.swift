import Foundation
import XCTest

@testable import UnpromptKit

/// A user descriptor's SQL that never ends: each read has a budget of SQLite steps and of rows
/// (`SQLiteSourceReader.QueryLimits`). Past either, the read throws, saying why, so the scan keeps nothing of
/// the source and its checkpoint does not move. (Small budgets here; the standard ones are far larger.)
extension SQLiteSourceReaderTests {
    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"

    func readWithin(_ limits: SQLiteSourceReader.QueryLimits, sql: String) throws -> String {
        let path = try database(
            "budget.db", "CREATE TABLE IF NOT EXISTS usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER); INSERT OR IGNORE INTO usage VALUES (1, \(Self.t0), 5);")
        let d = try descriptor(query: "{ sql: \"\(sql)\" }")
        guard case .sqlite(let queries) = CompiledInput(d.inputs[0], descriptor: d).formatRules else {
            XCTFail("not a sqlite input")
            return ""
        }
        let reader = SQLiteSourceReader(
            input: CompiledInput(d.inputs[0], descriptor: d), queries: queries, timeZone: utc, limits: limits)
        do {
            let result = try reader.read(path: path, sourceKey: "k", from: 0, state: SourceState())
            return "read \(result.lines) rows"
        } catch {
            return error.description
        }
    }

    func testEndlessSQLCountingStopsAtItsStepBudget() throws {
        let limits = SQLiteSourceReader.QueryLimits(steps: 2_000_000, rows: 1000)
        XCTAssertEqual(
            try readWithin(limits, sql: "\(Self.endless) SELECT count(*) AS id, \(Self.t0) AS at, 1 AS tokens FROM c"),
            "query failed: the query ran past its budget of 2000000 SQLite steps (a query that never ends?)")
        XCTAssertEqual(try readWithin(limits, sql: "SELECT id, at, tokens FROM usage"), "read 1 rows", "a real query is read")
    }

    func testEndlessSQLRowsStopAtTheRowCap() throws {
        let limits = SQLiteSourceReader.QueryLimits(steps: 1_000_000_000, rows: 1000)
        XCTAssertEqual(
            try readWithin(limits, sql: "\(Self.endless) SELECT x AS id, \(Self.t0) AS at, 1 AS tokens FROM c"),
            "query failed: the query returned more than 1000 rows (a query that never ends?)")
        XCTAssertEqual(
            try readWithin(limits, sql: "\(Self.endless) SELECT x AS id, \(Self.t0) AS at, 1 AS tokens FROM c LIMIT 1000"),
            "read 1000 rows", "exactly the cap is read")
    }
}
