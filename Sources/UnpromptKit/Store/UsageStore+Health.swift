/// Something wrong in a store that still opens: said beside every view of it, never repaired silently.
public struct StoreProblem: Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public var description: String { message }
}

extension UsageStore {
    /// What is wrong with the sums the views read. A bucket row holds the sum of its `events` records, each at
    /// most `TokenCounts.recordCeiling` in every count, so a row above `events` times that, negative, not a
    /// whole number, or held at `Int64.max` (a saturated sum) was written by an older version that let such a
    /// count through, or is damaged. Views still show such rows as they are; this says their totals are not exact.
    public func problems() throws(StoreError) -> [StoreProblem] {
        let rows = try locked { database throws(StoreError) in
            try database.prepare("SELECT count(*) FROM buckets WHERE \(Self.implausibleBucket)").rows().first?.int(0) ?? 0
        }
        guard rows > 0 else { return [] }
        return [
            StoreProblem(
                message:
                    "\(rows) bucket row\(rows == 1 ? " holds" : "s hold") counts no record could give (over \(TokenCounts.recordCeiling) tokens a record, negative, not whole, or a sum held at its largest value): written by an older version or damaged; the totals that include them are shown as they are, and are not exact"
            )
        ]
    }

    /// A bucket row `problems()` counts. Also the condition of the index `buckets_implausible` (`StoreSchema`), which
    /// holds only such rows, so that counting them reads no other row: SQLite takes the index only for a query
    /// that writes its condition as the index does, so both are this text.
    static let implausibleBucket: String = {
        let columns = [
            "input", "cache_read", "cache_write_5m", "cache_write_1h", "cache_write_12h", "output", "reasoning", "web_search",
            "web_fetch",
        ]
        let implausible = columns.map { column in
            """
            typeof(\(column)) != 'integer' OR \(column) < 0 OR \(column) = 9223372036854775807 \
            OR \(column) > events * \(TokenCounts.recordCeiling)
            """
        }.joined(separator: " OR ")
        return "typeof(events) != 'integer' OR events < 0 OR \(implausible)"
    }()
}
