/// Several devices' buckets and activity as one history: what every view of more than one device reads.
///
/// Buckets of the same key are summed, in integers, so the result is exact and the same whatever order the
/// devices come in; activity of the same quarter-hour keeps the earliest first and the latest last record, so a
/// use that moves from one device to another within two hours stays one use (`Episodes`). Both come out in the
/// order the store lists its own rows, so costs are summed in the same order on every device.
public enum DeviceMerge: Sendable {
    /// `groups`' rows, one per key, in key order: quarter, tool, model (by UTF-8 bytes, as SQLite orders text),
    /// context band, logged cost, price dimensions.
    public static func buckets(_ groups: [[BucketRow]]) -> [BucketRow] {
        let nonEmpty = groups.filter { !$0.isEmpty }
        if nonEmpty.count <= 1 { return nonEmpty.first ?? [] }
        var sums: [BucketKey: BucketDelta] = [:]
        for rows in nonEmpty {
            for row in rows {
                sums[row.key, default: BucketDelta()] += BucketDelta(row)
            }
        }
        return sums.map { $0.value.row($0.key) }.sorted(by: precedes)
    }

    /// `groups`' activity, one per quarter-hour, in quarter order.
    public static func activity(_ groups: [[ActivityQuarter]]) -> [ActivityQuarter] {
        let nonEmpty = groups.filter { !$0.isEmpty }
        if nonEmpty.count <= 1 { return nonEmpty.first ?? [] }
        var spans: [Int64: (first: Int64, last: Int64)] = [:]
        for quarters in nonEmpty {
            for quarter in quarters {
                let span = spans[quarter.quarter]
                spans[quarter.quarter] = (min(span?.first ?? quarter.first, quarter.first), max(span?.last ?? quarter.last, quarter.last))
            }
        }
        return spans.keys.sorted().map { ActivityQuarter(quarter: $0, first: spans[$0]!.first, last: spans[$0]!.last) }
    }

    /// The store's order of bucket rows.
    public static func precedes(_ a: BucketRow, _ b: BucketRow) -> Bool {
        if a.quarter != b.quarter { return a.quarter < b.quarter }
        if a.tool != b.tool { return a.tool.utf8.lexicographicallyPrecedes(b.tool.utf8) }
        if a.model != b.model { return a.model.utf8.lexicographicallyPrecedes(b.model.utf8) }
        if a.contextAbove != b.contextAbove { return a.contextAbove < b.contextAbove }
        if a.costLogged != b.costLogged { return !a.costLogged }
        return a.dimensions.order < b.dimensions.order
    }
}
