import Foundation

/// Plan-limit readings that reach the store outside any log: a status line's payload (`StatusLinePayload`),
/// several times a minute. They are gauges, and a status line repeats the same reading for minutes, so the
/// store keeps the moments a reading changes and the latest moment it was seen: a reading equal to the two
/// before it moves the later one's time forward instead of adding a row.
///
/// They are written without the store's writer lock (`StoreLock`: a scan holds it for seconds, and a status
/// line must not wait): a reading touches no checkpoint, identity or bucket, and SQLite orders the writes. The
/// store must already be at this version's schema (a scan creates and migrates it).
extension UsageStore {
    /// A reading equal to the latest one is not written again until it is this old (milliseconds).
    public static let repeatedReadingInterval: Int64 = 60_000
    /// How long a status line waits for another writer (a scan's commit) before leaving its readings to the next.
    static let readingsBusyTimeoutMilliseconds: Int32 = 200

    /// Of `samples`, those to write: all but those equal to their window's latest reading (used share, length
    /// and reset) logged less than `repeatedReadingInterval` before them.
    public func readingsToRecord(_ samples: [LimitSample]) throws(StoreError) -> [LimitSample] {
        var result: [LimitSample] = []
        for sample in samples {
            let latest = try locked { database throws(StoreError) in try Self.recentReadings(of: sample, limit: 1, in: database).first }
            if let latest, Self.sameReading(latest, sample), sample.time - latest.time < Self.repeatedReadingInterval { continue }
            result.append(sample)
        }
        return result
    }

    /// Writes `samples` into the store at `path` in one transaction, on a connection of its own (read-write,
    /// without the writer lock). A busy store throws with `busy` set: nothing was written.
    public static func recordReadings(_ samples: [LimitSample], storePath path: String) throws(StoreError) {
        guard !samples.isEmpty else { return }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(message: "no store at this path yet: run a scan first", busy: false)
        }
        let database = try Database(
            path: path, options: [.readWrite], busyTimeoutMilliseconds: readingsBusyTimeoutMilliseconds)
        let version = try database.prepare("PRAGMA user_version").rows().first?.int(0) ?? 0
        guard version == schemaVersion else {
            throw StoreError(
                message: "the store is at schema \(version), this version writes schema \(schemaVersion): run a scan once", busy: false)
        }
        try database.execute("PRAGMA synchronous=NORMAL")
        try database.transaction { () throws(StoreError) in
            for sample in samples {
                let recent = try recentReadings(of: sample, limit: 2, in: database)
                if recent.count == 2, recent.allSatisfy({ sameReading($0, sample) }), recent[0].time < sample.time {
                    try database.prepare("UPDATE limit_samples SET time = ?4 WHERE tool = ?1 AND window = ?2 AND time = ?3").run([
                        .text(sample.tool), .text(sample.window), .integer(recent[0].time), .integer(sample.time),
                    ])
                } else {
                    try database.prepare("INSERT OR IGNORE INTO limit_samples VALUES (?1, ?2, ?3, ?4, ?5, ?6)").run([
                        .text(sample.tool), .text(sample.window), .integer(sample.time), SQLValue(sample.usedPercent),
                        SQLValue(sample.windowMinutes), SQLValue(sample.resetsAt),
                    ])
                }
            }
        }
    }

    /// The latest readings of `sample`'s window logged at or before it, latest first.
    private static func recentReadings(of sample: LimitSample, limit: Int, in database: Database) throws(StoreError) -> [LimitSample] {
        try database.prepare(
            """
            SELECT time, used_percent, window_minutes, resets_at FROM limit_samples
            WHERE tool = ?1 AND window = ?2 AND time <= ?3 ORDER BY time DESC LIMIT ?4
            """
        ).rows([.text(sample.tool), .text(sample.window), .integer(sample.time), .integer(Int64(limit))]).map { row in
            LimitSample(
                tool: sample.tool, time: row.int(0) ?? 0, window: sample.window, usedPercent: row.double(1),
                windowMinutes: row.int(2), resetsAt: row.int(3))
        }
    }

    static func sameReading(_ a: LimitSample, _ b: LimitSample) -> Bool {
        a.usedPercent == b.usedPercent && a.windowMinutes == b.windowMinutes && a.resetsAt == b.resetsAt
    }
}
