/// Token totals overall, by model and by UTC day: the figures a dry run prints, with day-long buckets
/// (`buckets`) from which the same cost and water are computed as for a view. Cost and water are linear in the
/// counts of one bucket key, so a bucket per UTC day prices exactly as the store's quarter-hours do, with far
/// fewer rows to price.
public struct UsageTotals: Sendable, Equatable {
    public var total = TokenCounts.zero
    public var events = 0
    /// Day-long buckets: one dictionary update per event; the breakdowns below are sums of them.
    private var cells: [BucketKey: BucketDelta] = [:]
    /// The cell the last event was added to: events come day by day and model by model, so most go to the same
    /// cell as the one before, found by comparing keys instead of hashing one. Not part of what the totals are.
    private var lastCell: (key: BucketKey, index: Dictionary<BucketKey, BucketDelta>.Index)?

    public init() {}

    public mutating func add(_ event: TokenEvent) {
        total += event.counts
        let key = Self.dayKey(BucketKey(event))
        if let lastCell, lastCell.key == key {
            cells.values[lastCell.index] += BucketDelta(event)
        } else {
            cells[key, default: BucketDelta()] += BucketDelta(event)
            lastCell = (key, cells.index(forKey: key)!)
        }
        events += 1
    }

    /// Takes away what a record contributed (a replaced copy).
    public mutating func remove(_ contribution: Contribution) {
        total -= contribution.delta.counts
        let key = Self.dayKey(contribution.key)
        cells[key, default: BucketDelta()] -= contribution.delta
        if cells[key]?.isZero == true { cells[key] = nil }
        events -= Int(contribution.delta.events)
        // A cell taken away moves the others.
        lastCell = nil
    }

    public static func == (a: UsageTotals, b: UsageTotals) -> Bool {
        a.total == b.total && a.events == b.events && a.cells == b.cells
    }

    /// The sum of the costs the tools logged themselves (USD), for events that carry one: exact, from the
    /// buckets' integer nano-USD.
    public var loggedCost: Double { Double(cells.values.reduce(Int64(0)) { $0.saturatingAdd($1.loggedCostNanos) }) / 1e9 }

    /// Counts by model.
    public var byModel: [String: TokenCounts] {
        cells.reduce(into: [:]) { sums, cell in sums[cell.key.model, default: .zero] += cell.value.counts }
    }

    /// Counts by days since 1970-01-01 (UTC).
    public var byDay: [Int64: TokenCounts] {
        cells.reduce(into: [:]) { sums, cell in
            sums[CivilDate.floorDivide(cell.key.quarter, LocalCalendar.quartersPerDay), default: .zero] += cell.value.counts
        }
    }

    /// The bucket key with the first quarter-hour of its UTC day for its quarter.
    static func dayKey(_ key: BucketKey) -> BucketKey {
        let perDay = LocalCalendar.quartersPerDay
        return key.moved(to: CivilDate.floorDivide(key.quarter, perDay) * perDay)
    }

    /// The day-long buckets these events make, in key order.
    public var buckets: [BucketRow] {
        cells.map { $0.value.row($0.key) }.sorted {
            ($0.quarter, $0.tool, $0.model, $0.contextAbove, $0.dimensions.order)
                < ($1.quarter, $1.tool, $1.model, $1.contextAbove, $1.dimensions.order)
        }
    }
}
