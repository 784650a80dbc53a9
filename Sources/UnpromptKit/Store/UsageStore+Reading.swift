import Foundation

/// What the views read: buckets, activity, limit samples and when the store was last measured.
extension UsageStore {
    /// Buckets in `[fromQuarter, toQuarter)` of `tools` (every tool when empty).
    public func buckets(fromQuarter: Int64, toQuarter: Int64, tools: [String] = []) throws(StoreError) -> [BucketRow] {
        let only = tools.isEmpty ? "" : " AND tool IN (" + tools.indices.map { "?\($0 + 3)" }.joined(separator: ", ") + ")"
        return try locked { database throws(StoreError) in
            let rows = try database.prepare(
                """
                SELECT quarter, tool, model, input, cache_read, cache_write_5m, cache_write_1h, cache_write_12h, output,
                    reasoning, events, context_above, cost_logged, logged_cost_nanos, estimated_events, speed, tier, region,
                    web_search, web_fetch
                FROM buckets WHERE quarter >= ?1 AND quarter < ?2\(only)
                ORDER BY quarter, tool, model, context_above, cost_logged, speed, tier, region
                """
            ).rows([SQLValue.integer(fromQuarter), .integer(toQuarter)] + tools.map { .text($0) })
            return rows.map { row in
                BucketRow(
                    quarter: row.int(0) ?? 0, tool: row.text(1) ?? "", model: row.text(2) ?? "",
                    counts: Self.counts(row, from: 3), events: row.count(10) ?? 0,
                    contextAbove: row.int(11) ?? ContextBand.unknown, costLogged: row.int(12) == 1,
                    loggedCostNanos: row.count(13) ?? 0, estimatedEvents: row.count(14) ?? 0,
                    dimensions: PriceDimensions(codes: row.int(15), row.int(16), row.int(17)),
                    serverTools: ServerToolCounts(webSearch: row.count(18) ?? 0, webFetch: row.count(19) ?? 0))
            }
        }
    }

    /// Every model in the store with its token counts and events, summed over tools and time, by model id. Summed
    /// here, saturating, since SQLite's `sum` fails on an overflow.
    public func modelTotals() throws(StoreError) -> [(model: String, counts: TokenCounts, events: Int64)] {
        try locked { database throws(StoreError) in
            var totals: [(model: String, counts: TokenCounts, events: Int64)] = []
            try database.prepare(
                """
                SELECT model, input, cache_read, cache_write_5m, cache_write_1h, cache_write_12h, output, reasoning, events
                FROM buckets ORDER BY model
                """
            ).forEachRow { row in
                let model = row.text(0) ?? ""
                if totals.last?.model != model { totals.append((model, .zero, 0)) }
                totals[totals.count - 1].counts += Self.counts(row, from: 1)
                totals[totals.count - 1].events = totals[totals.count - 1].events.saturatingAdd(row.count(8) ?? 0)
            }
            return totals
        }
    }

    /// The seven count columns starting at `first`, in the schema's order.
    private static func counts(_ row: Statement.Row, from first: Int) -> TokenCounts {
        TokenCounts(
            input: row.count(first) ?? 0, cacheRead: row.count(first + 1) ?? 0, cacheWrite5m: row.count(first + 2) ?? 0,
            cacheWrite1h: row.count(first + 3) ?? 0, cacheWrite12h: row.count(first + 4) ?? 0, output: row.count(first + 5) ?? 0,
            reasoning: row.count(first + 6) ?? 0)
    }

    /// Activity of the quarter-hours in `[fromQuarter, toQuarter)`, in order.
    public func activity(fromQuarter: Int64, toQuarter: Int64) throws(StoreError) -> [ActivityQuarter] {
        try locked { database throws(StoreError) in
            try database.prepare(
                "SELECT quarter, first, last FROM activity WHERE quarter >= ?1 AND quarter < ?2 ORDER BY quarter"
            ).rows([.integer(fromQuarter), .integer(toQuarter)]).map { row in
                ActivityQuarter(quarter: row.int(0) ?? 0, first: row.int(1) ?? 0, last: row.int(2) ?? 0)
            }
        }
    }

    /// The latest activity before `quarter`, if any: whether an episode was already running there.
    public func lastActivity(beforeQuarter quarter: Int64) throws(StoreError) -> Int64? {
        try locked { database throws(StoreError) in
            try database.prepare("SELECT last FROM activity WHERE quarter < ?1 ORDER BY quarter DESC LIMIT 1")
                .rows([.integer(quarter)]).first?.int(0)
        }
    }

    /// The first quarter-hour holding usage: where the store's history begins.
    public func firstUsageQuarter() throws(StoreError) -> Int64? {
        try locked { database throws(StoreError) in
            try database.prepare("SELECT min(quarter) FROM buckets").rows().first?.int(0)
        }
    }

    /// When the store was last brought up to date by a scan (milliseconds since 1970), if ever.
    public func measuredAt() throws(StoreError) -> Int64? { try instant("measured_at") }

    /// Records that a scan starting at `time` has completed: the store holds every readable record up to then.
    public func recordMeasurement(at time: Int64) throws(StoreError) { try record(instant: time, as: "measured_at") }

    /// An instant kept in `settings` under `key` (milliseconds since 1970, as text), if any.
    func instant(_ key: String) throws(StoreError) -> Int64? {
        try locked { database throws(StoreError) in
            try database.prepare("SELECT value FROM settings WHERE key = ?1").rows([.text(key)]).first?.text(0)
                .flatMap { Int64($0) }
        }
    }

    func record(instant time: Int64, as key: String) throws(StoreError) {
        try locked { database throws(StoreError) in
            try database.prepare("INSERT OR REPLACE INTO settings VALUES (?1, ?2)").run([.text(key), .text(String(time))])
        }
    }

    /// A tool's samples of one window logged at or after `since`, oldest first.
    public func limitSamples(tool: String, window: String, since: Int64) throws(StoreError) -> [LimitSample] {
        try locked { database throws(StoreError) in
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
    }

    /// The latest sample of each tool's windows, among those logged at or before `loggedBy` (a view at a
    /// given moment sees only what was logged by then).
    public func latestLimits(loggedBy: Int64 = Int64.max) throws(StoreError) -> [LimitSample] {
        try locked { database throws(StoreError) in
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
}
