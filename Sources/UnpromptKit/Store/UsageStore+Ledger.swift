import Foundation

/// The store as the scanner's ledger: checkpoints, and reads committed with their identities.
extension UsageStore: ScanLedger {
    public typealias Failure = StoreError

    public var keepsCheckpoints: Bool { true }
    /// Groups are kept to a few megabytes of events; what bounds the writes is how often a transaction
    /// commits (see `commit(_:)`), at most once a `seconds`.
    public var commitGroup: CommitGroup { CommitGroup(reads: 4096, events: 4096, seconds: 1) }

    /// The store's lock: one scan at a time per store, across processes (`StoreLock`). Until it is released,
    /// this connection is the store's only writer: the scan's commits share one transaction, committed at most
    /// once a second (`commit(_:)`), and a store that holds no identity and no alias at its first commit
    /// holds only what this scan writes, so its commits look up only the keys they may have written
    /// (`StoredKeyFilter`).
    public func lockForScan() throws(StoreError) -> ScanLease {
        let lock = try StoreLock(storePath: path)
        do {
            try lockedConnection { connection throws(StoreError) in connection.scanning = true }
        } catch {
            lock.release()
            throw error
        }
        return ScanLease { [self] in
            // A transaction still open here is a failed scan's (`finishCommits` was not reached): it is not
            // kept. Once the lock is released another process may write, so nothing is known any more.
            try? lockedConnection { connection throws(StoreError) in
                if connection.transactionStarted != nil { try? connection.database.execute("ROLLBACK") }
                connection.transactionStarted = nil
                connection.scanning = false
                connection.keysChecked = false
                connection.storedKeys = nil
            }
            lock.release()
        }
    }

    /// Commits the scan's open transaction, if any.
    public func finishCommits() throws(StoreError) {
        try lockedConnection { connection throws(StoreError) in try Self.commitOpenTransaction(&connection) }
    }

    public func checkpoint(for sourceKey: String) throws(StoreError) -> Checkpoint? {
        try locked { database throws(StoreError) in try Self.checkpoint(for: sourceKey, in: database) }
    }

    /// Every checkpoint, by source key: one query for a whole rescan.
    public func allCheckpoints() throws(StoreError) -> [String: Checkpoint] {
        try locked { database throws(StoreError) in
            let rows = try database.prepare(
                "SELECT device, inode, size, mtime_ns, offset, head_length, head_hash, tail_hash, state, source_key FROM checkpoints"
            ).rows()
            var result: [String: Checkpoint] = [:]
            for row in rows { result[row.text(9) ?? ""] = Self.checkpoint(row) }
            return result
        }
    }

    /// Stores one source's read in one transaction (see `commit(_:)`).
    public func commit(
        sourceKey: String, expected: Checkpoint?, events: [TokenEvent], limits: [LimitSample], checkpoint: Checkpoint
    ) throws(StoreError) -> CommitOutcome {
        try commit([
            SourceCommit(sourceKey: sourceKey, expected: expected, events: events, limits: limits, checkpoint: checkpoint)
        ])[0]
    }

    /// Stores sources' reads in one transaction, each whole: its events (each identity counted once across
    /// every source ever read), the activity of all of them (duplicates included: see `Episodes`), its limit
    /// samples and its new checkpoint. A read whose `expected` checkpoint is not the one stored (another scan
    /// moved it) writes nothing (`applied` is false); a crash loses the whole transaction, whose sources are then
    /// read again.
    ///
    /// The group's identities are looked up, and written back, in key order (`IdentityBatch`): each page of the
    /// identities' B-tree is then visited once per group rather than once per record, and a commit rewrites only
    /// the pages it changed.
    ///
    /// Outside a scan each call is one transaction. During one (`lockForScan`), calls share a transaction,
    /// committed once it is a second old and by `finishCommits`: each commit of a random identity rewrites its
    /// B-tree page, so committing by time keeps the pages written in proportion to the history instead of to
    /// the number of groups times the size of the store. A failure rolls back everything since the last
    /// commit (the scan then fails, and its sources are read again by the next one), as a crash does.
    public func commit(_ reads: [SourceCommit]) throws(StoreError) -> [CommitOutcome] {
        try lockedConnection { connection throws(StoreError) in
            let database = connection.database
            guard connection.scanning else {
                return try database.transaction { () throws(StoreError) -> [CommitOutcome] in
                    try Self.apply(reads, to: database, storedKeys: &connection.storedKeys)
                }
            }
            if connection.transactionStarted == nil {
                try database.execute("BEGIN IMMEDIATE")
                connection.transactionStarted = DispatchTime.now().uptimeNanoseconds
            }
            do throws(StoreError) {
                // Asked at the scan's first commit, not when it begins: a rescan with nothing new reads no identity.
                if !connection.keysChecked {
                    connection.keysChecked = true
                    let empty = try database.prepare(
                        "SELECT NOT EXISTS (SELECT 1 FROM identities) AND NOT EXISTS (SELECT 1 FROM aliases)"
                    ).rows().first?.int(0) == 1
                    connection.storedKeys = empty ? StoredKeyFilter() : nil
                }
                let outcomes = try Self.apply(reads, to: database, storedKeys: &connection.storedKeys)
                let age = DispatchTime.now().uptimeNanoseconds - (connection.transactionStarted ?? 0)
                if Double(age) >= commitGroup.seconds * 1e9 { try Self.commitOpenTransaction(&connection) }
                return outcomes
            } catch {
                try? database.execute("ROLLBACK")
                connection.transactionStarted = nil
                throw error
            }
        }
    }

