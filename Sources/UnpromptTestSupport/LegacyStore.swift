import Foundation

/// Stores as older versions wrote them, for upgrade tests.
public enum LegacyStore: Sendable {
    /// Schema 1's tables, exactly as that version created them (frozen: never edit).
    public static let schemaOneTables = """
        CREATE TABLE checkpoints (
            source_key TEXT PRIMARY KEY, device INTEGER NOT NULL, inode INTEGER NOT NULL,
            size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, offset INTEGER NOT NULL,
            head_length INTEGER NOT NULL, head_hash TEXT NOT NULL, tail_hash TEXT NOT NULL,
            state BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE identities (
            high INTEGER NOT NULL, low INTEGER NOT NULL, keep INTEGER NOT NULL,
            quarter INTEGER, tool TEXT, model TEXT,
            input INTEGER, cache_read INTEGER, cache_write_5m INTEGER, cache_write_1h INTEGER,
            output INTEGER, reasoning INTEGER,
            PRIMARY KEY (high, low)
        ) WITHOUT ROWID;
        CREATE TABLE buckets (
            quarter INTEGER NOT NULL, tool TEXT NOT NULL, model TEXT NOT NULL,
            input INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_write_5m INTEGER NOT NULL,
            cache_write_1h INTEGER NOT NULL, output INTEGER NOT NULL, reasoning INTEGER NOT NULL,
            events INTEGER NOT NULL,
            PRIMARY KEY (quarter, tool, model)
        ) WITHOUT ROWID;
        CREATE TABLE limit_samples (
            tool TEXT NOT NULL, window TEXT NOT NULL, time INTEGER NOT NULL,
            used_percent REAL, window_minutes INTEGER, resets_at INTEGER,
            PRIMARY KEY (tool, window, time)
        ) WITHOUT ROWID;
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        """
    /// The table schema 2 added.
    public static let schemaTwoAliases = """
        CREATE TABLE aliases (
            high INTEGER NOT NULL, low INTEGER NOT NULL, owner_high INTEGER, owner_low INTEGER,
            PRIMARY KEY (high, low)
        ) WITHOUT ROWID;
        """

    /// SQL that takes a current store's tables back to schema 9's: imported days in a row per day (`sync_days`,
    /// empty, as schema 7 created it) instead of blocks of days (schema 10).
    public static let beforeSchemaTen = """
        DROP TABLE sync_blocks;
        CREATE TABLE sync_days (
            device TEXT NOT NULL, day INTEGER NOT NULL, first_quarter INTEGER, last_activity INTEGER,
            chunk BLOB NOT NULL,
            PRIMARY KEY (device, day)
        ) WITHOUT ROWID;

        """

    /// SQL that takes a current store's tables back to schema 8's: schema 9's (`beforeSchemaTen`), then the buckets
    /// without their price dimensions, server-tool calls and 12-hour cache writes (schema 9), the identities without
    /// those columns. For tests that set a store's version back, together with dropping the tables of the steps
    /// after the one they test.
    public static let beforeSchemaNine = beforeSchemaTen + """
        CREATE TABLE buckets_v7 (
            quarter INTEGER NOT NULL, tool TEXT NOT NULL, model TEXT NOT NULL,
            context_above INTEGER NOT NULL, cost_logged INTEGER NOT NULL,
            input INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_write_5m INTEGER NOT NULL,
            cache_write_1h INTEGER NOT NULL, output INTEGER NOT NULL, reasoning INTEGER NOT NULL,
            events INTEGER NOT NULL, logged_cost_nanos INTEGER NOT NULL, estimated_events INTEGER NOT NULL,
            PRIMARY KEY (quarter, tool, model, context_above, cost_logged)
        ) WITHOUT ROWID;
        INSERT INTO buckets_v7 SELECT quarter, tool, model, context_above, cost_logged, input, cache_read,
            cache_write_5m, cache_write_1h, output, reasoning, events, logged_cost_nanos, estimated_events FROM buckets;
        DROP TABLE buckets;
        ALTER TABLE buckets_v7 RENAME TO buckets;
        ALTER TABLE identities DROP COLUMN speed;
        ALTER TABLE identities DROP COLUMN tier;
        ALTER TABLE identities DROP COLUMN region;
        ALTER TABLE identities DROP COLUMN web_search;
        ALTER TABLE identities DROP COLUMN web_fetch;
        ALTER TABLE identities DROP COLUMN cache_write_12h;

        """

    /// Writes at `target` the store an Unprompt of schema 2 would have written for the same reads as
    /// `store`: schema 2's tables, exactly as that version created them, holding the same checkpoints,
    /// identities, buckets (their schema 2 columns), limit samples, settings and aliases. Newer tables and
    /// columns are left behind. Run it only while no scan is writing `store`.
    public static func schemaTwo(from store: String, to target: String) throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[2])
            db.executescript('''
            \(schemaOneTables)
            \(schemaTwoAliases)
            ''')
            db.execute("ATTACH DATABASE ? AS new", (sys.argv[1],))
            for table, columns in [
                ("checkpoints", "source_key, device, inode, size, mtime_ns, offset, head_length, head_hash, tail_hash, state"),
                ("identities", "high, low, keep, quarter, tool, model, input, cache_read, cache_write_5m, cache_write_1h, output, reasoning"),
                ("buckets", "quarter, tool, model, input, cache_read, cache_write_5m, cache_write_1h, output, reasoning, events"),
                ("limit_samples", "tool, window, time, used_percent, window_minutes, resets_at"),
                ("aliases", "high, low, owner_high, owner_low"),
            ]:
                db.execute("INSERT INTO main.%s (%s) SELECT %s FROM new.%s" % (table, columns, columns, table))
            db.execute("INSERT INTO main.settings SELECT key, value FROM new.settings WHERE key != 'measured_at'")
            db.commit()
            db.execute("DETACH DATABASE new")
            db.execute("PRAGMA user_version = 2")
            db.commit()
            """
        _ = try Python.run(script, arguments: [store, target])
    }
}
