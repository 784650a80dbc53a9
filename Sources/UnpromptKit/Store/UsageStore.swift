import Foundation

/// What committing one source's read did.
public struct CommitOutcome: Sendable, Equatable {
    public var counted = 0
    public var duplicates = 0
    /// False when another scan moved this source's checkpoint first: nothing was written.
    public var applied = true
}

/// The one SQLite file that keeps usage: checkpoints (keyed by a hash of the path, never the path),
/// identities, buckets (`BucketKey`), per-quarter activity (for episodes), limit samples, settings and the
/// person's confirmations of days. Numbers only.
///
/// Every source's read is committed in one transaction — its new events, their identities and its new
/// checkpoint — so a crash at any instruction leaves either the old state or the new one.
public final class UsageStore {
    public static let schemaVersion: Int64 = 5
    public static let quarterMilliseconds = Bucket.quarterMilliseconds

    let database: Database
    public let path: String

    /// The default location: `${XDG_DATA_HOME:-~/.local/share}/unprompt/usage.sqlite` on Linux,
    /// `~/Library/Application Support/Unprompt/usage.sqlite` on macOS.
    public static func defaultPath(environment: [String: String], home: String) -> String {
        #if os(macOS)
            return home + "/Library/Application Support/Unprompt/usage.sqlite"
        #else
            let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
            return data + "/unprompt/usage.sqlite"
        #endif
    }