    private static func commitOpenTransaction(_ connection: inout Connection) throws(StoreError) {
        guard connection.transactionStarted != nil else { return }
        connection.transactionStarted = nil
        do throws(StoreError) {
            try connection.database.execute("COMMIT")
        } catch {
            try? connection.database.execute("ROLLBACK")
            throw error
        }
    }

    /// `storedKeys` is handed to the group's ledger and back, with every key written added, before the
    /// transaction ends (a superset of what is stored, whether it commits or not).
    private static func apply(_ reads: [SourceCommit], to database: Database, storedKeys: inout StoredKeyFilter?)
        throws(StoreError) -> [CommitOutcome]
    {
        var outcomes: [CommitOutcome] = []
        var candidates: [[Int]] = []
        for read in reads {
            guard try checkpoint(for: read.sourceKey, in: database)?.offsetAndIdentity == read.expected?.offsetAndIdentity
            else {
                outcomes.append(CommitOutcome(counted: 0, duplicates: 0, applied: false))
                candidates.append([])
                continue
            }
            var outcome = CommitOutcome()
            candidates.append(settledWithin(read, &outcome))
            outcomes.append(outcome)
        }
        var stored = try SQLiteIdentityLedger(database: database, storedKeys: storedKeys.take())
        defer { storedKeys = stored.storedKeys }
        // Made inside the deduplicator, so that no second copy of the batch is kept while it changes.
        let candidateEvents = reads.indices.lazy.flatMap { index in candidates[index].lazy.map { reads[index].events[$0] } }
        var deduplicator = Deduplicator(try IdentityBatch(for: candidateEvents, from: stored))
        var deltas: [BucketKey: BucketDelta] = [:]
        for index in reads.indices where outcomes[index].applied {
            for position in candidates[index] {
                let event = reads[index].events[position]
                switch deduplicator.admit(event) {
                case .counted:
                    outcomes[index].counted += 1
                    deltas[BucketKey(event), default: BucketDelta()] += BucketDelta(event)
                case .duplicate:
                    outcomes[index].duplicates += 1
                case .replaced(let previous):
                    outcomes[index].duplicates += 1
                    deltas[previous.key, default: BucketDelta()] -= previous.delta
                    deltas[BucketKey(event), default: BucketDelta()] += BucketDelta(event)
                }
            }
        }
        try deduplicator.ledger.write(to: &stored)
        try add(deltas, to: database)
        let applied = reads.indices.filter { outcomes[$0].applied }.map { reads[$0] }
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
        for quarter in Episodes.activity(of: applied.lazy.flatMap { $0.events.lazy.map(\.time) }) {
            try active.run([.integer(quarter.quarter), .integer(quarter.first), .integer(quarter.last)])
        }
        let sample = try database.prepare("INSERT OR IGNORE INTO limit_samples VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        for read in applied {
            // Of one read, only the latest reading of each window is kept.
            for limit in LimitSample.latestPerWindow(read.limits) {
                try sample.run([
                    .text(limit.tool), .text(limit.window), .integer(limit.time), SQLValue(limit.usedPercent),
                    SQLValue(limit.windowMinutes), SQLValue(limit.resetsAt),
                ])
            }
            guard let checkpoint = read.checkpoint else { preconditionFailure("the store keeps checkpoints: every read has one") }
            try save(checkpoint, for: read.sourceKey, to: database)
        }
        return outcomes
    }

    /// The positions in `read.events` of the events that may count, copies within it settled in memory first (the
    /// same rules), so only one event per identity asks the store; the copies dropped are counted in `outcome`.
    /// Positions rather than copies of the events: a group's events are then held once while it commits.
    private static func settledWithin(_ read: SourceCommit, _ outcome: inout CommitOutcome) -> [Int] {
        var local = Deduplicator(MemoryIdentityLedger())
        var survivors: [Identity: Int] = [:]
        var candidates: [Int] = []
        for (position, event) in read.events.enumerated() {
            switch local.admit(event) {
            case .counted:
                if let identity = event.identity { survivors[identity] = candidates.count }
                candidates.append(position)
            case .duplicate:
                outcome.duplicates += 1
            case .replaced:
                outcome.duplicates += 1
                if let identity = event.identity, let index = survivors[identity] { candidates[index] = position }
            }
        }
        return candidates
    }

