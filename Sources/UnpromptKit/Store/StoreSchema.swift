/// The store's tables, and how each older schema is brought up to this one. Migrations are additive: history
/// is never dropped, and each says why it changes what it changes (see docs/STORE.md).
enum StoreSchema {
    /// Brings a store at schema `version` (0: new) to `UsageStore.schemaVersion`, in one transaction.
    static func migrate(_ database: Database, from version: Int64) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            // Read again under the write lock: another process may have created the store meanwhile.
            let version = try database.prepare("PRAGMA user_version").rows().first?.int(0) ?? 0
            if version < 1 {
                try database.execute(
                    """
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
                    """)
            }
            if version < 2 {
                // Second names of records (`IdentityAlias`), with the identity that registered each.
                try database.execute(
                    """
                    CREATE TABLE aliases (
                        high INTEGER NOT NULL, low INTEGER NOT NULL, owner_high INTEGER, owner_low INTEGER,
                        PRIMARY KEY (high, low)
                    ) WITHOUT ROWID;
                    """)
            }
            if version < 3 {
                // Buckets are also keyed by the prompt's context band and by whether the tool logged a cost,
                // and keep logged costs and estimated records (`BucketKey`); identities that can be replaced
                // keep the same, so a replacement leaves exactly the band it was counted in. Schema 2 kept
                // neither fact: its rows move to `ContextBand.unknown` with no logged cost (priced at base
                // rates and shown as approximate where the model has long-context rates). See docs/STORE.md.
                try database.execute(
                    """
                    CREATE TABLE buckets_v3 (
                        quarter INTEGER NOT NULL, tool TEXT NOT NULL, model TEXT NOT NULL,
                        context_above INTEGER NOT NULL, cost_logged INTEGER NOT NULL,
                        input INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_write_5m INTEGER NOT NULL,
                        cache_write_1h INTEGER NOT NULL, output INTEGER NOT NULL, reasoning INTEGER NOT NULL,
                        events INTEGER NOT NULL, logged_cost_nanos INTEGER NOT NULL, estimated_events INTEGER NOT NULL,
                        PRIMARY KEY (quarter, tool, model, context_above, cost_logged)
                    ) WITHOUT ROWID;
                    INSERT INTO buckets_v3 SELECT quarter, tool, model, -1, 0, input, cache_read, cache_write_5m,
                        cache_write_1h, output, reasoning, events, 0, 0 FROM buckets;
                    DROP TABLE buckets;
                    ALTER TABLE buckets_v3 RENAME TO buckets;
                    ALTER TABLE identities ADD COLUMN context_above INTEGER;
                    ALTER TABLE identities ADD COLUMN cost_logged INTEGER;
                    ALTER TABLE identities ADD COLUMN logged_cost_nanos INTEGER;
                    ALTER TABLE identities ADD COLUMN estimated INTEGER;
                    UPDATE identities SET context_above = -1, cost_logged = 0, logged_cost_nanos = 0, estimated = 0
                        WHERE keep = 1;
                    """)
            }
            if version < 4 {
                // The first and last usage record of every active quarter-hour: what episodes are made of.
                // `exact` is 0 for a quarter-hour known only from an older store's buckets (below).
                try database.execute(
                    """
                    CREATE TABLE activity (
                        quarter INTEGER PRIMARY KEY, first INTEGER NOT NULL, last INTEGER NOT NULL,
                        exact INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
                if version >= 1 {
                    // A store from before episodes holds no record times. Every quarter-hour with usage is
                    // seeded with its bounds, and every checkpoint is forgotten: the next scan reads each log
                    // still on disk again, its records all duplicates by identity (no token counts twice), and
                    // their times replace the seeded bounds. Only quarter-hours whose logs are gone keep them.
                    try database.execute(
                        """
                        INSERT INTO activity SELECT DISTINCT quarter, quarter * \(Bucket.quarterMilliseconds),
                            quarter * \(Bucket.quarterMilliseconds) + \(Bucket.quarterMilliseconds - 1), 0
                        FROM buckets;
                        DELETE FROM checkpoints;
                        """)
                }
            }
            if version < 5 {
                // The person's confirmations of days (`UsageStore+Confirmations`): new tables, nothing moves.
                try UsageStore.createConfirmationTables(database)
            }
            if version < 6 {
                // Limit windows are named by their length, not by the slot a tool put them in (Codex's primary
                // and secondary: some plans get a weekly-only primary). Samples stored under a slot's name whose
                // length says which window they are take that window's name, as a scan now names them; a sample
                // that logged no length (or another) keeps its name. A sample the rename would collide with (the
                // same tool, window and time) stays as it was.
                try database.execute(
                    """
                    UPDATE OR IGNORE limit_samples SET window = 'five_hour'
                        WHERE window IN ('primary', 'secondary') AND window_minutes IN (299, 300);
                    UPDATE OR IGNORE limit_samples SET window = 'weekly'
                        WHERE window IN ('primary', 'secondary') AND window_minutes IN (10079, 10080);
                    """)
            }
            if version < 7 {
                // Devices and friends: other devices' imports, kept apart from this device's own buckets (each
                // replaced whole by its next import), friends' shares, and this store's random device id and
                // friend id, made here once (`UsageStore+Devices`, `UsageStore+Friends`).
                try UsageStore.createDeviceTables(database)
            }
            if version < 8 {
                // Confirmations travel between devices: every answer and undo keeps a stamp (when, by which
                // device), so devices merging each other's answers keep the same one for each day, and an undo
                // is not brought back by a merge (`UsageStore+ConfirmationSync`). New table, nothing moves.
                try UsageStore.createConfirmationStamps(database)
            }
            if version < 9 {
                // Price dimensions (issue 20). Buckets are also keyed by the speed, service tier and inference
                // region a record states (`PriceDimensions`, 0 where it states none), and sum its server-tool
                // calls and a third cache-write class, 12-hour writes (OpenAI's, priced apart); identities that
                // can be replaced keep the same. Older rows recorded none of them: they keep every count under 0
                // ("not recorded", priced as standard and reported as assumed) with no server-tool calls and no
                // 12-hour writes (no reader could tell one before). Nothing is dropped, no log is read again.
                try database.execute(
                    """
                    CREATE TABLE buckets_v9 (
                        quarter INTEGER NOT NULL, tool TEXT NOT NULL, model TEXT NOT NULL,
                        context_above INTEGER NOT NULL, cost_logged INTEGER NOT NULL,
                        speed INTEGER NOT NULL, tier INTEGER NOT NULL, region INTEGER NOT NULL,
                        input INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_write_5m INTEGER NOT NULL,
                        cache_write_1h INTEGER NOT NULL, cache_write_12h INTEGER NOT NULL, output INTEGER NOT NULL,
                        reasoning INTEGER NOT NULL, events INTEGER NOT NULL, logged_cost_nanos INTEGER NOT NULL,
                        estimated_events INTEGER NOT NULL, web_search INTEGER NOT NULL, web_fetch INTEGER NOT NULL,
                        PRIMARY KEY (quarter, tool, model, context_above, cost_logged, speed, tier, region)
                    ) WITHOUT ROWID;
                    INSERT INTO buckets_v9 SELECT quarter, tool, model, context_above, cost_logged, 0, 0, 0, input,
                        cache_read, cache_write_5m, cache_write_1h, 0, output, reasoning, events, logged_cost_nanos,
                        estimated_events, 0, 0 FROM buckets;
                    DROP TABLE buckets;
                    ALTER TABLE buckets_v9 RENAME TO buckets;
                    ALTER TABLE identities ADD COLUMN speed INTEGER;
                    ALTER TABLE identities ADD COLUMN tier INTEGER;
                    ALTER TABLE identities ADD COLUMN region INTEGER;
                    ALTER TABLE identities ADD COLUMN web_search INTEGER;
                    ALTER TABLE identities ADD COLUMN web_fetch INTEGER;
                    ALTER TABLE identities ADD COLUMN cache_write_12h INTEGER;
                    UPDATE identities SET speed = 0, tier = 0, region = 0, web_search = 0, web_fetch = 0, cache_write_12h = 0
                        WHERE keep = 1;
                    """)
            }
            if version < 10 {
                // Imported days are kept in blocks of 32 days (`DayBlocks`), not a row per day: a heavy user's
                // day took a page of its own for what did not fit beside its neighbours, half of it empty. Every
                // stored day moves into its block, its bytes unchanged; nothing is read again.
                try UsageStore.createDayBlocks(database)
            }
            try database.execute("PRAGMA user_version = \(UsageStore.schemaVersion)")
        }
    }

    /// Indexes that change no data, only what a query reads, made when missing at every writable open: a store
    /// gets them without an upgrade, and a version that does not know them reads and writes the store as before.
    /// `buckets_implausible` holds the bucket rows no record could give (`UsageStore.problems`, counted by every
    /// view): none in a sound store, so the count reads nothing instead of every row.
    static func addIndexes(_ database: Database) throws(StoreError) {
        try database.execute("CREATE INDEX IF NOT EXISTS buckets_implausible ON buckets (quarter) WHERE \(UsageStore.implausibleBucket)")
    }
}
