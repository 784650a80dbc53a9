import Foundation
import UnpromptKit

/// The one way cost and water are written, in text and JSON alike.
enum ReadingsFormat {
    /// `{"usd": number or null, "loggedUSD", "events", "unpricedTokens", "unpricedEvents", "unpricedModels",
    /// "approximateTokens", "estimatedEvents", "assumed", "webSearches", "webFetches"}`; `usd` as `usd(_:)`
    /// writes it; `assumed` names what the calculated cost took as standard (docs/METHOD.md, "Cost").
    static func json(_ cost: CostReading) -> JSON {
        .object([
            ("usd", usd(cost)),
            ("loggedUSD", .number(rounded(cost.loggedUSD))),
            ("events", .integer(cost.costedEvents)),
            ("unpricedTokens", .integer(cost.uncostedTokens)),
            ("unpricedEvents", .integer(cost.uncostedEvents)),
            ("unpricedModels", .array(cost.unpricedModels.sorted().map { .string($0) })),
            ("approximateTokens", .integer(cost.approximateTokens)),
            ("estimatedEvents", .integer(cost.estimatedEvents)),
            ("assumed", assumed(cost)),
            ("webSearches", .integer(cost.serverTools.webSearch)),
            ("webFetches", .integer(cost.serverTools.webFetch)),
        ])
    }

    /// What the cost assumed, in a fixed order.
    static func assumed(_ cost: CostReading) -> JSON {
        .array(cost.assumed.sorted().map { .string($0.rawValue) })
    }

    /// `{"liters": {"low", "central", "high"}, "onSiteLiters": {…}}`.
    static func json(_ water: WaterReading) -> JSON {
        .object([("liters", json(water.liters)), ("onSiteLiters", json(water.onSiteLiters))])
    }

    /// `{"low", "central", "high"}`.
    static func json(_ range: WaterRange) -> JSON {
        .object([
            ("low", .number(rounded(range.low))), ("central", .number(rounded(range.central))),
            ("high", .number(rounded(range.high))),
        ])
    }

    /// `CostReading.shownUSD`: null when there are tokens and none of them has a cost, 0 with nothing to cost.
    static func usd(_ cost: CostReading) -> JSON { cost.shownUSD.map { .number(rounded($0)) } ?? .null }

    /// To the billionth: stable output, and far below any price's precision.
    static func rounded(_ value: Double) -> Double { (value * 1e9).rounded() / 1e9 }

    /// `$12.34`, `~$12.34` when partly approximate, `$12.34 + unpriced` when some tokens have no cost,
    /// `unpriced` when none has.
    static func text(_ cost: CostReading) -> String {
        guard cost.hasCost else { return cost.uncostedEvents > 0 ? "unpriced" : "" }
        var text = (cost.approximateTokens > 0 ? "~" : "") + usd(cost.usd)
        if cost.uncostedEvents > 0 { text += " + unpriced" }
        return text
    }

    /// `text(_:)` in fewer columns: a cost with unpriced tokens beside it is at least its priced part,
    /// `≥$12.34` (`≥~$12.34` when partly approximate).
    static func compact(_ cost: CostReading) -> String {
        guard cost.hasCost, cost.uncostedEvents > 0 else { return text(cost) }
        return "≥" + (cost.approximateTokens > 0 ? "~" : "") + usd(cost.usd)
    }

    static func usd(_ value: Double) -> String {
        if abs(value) >= 1 {
            let cents = Int((value * 100).rounded())
            return "$" + CountsFormat.grouped(cents / 100) + String(format: ".%02d", abs(cents % 100))
        }
        return String(format: "$%.4f", value)
    }

    /// `2.9 L (0.42–13.8)`, in mL below a liter.
    static func text(_ water: WaterReading) -> String {
        let r = water.liters
        guard r.high > 0 else { return "" }
        let scale = r.central < 1 ? 1000.0 : 1
        return central(water) + " (\(number(r.low * scale))–\(number(r.high * scale)))"
    }

    /// The central estimate alone: `2.9 L`, in mL below a liter.
    static func central(_ water: WaterReading) -> String {
        let r = water.liters
        guard r.high > 0 else { return "" }
        let milli = r.central < 1
        return "\(number(r.central * (milli ? 1000 : 1))) \(milli ? "mL" : "L")"
    }

    /// Three significant digits, without an exponent.
    static func number(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        if value == 0 { return "0" }
        let decimals = min(9, max(2, 2 - Int(log10(value).rounded(.down))))
        return String(format: "%.\(decimals)f", value)
    }

    static func bottle(_ level: Double?) -> String { level.map { String(format: "%.0f%%", $0 * 100) } ?? "" }

    /// A cell's cost and water columns (two empty ones without a cell).
    static func columns(_ cell: ReadingCell?) -> [String] {
        guard let cell else { return ["", ""] }
        return [text(cell.cost), text(cell.water)]
    }

    /// A cell's `"cost"` and `"water"` entries.
    static func json(_ cell: ReadingCell) -> [(String, JSON)] {
        [("cost", json(cell.cost)), ("water", json(cell.water))]
    }

    /// Notes under a text table: what `~` and `unpriced` stand for, and the unpriced models with their tokens.
    static func notes(_ cost: CostReading, mode: CostMode, unpricedTokens: [String: Int64]) -> [String] {
        var lines: [String] = []
        if cost.uncostedEvents > 0 {
            if mode == .logged {
                lines.append("no logged cost for \(CountsFormat.grouped(Int(cost.uncostedTokens))) tokens in \(CountsFormat.grouped(Int(cost.uncostedEvents))) events (counted in every token total)")
            } else {
                lines.append("unpriced (no price in the table; `unprompt-scan prices` lists them), counted in every token total:")
                for (model, tokens) in unpricedTokens.sorted(by: { $0.key < $1.key }) {
                    lines.append("  \(model): \(CountsFormat.grouped(Int(tokens))) tokens")
                }
            }
        }
        if cost.approximateTokens > 0 {
            lines.append("~ \(CountsFormat.grouped(Int(cost.approximateTokens))) tokens priced with an assumed rate or context tier (docs/METHOD.md)")
        }
        if cost.estimatedEvents > 0 {
            lines.append("\(CountsFormat.grouped(Int(cost.estimatedEvents))) events' token counts are the tool's own estimate")
        }
        return lines
    }
}