    /// Adds each bucket's delta to its row, saturating as `Int64.saturatingAdd` does (SQLite would turn an
    /// overflowing sum into a floating-point value); a replaced record can leave its old bucket empty: no row
    /// then, as if never counted.
    private static func add(_ deltas: [BucketKey: BucketDelta], to database: Database) throws(StoreError) {
        let sums = [
            "input", "cache_read", "cache_write_5m", "cache_write_1h", "cache_write_12h", "output", "reasoning", "events",
            "logged_cost_nanos", "estimated_events", "web_search", "web_fetch",
        ].map { "\($0) = \(saturatingSum($0))" }.joined(separator: ",\n    ")
        let upsert = try database.prepare(
            """
            INSERT INTO buckets VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
            ON CONFLICT (quarter, tool, model, context_above, cost_logged, speed, tier, region) DO UPDATE SET
                \(sums)
            """)
        let emptied = try database.prepare(
            """
            DELETE FROM buckets WHERE quarter = ?1 AND tool = ?2 AND model = ?3 AND context_above = ?4
            AND cost_logged = ?5 AND speed = ?6 AND tier = ?7 AND region = ?8 AND events = 0 AND input = 0
            AND cache_read = 0 AND cache_write_5m = 0 AND cache_write_1h = 0 AND cache_write_12h = 0 AND output = 0
            AND reasoning = 0
            AND logged_cost_nanos = 0 AND estimated_events = 0 AND web_search = 0 AND web_fetch = 0
            """)
        for (key, delta) in deltas where !delta.isZero {
            let c = delta.counts
            let d = key.dimensions.codes
            let keyValues: [SQLValue] = [
                .integer(key.quarter), .text(key.tool), .text(key.model), .integer(key.contextAbove),
                .integer(key.costLogged ? 1 : 0), .integer(d.speed), .integer(d.tier), .integer(d.region),
            ]
            try upsert.run(keyValues + [
                .integer(c.input), .integer(c.cacheRead), .integer(c.cacheWrite5m), .integer(c.cacheWrite1h),
                .integer(c.cacheWrite12h), .integer(c.output), .integer(c.reasoning), .integer(delta.events), .integer(delta.loggedCostNanos),
                .integer(delta.estimatedEvents), .integer(delta.serverTools.webSearch),
                .integer(delta.serverTools.webFetch),
            ])
            if delta.events < 0 { try emptied.run(keyValues) }
        }
    }

    /// `column + excluded.column` as SQL, held at the largest (or smallest) integer, and left at the largest
    /// once there.
    private static func saturatingSum(_ column: String) -> String {
        let (most, least) = ("9223372036854775807", "(-9223372036854775807 - 1)")
        return """
            CASE WHEN \(column) = \(most) OR excluded.\(column) = \(most) \
            OR (excluded.\(column) > 0 AND \(column) > \(most) - excluded.\(column)) THEN \(most) \
            WHEN excluded.\(column) < 0 AND \(column) < \(least) - excluded.\(column) THEN \(least) \
            ELSE \(column) + excluded.\(column) END
            """
    }

    private static func checkpoint(for sourceKey: String, in database: Database) throws(StoreError) -> Checkpoint? {
        try database.prepare(
            "SELECT device, inode, size, mtime_ns, offset, head_length, head_hash, tail_hash, state FROM checkpoints WHERE source_key = ?1"
        ).rows([.text(sourceKey)]).first.map(Self.checkpoint)
    }

    private static func checkpoint(_ row: Statement.Row) -> Checkpoint {
        Checkpoint(
            device: UInt64(bitPattern: row.int(0) ?? 0), inode: UInt64(bitPattern: row.int(1) ?? 0),
            size: row.int(2) ?? 0, modifiedNanoseconds: row.int(3) ?? 0, offset: row.int(4) ?? 0,
            headLength: row.int(5) ?? 0, headHash: row.text(6) ?? "", tailHash: row.text(7) ?? "",
            stateData: row.blob(8) ?? Data())
    }

    private static func save(_ checkpoint: Checkpoint, for sourceKey: String, to database: Database) throws(StoreError) {
        try database.prepare("INSERT OR REPLACE INTO checkpoints VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)").run([
            .text(sourceKey), .integer(Int64(bitPattern: checkpoint.device)), .integer(Int64(bitPattern: checkpoint.inode)),
            .integer(checkpoint.size), .integer(checkpoint.modifiedNanoseconds), .integer(checkpoint.offset),
            .integer(checkpoint.headLength), .text(checkpoint.headHash), .text(checkpoint.tailHash), .blob(checkpoint.stateData),
        ])
    }
}
