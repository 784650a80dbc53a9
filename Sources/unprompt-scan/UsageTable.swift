import UnpromptKit

/// The columns of every usage table (`daily`, `weekly`, `monthly`, `today`'s tools, the dry run) and their
/// cells: the label, the seven counts, the total, events, cost and water; a view adds its own after them.
enum UsageTable {
    static let counts: [Table.Column] = [
        ("input", "input"), ("output", "output"), ("cache-read", "cache read"), ("cache-write-5m", "cache write 5m"),
        ("cache-write-1h", "cache write 1h"), ("cache-write-12h", "cache write 12h"), ("reasoning", "reasoning"),
    ].map { Table.Column($0.0, $0.1, .optional(8)) }
    static let total = Table.Column("total", "total", .essential(1))
    static let events = Table.Column("events", "events", .optional(7))
    static let cost = Table.Column("cost", "cost", .essential(2))
    static let water = Table.Column("water", "water", .essential(3))
    /// Where the total's cell is in a line of `cells`.
    static let totalColumn = 1 + counts.count

    /// The label, the counts, the total, events (when counted) and the readings.
    static func columns(_ label: String, events: Bool = true) -> [Table.Column] {
        [.label(label)] + counts + [total] + (events ? [self.events] : []) + [cost, water]
    }

    /// Every column but the label, as `--columns` names them.
    static func ids(_ columns: [Table.Column]) -> [String] { columns.dropFirst().map(\.id) }

    /// One line: its counts (and events, when given), then its cost and water (empty without a cell).
    static func cells(_ label: String, _ counts: TokenCounts, events: Int64?, _ readings: ReadingCell?) -> [Table.Cell] {
        [Table.Cell(label)] + CountsFormat.columns(counts).map { Table.Cell($0) }
            + [Table.Cell(CountsFormat.grouped(Int(counts.total)), compact: LocalFormat.compact(counts.total))]
            + (events.map { [Table.Cell(CountsFormat.grouped(Int($0)))] } ?? [])
            + [
                Table.Cell(readings.map { ReadingsFormat.text($0.cost) } ?? "", compact: readings.map { ReadingsFormat.compact($0.cost) }),
                Table.Cell(readings.map { ReadingsFormat.text($0.water) } ?? "", compact: readings.map { ReadingsFormat.central($0.water) }),
            ]
    }

    static func cells(_ label: String, _ cell: UsageCell, _ readings: ReadingCell?) -> [Table.Cell] {
        cells(label, cell.counts, events: cell.events, readings)
    }

    /// One line per tool of `usage` and, under each, one per model.
    static func addBreakdown(_ usage: PeriodUsage, to table: inout Table, indent: String, readings: ReadingsBreakdown) {
        for tool in usage.byTool.keys.sorted() {
            table.add(cells(indent + tool, usage.total(ofTool: tool), readings.byTool[tool]))
            for (model, cell) in usage.byTool[tool]!.sorted(by: { $0.key < $1.key }) {
                table.add(cells(indent + "  " + model, cell, readings.byToolModel[tool]?[model]))
            }
        }
    }
}
