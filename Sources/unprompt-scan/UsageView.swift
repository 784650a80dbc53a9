import UnpromptKit

/// How one period (or today) is written in JSON: the same keys in every view (`UsageTable` has its text).
enum UsageView {
    /// `{label, "totals", "events", "byModel": {model: counts}, "byTool": {tool: {"totals", "events",
    /// "byModel"}}}`: counts objects have exactly the dry run's six keys. With `readings`, the period and each
    /// tool also have `"cost"` and `"water"`, and `"costByModel"` / `"waterByModel"` beside `"byModel"`;
    /// `bottle` adds `"bottleLevel"`.
    static func json(_ usage: PeriodUsage, label: (String, String)?, readings: ReadingsBreakdown? = nil, bottle: JSON? = nil) -> JSON {
        var entries: [(String, JSON)] = []
        if let label { entries.append((label.0, .string(label.1))) }
        entries += [("totals", CountsFormat.json(usage.total.counts)), ("events", .integer(usage.total.events))]
        if let readings { entries += ReadingsFormat.json(readings.total) }
        if let bottle { entries.append(("bottleLevel", bottle)) }
        entries.append(("byModel", byModel(usage.byModel)))
        if let readings { entries += readingsByModel(readings.byModel, models: usage.byModel.keys) }
        entries.append(("byTool", .object(usage.byTool.keys.sorted().map { tool in
            let total = usage.total(ofTool: tool)
            var fields: [(String, JSON)] = [("totals", CountsFormat.json(total.counts)), ("events", .integer(total.events))]
            if let cell = readings?.byTool[tool] { fields += ReadingsFormat.json(cell) }
            fields.append(("byModel", byModel(usage.byTool[tool]!)))
            if let models = readings?.byToolModel[tool] { fields += readingsByModel(models, models: usage.byTool[tool]!.keys) }
            return (tool, .object(fields))
        })))
        return .object(entries)
    }

    private static func readingsByModel(_ cells: [String: ReadingCell], models: some Sequence<String>) -> [(String, JSON)] {
        let names = models.sorted()
        return [
            ("costByModel", .object(names.compactMap { name in cells[name].map { (name, ReadingsFormat.json($0.cost)) } })),
            ("waterByModel", .object(names.compactMap { name in cells[name].map { (name, ReadingsFormat.json($0.water)) } })),
        ]
    }

    private static func byModel(_ cells: [String: UsageCell]) -> JSON {
        .object(cells.sorted { $0.key < $1.key }.map { ($0.key, CountsFormat.json($0.value.counts)) })
    }
}
