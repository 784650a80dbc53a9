import UnpromptKit

/// How one period (or today) is shown: the same rows and keys in every view.
enum UsageView {
    static func header(_ first: String) -> [String] {
        [first, "input", "output", "cache read", "cache write 5m", "cache write 1h", "reasoning", "total", "events"]
    }

    static func row(_ label: String, _ cell: UsageCell) -> [String] {
        [label] + CountsFormat.columns(cell.counts) + [CountsFormat.grouped(Int(cell.counts.total)), CountsFormat.grouped(Int(cell.events))]
    }

    /// The period's line, then one line per tool and, under it, one per model; with `readings`, each line
    /// ends with its cost and water (and the period's line with `periodColumns`).
    static func add(
        _ usage: PeriodUsage, label: String, to table: inout TextTable, indent: String = "  ",
        readings: ReadingsBreakdown? = nil, periodColumns: [String] = []
    ) {
        table.add(row(label, usage.total) + (readings.map { ReadingsFormat.columns($0.total) + periodColumns } ?? []))
        addBreakdown(usage, to: &table, indent: indent, readings: readings)
    }

    static func addBreakdown(_ usage: PeriodUsage, to table: inout TextTable, indent: String, readings: ReadingsBreakdown? = nil) {
        for tool in usage.byTool.keys.sorted() {
            let toolReadings = readings.map { ReadingsFormat.columns($0.byTool[tool]) } ?? []
            table.add(row(indent + tool, usage.total(ofTool: tool)) + toolReadings)
            for (model, cell) in usage.byTool[tool]!.sorted(by: { $0.key < $1.key }) {
                let modelReadings = readings.map { ReadingsFormat.columns($0.byToolModel[tool]?[model]) } ?? []
                table.add(row(indent + "  " + model, cell) + modelReadings)
            }
        }
    }

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
