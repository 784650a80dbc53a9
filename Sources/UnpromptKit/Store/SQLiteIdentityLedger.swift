/// The store's `IdentityLedger`: the `identities` and `aliases` tables, kept across scans, inside the
/// transaction of the read being committed.
///
/// An identity taken by a `first` record is a row with `keep = 0` and no contribution; one kept by a `last`
/// or `largest` record (`keep = 1`) holds what it contributed, so a later, larger copy can take it away exactly.
/// Its statements are prepared once, when it is made: a commit runs them for every record. With `storedKeys`
/// (a scan that began on a store holding no key) a key never written is known to be absent without a lookup.
struct SQLiteIdentityLedger: IdentityLedger {
    typealias Failure = StoreError

    private let database: Database
    private let claimStatement: Statement
    private let entryStatement: Statement
    private let keepStatement: Statement
    private let aliasStatement: Statement
    private let registerStatement: Statement
    /// A superset of the keys stored, when known: every key written goes into it.
    private(set) var storedKeys: StoredKeyFilter?

    init(database: Database, storedKeys: StoredKeyFilter? = nil) throws(StoreError) {
        self.database = database
        self.storedKeys = storedKeys
        claimStatement = try database.prepare("INSERT INTO identities (high, low, keep) VALUES (?1, ?2, 0) ON CONFLICT DO NOTHING")
        entryStatement = try database.prepare(
            """
            SELECT keep, quarter, tool, model, input, cache_read, cache_write_5m, cache_write_1h, output, reasoning,
                context_above, cost_logged, logged_cost_nanos, estimated, speed, tier, region, web_search, web_fetch,
                cache_write_12h
            FROM identities WHERE high = ?1 AND low = ?2
            """)
        keepStatement = try database.prepare(
            """
            INSERT OR REPLACE INTO identities (
                high, low, keep, quarter, tool, model, input, cache_read, cache_write_5m, cache_write_1h, output, reasoning,
                context_above, cost_logged, logged_cost_nanos, estimated, speed, tier, region, web_search, web_fetch,
                cache_write_12h)
            VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)
            """)
        aliasStatement = try database.prepare("SELECT owner_high, owner_low FROM aliases WHERE high = ?1 AND low = ?2")
        registerStatement = try database.prepare("INSERT INTO aliases VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING")
    }

    mutating func claim(_ identity: Identity) throws(StoreError) -> Bool {
        storedKeys?.insert(identity)
        try claimStatement.run(Self.values(identity))
        return database.changes == 1
    }

    func entry(_ identity: Identity) throws(StoreError) -> LedgerEntry? {
        if storedKeys?.mayContain(identity) == false { return nil }
        guard let row = try entryStatement.rows(Self.values(identity)).first else { return nil }
        guard row.int(0) == 1, let quarter = row.int(1), let tool = row.text(2), let model = row.text(3) else {
            return .claimed
        }
        var delta = BucketDelta()
        delta.counts = TokenCounts(
            input: row.int(4) ?? 0, cacheRead: row.int(5) ?? 0, cacheWrite5m: row.int(6) ?? 0,
            cacheWrite1h: row.int(7) ?? 0, cacheWrite12h: row.int(19) ?? 0, output: row.int(8) ?? 0,
            reasoning: row.int(9) ?? 0)
        delta.events = 1
        delta.loggedCostNanos = row.int(12) ?? 0
        delta.estimatedEvents = row.int(13) ?? 0
        delta.serverTools = ServerToolCounts(webSearch: row.int(17) ?? 0, webFetch: row.int(18) ?? 0)
        let key = BucketKey(
            quarter: quarter, tool: tool, model: model, contextAbove: row.int(10) ?? ContextBand.unknown,
            costLogged: row.int(11) == 1, dimensions: PriceDimensions(codes: row.int(14), row.int(15), row.int(16)))
        return .kept(Contribution(key: key, delta: delta))
    }

    mutating func keep(_ contribution: Contribution, for identity: Identity) throws(StoreError) {
        storedKeys?.insert(identity)
        let key = contribution.key
        let delta = contribution.delta
        let c = delta.counts
        let d = key.dimensions.codes
        try keepStatement.run(
            Self.values(identity) + [
                .integer(key.quarter), .text(key.tool), .text(key.model), .integer(c.input), .integer(c.cacheRead),
                .integer(c.cacheWrite5m), .integer(c.cacheWrite1h), .integer(c.output), .integer(c.reasoning),
                .integer(key.contextAbove), .integer(key.costLogged ? 1 : 0), .integer(delta.loggedCostNanos),
                .integer(delta.estimatedEvents), .integer(d.speed), .integer(d.tier), .integer(d.region),
                .integer(delta.serverTools.webSearch), .integer(delta.serverTools.webFetch), .integer(c.cacheWrite12h),
            ])
    }

    func alias(_ alias: Identity) throws(StoreError) -> AliasRegistration? {
        if storedKeys?.mayContain(alias) == false { return nil }
        return try aliasStatement.rows(Self.values(alias)).first.map { row in
            guard let high = row.int(0), let low = row.int(1) else { return AliasRegistration(owner: nil) }
            return AliasRegistration(owner: Identity(high: UInt64(bitPattern: high), low: UInt64(bitPattern: low)))
        }
    }

    mutating func register(_ alias: Identity, owner: Identity?) throws(StoreError) {
        storedKeys?.insert(alias)
        try registerStatement.run(Self.values(alias) + (owner.map(Self.values) ?? [.null, .null]))
    }

    private static func values(_ identity: Identity) -> [SQLValue] {
        [.integer(Int64(bitPattern: identity.high)), .integer(Int64(bitPattern: identity.low))]
    }
}
