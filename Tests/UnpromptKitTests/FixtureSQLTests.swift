import Foundation
import Testing
@testable import UnpromptKit

/// A fixture's `.sql` script is cut between statements by a split run; a transaction is one of them, since a
/// reader never sees a database inside one (Hermes writes a session's counters and its model rows in one).
struct FixtureSQLTests {
    func statements(_ script: String) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-sql-\(UUID().uuidString).sql").path
        try script.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try FixtureSQL.statements(path)
    }

    @Test func aTransactionIsOneStatement() throws {
        let found = try statements(
            """
            CREATE TABLE t (a INTEGER);
            -- a comment before the transaction
            begin;
            INSERT INTO t VALUES (1);
            INSERT INTO t VALUES (2);
            COMMIT;
            INSERT INTO t VALUES (3);
            BEGIN TRANSACTION;
            INSERT INTO t VALUES (4);
            END;

            """)
        #expect(found.count == 4, "\(found)")
        #expect(found[1].contains("VALUES (1)") && found[1].contains("VALUES (2)") && found[1].contains("COMMIT"))
        #expect(found[2].contains("VALUES (3)") && !found[2].contains("BEGIN"))
        #expect(found[3].contains("VALUES (4)") && found[3].contains("END;"))
    }

    @Test func statementsOutsideATransactionStayApart() throws {
        let found = try statements("CREATE TABLE t (a INTEGER);\nINSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\n")
        #expect(found.count == 3)
    }

    @Test func aDatabaseBuiltFromAPrefixHoldsWholeTransactionsOnly() throws {
        let script = "CREATE TABLE t (a INTEGER);\nBEGIN;\nINSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\nCOMMIT;\n"
        let parts = try statements(script)
        #expect(parts.count == 2)
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-sql-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: database) }
        try FixtureSQL.apply(parts[..<2], to: database, script: "t.sql")
        let rows = try Database(path: database, options: [.readOnly]).prepare("SELECT count(*) FROM t").rows()
        #expect(rows.first?.int(0) == 2)
    }
}
