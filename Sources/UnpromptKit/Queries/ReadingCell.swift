/// Cost and water of one cell of a view.
public struct ReadingCell: Sendable, Equatable {
    public var cost = CostReading()
    public var water = WaterReading()
    /// Tokens of models without a price, by model, for the notes under a table.
    public var unpricedTokens: [String: Int64] = [:]

    public init() {}

    public mutating func add(_ row: BucketRow, _ readings: Readings) {
        let cost = readings.pricer.reading(of: row)
        self.cost += cost
        water += readings.water.reading(row.counts, model: row.model)
        if !cost.unpricedModels.isEmpty {
            unpricedTokens[row.model] = unpricedTokens[row.model, default: 0].saturatingAdd(cost.uncostedTokens)
        }
    }

    public init(_ rows: some Sequence<BucketRow>, _ readings: Readings) {
        for row in rows { add(row, readings) }
    }

    /// The cells summed, in order (so the sum of costs is the same wherever it is shown).
    public static func += (a: inout ReadingCell, b: ReadingCell) {
        a.cost += b.cost
        a.water += b.water
        a.unpricedTokens.merge(b.unpricedTokens) { $0.saturatingAdd($1) }
    }
}

/// The readings of one period's buckets, in the same cells as `PeriodUsage`: total, per tool, per tool and
/// model, and per model.
public struct ReadingsBreakdown: Sendable, Equatable {
    public var total = ReadingCell()
    public var byTool: [String: ReadingCell] = [:]
    public var byToolModel: [String: [String: ReadingCell]] = [:]
    public var byModel: [String: ReadingCell] = [:]

    public init(_ rows: [BucketRow], _ readings: Readings) {
        for row in rows {
            total.add(row, readings)
            byTool[row.tool, default: ReadingCell()].add(row, readings)
            byToolModel[row.tool, default: [:]][row.model, default: ReadingCell()].add(row, readings)
            byModel[row.model, default: ReadingCell()].add(row, readings)
        }
    }
}

extension CostReading {
    /// The cost in USD as every view shows it: nil when there are tokens and none of them has a cost (unpriced,
    /// never $0), and 0 when there is nothing to cost (a day without events costs nothing).
    public var shownUSD: Double? {
        if hasCost { return usd }
        return uncostedEvents > 0 ? nil : 0
    }
}
