import UnpromptKit

/// Cost and water of one cell of a view.
struct ReadingCell {
    var cost = CostReading()
    var water = WaterReading()
    /// Tokens of models without a price, by model, for the notes under a table.
    var unpricedTokens: [String: Int64] = [:]

    mutating func add(_ row: BucketRow, _ readings: Readings) {
        let cost = readings.pricer.reading(of: row)
        self.cost += cost
        water += readings.water.reading(row.counts, model: row.model)
        if !cost.unpricedModels.isEmpty { unpricedTokens[row.model, default: 0] += cost.uncostedTokens }
    }
}

/// The readings of one period's buckets, in the same cells as `PeriodUsage`: total, per tool, per tool and
/// model, and per model.
struct ReadingsBreakdown {
    var total = ReadingCell()
    var byTool: [String: ReadingCell] = [:]
    var byToolModel: [String: [String: ReadingCell]] = [:]
    var byModel: [String: ReadingCell] = [:]

    init(_ rows: [BucketRow], _ readings: Readings) {
        for row in rows {
            total.add(row, readings)
            byTool[row.tool, default: ReadingCell()].add(row, readings)
            byToolModel[row.tool, default: [:]][row.model, default: ReadingCell()].add(row, readings)
            byModel[row.model, default: ReadingCell()].add(row, readings)
        }
    }

    static func columns(_ cell: ReadingCell?) -> [String] {
        guard let cell else { return ["", ""] }
        return [ReadingsFormat.text(cell.cost), ReadingsFormat.text(cell.water)]
    }

    static func json(_ cell: ReadingCell) -> [(String, JSON)] {
        [("cost", ReadingsFormat.json(cell.cost)), ("water", ReadingsFormat.json(cell.water))]
    }
}
