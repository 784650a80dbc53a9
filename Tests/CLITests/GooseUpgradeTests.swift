import Foundation
import Testing
import UnpromptTestSupport

/// Goose's database upgraded to the per-call ledger between two scans: the session totals counted before the
/// upgrade are the baseline of the totals Goose carries into the ledger, so nothing counts twice.
struct GooseUpgradeTests {
    /// Runs SQL against the Goose database under the tree, as Goose would (WAL mode, then closed).
    func goose(_ tree: ScanTree, _ sql: String) throws {
        let path = tree.root + "/data/goose/sessions/sessions.db"
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try Python.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("PRAGMA journal_mode = WAL")
            db.executescript(sys.argv[2])
            db.commit()
            db.close()
            """, arguments: [path, sql])
    }

    func scan(_ tree: ScanTree) throws {
        let output = try Binary.run(
            ["--store", tree.store, "--json"], environment: tree.environment.merging(["XDG_DATA_HOME": tree.root + "/data"]) { $1 })
        #expect(output.status == 0, "\(output.stderr)")
    }

    @Test func aSessionCountedBeforeTheUpgradeCountsOnlyItsGrowthAfterIt() throws {
        let tree = try ScanTree()
        try goose(
            tree,
            """
            CREATE TABLE sessions (id TEXT PRIMARY KEY, working_dir TEXT NOT NULL, updated_at TIMESTAMP,
                input_tokens INTEGER, output_tokens INTEGER, accumulated_input_tokens INTEGER,
                accumulated_output_tokens INTEGER, model_config_json TEXT);
            INSERT INTO sessions VALUES ('20260105_1', '/home/dev/p', '2026-01-05 10:00:00', 900, 40, 20000, 1000,
                '{"model_name": "gpt-4o"}');
            """)
        try scan(tree)
        #expect(try StoreReader.totals(store: tree.store)["goose"] == StoreTotals(input: 20000, output: 1000, events: 1))

        // The session grew once more before the upgrade (unseen), then was resumed on the ledger schema: its
        // old total became a carried_forward row, followed by one new call (input includes its cache read).
        try goose(
            tree,
            """
            CREATE TABLE usage_ledger (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
                created_timestamp INTEGER NOT NULL, model TEXT NOT NULL, input_tokens INTEGER, output_tokens INTEGER,
                total_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER, cost REAL,
                cost_source TEXT, is_compaction INTEGER NOT NULL DEFAULT 0);
            INSERT INTO usage_ledger VALUES (1, '20260105_1', 1767780000, 'gpt-4o', 21000, 1050, 22050, 0, 0, 0.2,
                'carried_forward', 0);
            INSERT INTO usage_ledger VALUES (2, '20260105_1', 1767780060, 'gpt-4o', 9000, 150, 9150, 8000, 0, 0.01,
                'provider_reported', 0);
            UPDATE sessions SET accumulated_input_tokens = 30000, accumulated_output_tokens = 1200,
                updated_at = '2026-01-07 10:01:00' WHERE id = '20260105_1';
            """)
        try scan(tree)

        // 20000 + the unseen growth (1000) + the new call's uncached input (9000 - 8000); its cache read apart.
        let expected = StoreTotals(input: 22000, output: 1200, cacheRead: 8000, events: 3)
        #expect(try StoreReader.totals(store: tree.store)["goose"] == expected)
        try scan(tree)
        #expect(try StoreReader.totals(store: tree.store)["goose"] == expected)
    }
}