    /// Opens (creating when missing) and migrates the store. A file that is not a store, is damaged, or was
    /// written by a newer version is refused with a clear message, and never recreated.
    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists, readOnly {
            throw StoreError(message: "no store at this path yet: run a scan first", busy: false)
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !exists, !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(message: "cannot create the store's directory: \(error.localizedDescription)", busy: false)
            }
        }
        // Creating and migrating the schema happens under the store's lock, so two processes opening a new
        // store at once take turns instead of one failing.
        let lock = readOnly ? nil : try ScanLock(storePath: path)
        defer { lock?.release() }
        database = try Database(path: path, options: readOnly ? [.readOnly] : [.readWrite, .create])
        let version: Int64
        do {
            version = try database.prepare("PRAGMA user_version").rows().first?.int(0) ?? 0
            // Reading the schema surfaces a file that is not a database at all.
            _ = try database.prepare("SELECT count(*) FROM sqlite_master").rows()
        } catch {
            throw StoreError(
                message: "the store is damaged or is not an Unprompt store (\(error.message)); it was left as it is",
                busy: error.busy)
        }
        if version > UsageStore.schemaVersion {
            throw StoreError(
                message: "the store was written by a newer version (schema \(version)); this version reads schema \(UsageStore.schemaVersion) and will not change it",
                busy: false)
        }
        if !readOnly {
            try database.execute("PRAGMA journal_mode=WAL")
            try database.execute("PRAGMA synchronous=NORMAL")
            if version < UsageStore.schemaVersion { try migrate(from: version) }
        } else if version < UsageStore.schemaVersion {
            throw StoreError(
                message: version == 0 ? "the store has not been created yet: run a scan first"
                    : "the store is from an older version (schema \(version)): run a scan once to upgrade it",
                busy: false)
        }
    }

    private func migrate(from version: Int64) throws(StoreError) {
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
                        INSERT INTO activity SELECT DISTINCT quarter, quarter * \(UsageStore.quarterMilliseconds),
                            quarter * \(UsageStore.quarterMilliseconds) + \(UsageStore.quarterMilliseconds - 1), 0
                        FROM buckets;
                        DELETE FROM checkpoints;
                        """)
                }
            }
            if version < 5 {
                // The person's confirmations of days (`UsageStore+Confirmations`): new tables, nothing moves.
                try UsageStore.createConfirmationTables(database)
            }
            try database.execute("PRAGMA user_version = \(UsageStore.schemaVersion)")
        }
    }

    // MARK: Checkpoints

    public func checkpoint(for sourceKey: String) throws(StoreError) -> Checkpoint? {
        try database.prepare(
            "SELECT device, inode, size, mtime_ns, offset, head_length, head_hash, tail_hash, state FROM checkpoints WHERE source_key = ?1"
        ).rows([.text(sourceKey)]).first.map(UsageStore.checkpoint)
    }

    /// Every checkpoint, by source key: one query for a whole rescan.
    public func allCheckpoints() throws(StoreError) -> [String: Checkpoint] {
        let rows = try database.prepare(
            "SELECT device, inode, size, mtime_ns, offset, head_length, head_hash, tail_hash, state, source_key FROM checkpoints"
        ).rows()
        var result: [String: Checkpoint] = [:]
        for row in rows { result[row.text(9) ?? ""] = UsageStore.checkpoint(row) }
        return result
    }

    private static func checkpoint(_ row: Statement.Row) -> Checkpoint {
        Checkpoint(
            device: UInt64(bitPattern: row.int(0) ?? 0), inode: UInt64(bitPattern: row.int(1) ?? 0),
            size: row.int(2) ?? 0, modifiedNanoseconds: row.int(3) ?? 0, offset: row.int(4) ?? 0,
            headLength: row.int(5) ?? 0, headHash: row.text(6) ?? "", tailHash: row.text(7) ?? "",
            stateData: row.blob(8) ?? Data())
    }

    // MARK: Committing a read

    /// Stores one source's read in one transaction: its events (each identity counted once across every
    /// source ever read), the activity of all of them (duplicates included: see `Episodes`), its limit
    /// samples and its new checkpoint. `expected` is the checkpoint the read
    /// started from: if another scan has moved it since, nothing is written (`applied` is false).
    public func commit(
        sourceKey: String, expected: Checkpoint?, events: [TokenEvent], limits: [LimitSample], checkpoint: Checkpoint
    ) throws(StoreError) -> CommitOutcome {
        if inBatch { return try apply(sourceKey: sourceKey, expected: expected, events: events, limits: limits, checkpoint: checkpoint) }
        return try database.transaction { () throws(StoreError) -> CommitOutcome in
            try apply(sourceKey: sourceKey, expected: expected, events: events, limits: limits, checkpoint: checkpoint)
        }
    }

    private var inBatch = false

    /// Groups several sources' commits into one transaction: each source is still stored whole or not at
    /// all (a crash loses the whole group, whose sources are then read again), and the group costs one
    /// write of the journal instead of one per source.
    public func batch<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        precondition(!inBatch, "batches do not nest")
        inBatch = true
        defer { inBatch = false }
        return try database.transaction(body)
    }

    private func apply(
        sourceKey: String, expected: Checkpoint?, events: [TokenEvent], limits: [LimitSample], checkpoint: Checkpoint
    ) throws(StoreError) -> CommitOutcome {
        guard try self.checkpoint(for: sourceKey)?.offsetAndIdentity == expected?.offsetAndIdentity else {
            return CommitOutcome(counted: 0, duplicates: 0, applied: false)
        }
        var outcome = CommitOutcome()
        var deltas: [BucketKey: BucketDelta] = [:]
        // Copies within this read are settled in memory first (the same rules), so only one event per
        // identity asks the store.
        var local = Deduplicator()
        var survivors: [Identity: Int] = [:]
        var candidates: [TokenEvent?] = []
        for event in events {
            switch local.admit(event) {
            case .counted:
                if let identity = event.identity { survivors[identity] = candidates.count }
                candidates.append(event)
            case .duplicate:
                outcome.duplicates += 1
            case .replaced:
                outcome.duplicates += 1
                if let identity = event.identity, let index = survivors[identity] { candidates[index] = event }
            }
        }
        for case let event? in candidates {
            switch try admit(event) {
            case .counted:
                outcome.counted += 1
                deltas[BucketKey(event), default: BucketDelta()] += BucketDelta(event)
            case .duplicate:
                outcome.duplicates += 1
            case .replaced(let previous):
                outcome.duplicates += 1
                deltas[previous.key, default: BucketDelta()] -= previous.delta
                deltas[BucketKey(event), default: BucketDelta()] += BucketDelta(event)
            }
        }
        let upsert = try database.prepare(
            """
            INSERT INTO buckets VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
            ON CONFLICT (quarter, tool, model, context_above, cost_logged) DO UPDATE SET
                input = input + excluded.input, cache_read = cache_read + excluded.cache_read,
                cache_write_5m = cache_write_5m + excluded.cache_write_5m,
                cache_write_1h = cache_write_1h + excluded.cache_write_1h,
                output = output + excluded.output, reasoning = reasoning + excluded.reasoning,
                events = events + excluded.events, logged_cost_nanos = logged_cost_nanos + excluded.logged_cost_nanos,
                estimated_events = estimated_events + excluded.estimated_events
            """)
        let emptied = try database.prepare(
            """
            DELETE FROM buckets WHERE quarter = ?1 AND tool = ?2 AND model = ?3 AND context_above = ?4
            AND cost_logged = ?5 AND events = 0 AND input = 0 AND cache_read = 0 AND cache_write_5m = 0
            AND cache_write_1h = 0 AND output = 0 AND reasoning = 0 AND logged_cost_nanos = 0 AND estimated_events = 0
            """)
        for (key, delta) in deltas where !delta.isZero {
            let c = delta.counts
            let keyValues: [SQLValue] = [
                .integer(key.quarter), .text(key.tool), .text(key.model), .integer(key.contextAbove),
                .integer(key.costLogged ? 1 : 0),
            ]
            try upsert.run(keyValues + [
                .integer(c.input), .integer(c.cacheRead), .integer(c.cacheWrite5m), .integer(c.cacheWrite1h),
                .integer(c.output), .integer(c.reasoning), .integer(delta.events), .integer(delta.loggedCostNanos),
                .integer(delta.estimatedEvents),
            ])
            // A replaced record can leave its old bucket empty: no row then, as if never counted.
            if delta.events < 0 { try emptied.run(keyValues) }
        }
        // Every record read is activity, counted or not: folding a time in twice changes nothing, and
        // which copy of a record counts cannot change which moments were active.
        let active = try database.prepare(
            """
            INSERT INTO activity VALUES (?1, ?2, ?3, 1)
            ON CONFLICT (quarter) DO UPDATE SET
                first = CASE exact WHEN 1 THEN min(first, excluded.first) ELSE excluded.first END,
                last = CASE exact WHEN 1 THEN max(last, excluded.last) ELSE excluded.last END,
                exact = 1
            """)
        for quarter in Episodes.activity(of: events.lazy.map(\.time)) {
            try active.run([.integer(quarter.quarter), .integer(quarter.first), .integer(quarter.last)])
        }
        let sample = try database.prepare("INSERT OR IGNORE INTO limit_samples VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        // Of one read, only the latest reading of each window is kept.
        for limit in LimitSample.latestPerWindow(limits) {
            try sample.run([
                .text(limit.tool), .text(limit.window), .integer(limit.time), SQLValue(limit.usedPercent),
                SQLValue(limit.windowMinutes), SQLValue(limit.resetsAt),
            ])
        }
        try save(checkpoint, for: sourceKey)
        return outcome
    }

    private func save(_ checkpoint: Checkpoint, for sourceKey: String) throws(StoreError) {
        try database.prepare("INSERT OR REPLACE INTO checkpoints VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)").run([
            .text(sourceKey), .integer(Int64(bitPattern: checkpoint.device)), .integer(Int64(bitPattern: checkpoint.inode)),
            .integer(checkpoint.size), .integer(checkpoint.modifiedNanoseconds), .integer(checkpoint.offset),
            .integer(checkpoint.headLength), .text(checkpoint.headHash), .text(checkpoint.tailHash), .blob(checkpoint.stateData),
        ])
    }

    private enum Admission {
        case counted
        case duplicate
        case replaced(Contribution)
    }

    /// What a replaceable record added, as its identity row keeps it.
    private struct Contribution {
        let key: BucketKey
        let delta: BucketDelta
    }

    /// The store's side of `Deduplicator`: the same rules, kept across scans.
    private func admit(_ event: TokenEvent) throws(StoreError) -> Admission {
        let alias = event.alias.map { [SQLValue.integer(Int64(bitPattern: $0.high)), .integer(Int64(bitPattern: $0.low))] }
        let owner: [SQLValue] = event.identity.map {
            [.integer(Int64(bitPattern: $0.high)), .integer(Int64(bitPattern: $0.low))]
        } ?? [.null, .null]
        // Caught by its alias only when another identity registered it (the same rule as `Deduplicator`).
        if event.checkAlias, let alias,
            let row = try database.prepare("SELECT owner_high, owner_low FROM aliases WHERE high = ?1 AND low = ?2")
                .rows(alias).first,
            row.int(0) != owner[0].integerValue || row.int(1) != owner[1].integerValue
        {
            return .duplicate
        }
        let admission = try admitByIdentity(event)
        if case .duplicate = admission { return admission }
        if let alias {
            try database.prepare("INSERT INTO aliases VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING").run(alias + owner)
        }
        return admission
    }

    private func admitByIdentity(_ event: TokenEvent) throws(StoreError) -> Admission {
        guard let identity = event.identity else { return .counted }
        let high = Int64(bitPattern: identity.high)
        let low = Int64(bitPattern: identity.low)
        if event.keep == .first {
            try database.prepare("INSERT INTO identities (high, low, keep) VALUES (?1, ?2, 0) ON CONFLICT DO NOTHING")
                .run([.integer(high), .integer(low)])
            return database.changes == 1 ? .counted : .duplicate
        }
        let existing = try database.prepare(
            """
            SELECT keep, quarter, tool, model, input, cache_read, cache_write_5m, cache_write_1h, output, reasoning,
                context_above, cost_logged, logged_cost_nanos, estimated
            FROM identities WHERE high = ?1 AND low = ?2
            """
        ).rows([.integer(high), .integer(low)]).first
        let write = try database.prepare(
            "INSERT OR REPLACE INTO identities VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)")
        let key = BucketKey(event)
        let delta = BucketDelta(event)
        let values: [SQLValue] = [
            .integer(high), .integer(low), .integer(key.quarter), .text(event.tool), .text(event.model),
            .integer(event.counts.input), .integer(event.counts.cacheRead), .integer(event.counts.cacheWrite5m),
            .integer(event.counts.cacheWrite1h), .integer(event.counts.output), .integer(event.counts.reasoning),
            .integer(key.contextAbove), .integer(key.costLogged ? 1 : 0), .integer(delta.loggedCostNanos),
            .integer(delta.estimatedEvents),
        ]
        guard let existing else {
            try write.run(values)
            return .counted
        }
        guard existing.int(0) == 1, let quarter = existing.int(1), let tool = existing.text(2), let model = existing.text(3)
        else { return .duplicate }
        var previous = BucketDelta()
        previous.counts = TokenCounts(
            input: existing.int(4) ?? 0, cacheRead: existing.int(5) ?? 0, cacheWrite5m: existing.int(6) ?? 0,
            cacheWrite1h: existing.int(7) ?? 0, output: existing.int(8) ?? 0, reasoning: existing.int(9) ?? 0)
        previous.events = 1
        previous.loggedCostNanos = existing.int(12) ?? 0
        previous.estimatedEvents = existing.int(13) ?? 0
        guard event.keep == .last || event.counts.total > previous.counts.total else { return .duplicate }
        try write.run(values)
        return .replaced(
            Contribution(
                key: BucketKey(
                    quarter: quarter, tool: tool, model: model, contextAbove: existing.int(10) ?? ContextBand.unknown,
                    costLogged: existing.int(11) == 1),
                delta: previous))
    }

    // MARK: Reading

    /// Buckets in `[fromQuarter, toQuarter)` of `tools` (every tool when empty).
    public func buckets(fromQuarter: Int64, toQuarter: Int64, tools: [String] = []) throws(StoreError) -> [BucketRow] {
        let only = tools.isEmpty ? "" : " AND tool IN (" + tools.indices.map { "?\($0 + 3)" }.joined(separator: ", ") + ")"
        let rows = try database.prepare(
            """
            SELECT quarter, tool, model, input, cache_read, cache_write_5m, cache_write_1h, output, reasoning, events,
                context_above, cost_logged, logged_cost_nanos, estimated_events
            FROM buckets WHERE quarter >= ?1 AND quarter < ?2\(only)
            ORDER BY quarter, tool, model, context_above, cost_logged
            """
        ).rows([SQLValue.integer(fromQuarter), .integer(toQuarter)] + tools.map { .text($0) })
        return rows.map { row in
            BucketRow(
                quarter: row.int(0) ?? 0, tool: row.text(1) ?? "", model: row.text(2) ?? "",
                counts: TokenCounts(
                    input: row.int(3) ?? 0, cacheRead: row.int(4) ?? 0, cacheWrite5m: row.int(5) ?? 0,
                    cacheWrite1h: row.int(6) ?? 0, output: row.int(7) ?? 0, reasoning: row.int(8) ?? 0),
                events: row.int(9) ?? 0, contextAbove: row.int(10) ?? ContextBand.unknown, costLogged: row.int(11) == 1,
                loggedCostNanos: row.int(12) ?? 0, estimatedEvents: row.int(13) ?? 0)
        }
    }

    /// Every model in the store with its token counts and events, summed over tools and time, by model id.
    public func modelTotals() throws(StoreError) -> [(model: String, counts: TokenCounts, events: Int64)] {
        try database.prepare(
            """
            SELECT model, sum(input), sum(cache_read), sum(cache_write_5m), sum(cache_write_1h), sum(output),
                sum(reasoning), sum(events)
            FROM buckets GROUP BY model ORDER BY model
            """
        ).rows().map { row in
            (
                row.text(0) ?? "",
                TokenCounts(
                    input: row.int(1) ?? 0, cacheRead: row.int(2) ?? 0, cacheWrite5m: row.int(3) ?? 0,
                    cacheWrite1h: row.int(4) ?? 0, output: row.int(5) ?? 0, reasoning: row.int(6) ?? 0),
                row.int(7) ?? 0
            )
        }
    }

    /// Activity of the quarter-hours in `[fromQuarter, toQuarter)`, in order.
    public func activity(fromQuarter: Int64, toQuarter: Int64) throws(StoreError) -> [ActivityQuarter] {
        try database.prepare(
            "SELECT quarter, first, last FROM activity WHERE quarter >= ?1 AND quarter < ?2 ORDER BY quarter"
        ).rows([.integer(fromQuarter), .integer(toQuarter)]).map { row in
            ActivityQuarter(quarter: row.int(0) ?? 0, first: row.int(1) ?? 0, last: row.int(2) ?? 0)
        }
    }

    /// The latest activity before `quarter`, if any: whether an episode was already running there.
    public func lastActivity(beforeQuarter quarter: Int64) throws(StoreError) -> Int64? {
        try database.prepare("SELECT last FROM activity WHERE quarter < ?1 ORDER BY quarter DESC LIMIT 1")
            .rows([.integer(quarter)]).first?.int(0)
    }

    /// The first quarter-hour holding usage: where the store's history begins.
    public func firstUsageQuarter() throws(StoreError) -> Int64? {
        try database.prepare("SELECT min(quarter) FROM buckets").rows().first?.int(0)
    }

    /// When the store was last brought up to date by a scan (milliseconds since 1970), if ever.
    public func measuredAt() throws(StoreError) -> Int64? {
        try database.prepare("SELECT value FROM settings WHERE key = 'measured_at'").rows().first?.text(0)
            .flatMap { Int64($0) }
    }

    /// Records that a scan starting at `time` has completed: the store holds every readable record up to then.
    public func recordMeasurement(at time: Int64) throws(StoreError) {
        try database.prepare("INSERT OR REPLACE INTO settings VALUES ('measured_at', ?1)").run([.text(String(time))])
    }

    /// A tool's samples of one window logged at or after `since`, oldest first.
    public func limitSamples(tool: String, window: String, since: Int64) throws(StoreError) -> [LimitSample] {
        try database.prepare(
            """
            SELECT time, used_percent, window_minutes, resets_at FROM limit_samples
            WHERE tool = ?1 AND window = ?2 AND time >= ?3 ORDER BY time
            """
        ).rows([.text(tool), .text(window), .integer(since)]).map { row in
            LimitSample(
                tool: tool, time: row.int(0) ?? 0, window: window, usedPercent: row.double(1), windowMinutes: row.int(2),
                resetsAt: row.int(3))
        }
    }

    /// The latest sample of each tool's windows, among those logged at or before `loggedBy` (a view at a
    /// given moment sees only what was logged by then).
    public func latestLimits(loggedBy: Int64 = Int64.max) throws(StoreError) -> [LimitSample] {
        try database.prepare(
            """
            SELECT tool, window, time, used_percent, window_minutes, resets_at FROM limit_samples s
            WHERE time = (
                SELECT max(time) FROM limit_samples t WHERE t.tool = s.tool AND t.window = s.window AND t.time <= ?1)
            ORDER BY tool, window
            """
        ).rows([.integer(loggedBy)]).map { row in
            LimitSample(
                tool: row.text(0) ?? "", time: row.int(2) ?? 0, window: row.text(1) ?? "", usedPercent: row.double(3),
                windowMinutes: row.int(4), resetsAt: row.int(5))
        }
    }
}
