import Foundation
import UnpromptKit

/// `daily --csv` and `monthly --csv`: the periods of a `PeriodReport` in RFC 4180 CSV, one row per period, tool
/// and model (so every column sums to the period's and the view's totals), with a header row. Rows end with
/// CRLF; text fields are always quoted (a quote inside doubled), numbers never. A cost without a price is an
/// empty field (unpriced, never $0), with its tokens in `unpriced_tokens`.
enum PeriodCSV {
    static func header(_ period: LocalCalendar.Period) -> [String] {
        [
            period == .day ? "date" : "month", "tool", "model", "input", "output", "cache_read", "cache_write_5m",
            "cache_write_1h", "cache_write_12h", "reasoning", "total", "events", "cost_usd", "unpriced_tokens", "water_liters_low",
            "water_liters_central", "water_liters_high",
        ]
    }

    static func text(_ report: PeriodReport) -> String {
        var table = CSVTable(header: header(report.period))
        for entry in report.entries {
            let usage = entry.usage
            let label = report.period == .day
                ? CivilDate.dateString(ofDay: usage.period) : CivilDate.monthString(ofMonth: usage.period)
            for tool in usage.byTool.keys.sorted() {
                for (model, cell) in usage.byTool[tool]!.sorted(by: { $0.key < $1.key }) {
                    let readings = entry.readings.byToolModel[tool]?[model] ?? ReadingCell()
                    let counts = cell.counts
                    let water = readings.water.liters
                    table.add(
                        [.text(label), .text(tool), .text(model)]
                            + CountsFormat.fields(counts).map(CSVTable.Field.integer)
                            + [
                                .integer(counts.total), .integer(cell.events),
                                readings.cost.shownUSD.map(CSVTable.Field.decimal) ?? .empty,
                                .integer(readings.cost.uncostedTokens), .decimal(water.low), .decimal(water.central),
                                .decimal(water.high),
                            ])
                }
            }
        }
        return table.text
    }
}

/// Rows in RFC 4180 CSV.
struct CSVTable {
    enum Field {
        case text(String)
        case integer(Int64)
        /// Written to the billionth, without an exponent or trailing zeros.
        case decimal(Double)
        case empty
    }

    private var lines: [String]

    init(header: [String]) { lines = [header.map { Self.quoted($0) }.joined(separator: ",")] }

    mutating func add(_ fields: [Field]) {
        lines.append(
            fields.map { field in
                switch field {
                case .text(let text): Self.quoted(text)
                case .integer(let value): String(value)
                case .decimal(let value): Self.decimal(value)
                case .empty: ""
                }
            }.joined(separator: ","))
    }

    /// Every row, each ended with CRLF.
    var text: String { lines.map { $0 + "\r\n" }.joined() }

    static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.9f", ReadingsFormat.rounded(value))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
