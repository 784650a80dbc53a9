import Foundation
import UnpromptKit

/// `prices [--wide] [--columns LIST] [--store PATH] [--json] [--at DATE]`: what the cost readings are computed with (`PriceListing`) — the bundled
/// table's source, date and SHA-256 (checked against the file), the overlay, whether the user's override is
/// in force — and every model in the store with the price row it resolves to; a model without one is listed
/// as unpriced with its tokens; and the dated rows of models whose price changed (with `--at`, the rows in force
/// that day). It reads the store as it is (read-only, no scan); no path is printed.
enum PricesCommand {
    static let columns: [Table.Column] = [
        .label("model"), Table.Column("tokens", "tokens", .essential(1)), Table.Column("events", "events", .optional(2)),
        Table.Column("price-row", "price row", .essential(2), alignment: .left, shortens: true),
        Table.Column("from", "from", .optional(1), alignment: .left),
    ]

    /// The dated rows' table: not one `--columns` chooses from, so it only fits the width.
    static let datedColumns: [Table.Column] = [
        .label("price row"), Table.Column("from", "from", .essential(1), alignment: .left),
        Table.Column("through", "through", .essential(1), alignment: .left), Table.Column("in", "$/M in", .essential(2)),
        Table.Column("out", "$/M out", .essential(2)), Table.Column("source", "source", .optional(1), alignment: .left, shortens: true),
    ]

    static func run(_ arguments: Arguments, environment: [String: String]) throws(UsageError) -> ExitCode {
        let layout = try TableOptions.layout(arguments, environment: environment, columns: UsageTable.ids(columns), view: "prices")
        var at: Int64?
        if let text = arguments.single("--at") {
            guard let day = CivilDate.day(parsing: text) else { throw UsageError("--at: expected a date YYYY-MM-DD, got '\(text)'") }
            at = day
        }
        let path = StoreLocation.path(arguments, environment)
        guard let readings = Readings.open(mode: .calculate, environment: environment) else { return .invalidData }
        let listing: PriceListing
        do {
            listing = try PriceListing.read(storePath: path, readings: readings, at: at)
        } catch {
            switch error {
            case .store(let error): return StoreFailure.report(error)
            case .unreadable(let problem):
                printError("unprompt-scan: \(problem.message)")
                return .invalidData
            }
        }
        print(arguments.has("--json") ? json(listing).text : text(listing, layout: layout))
        return StoreFailure.report(listing.storeProblems) ?? .success
    }

    static func json(_ listing: PriceListing) -> JSON {
        let manifest = listing.manifest
        return .object([
            ("table", .object([
                ("source", manifest.map { .string($0.source) } ?? .null),
                ("upstream", manifest.map { .string($0.upstream) } ?? .null),
                ("date", manifest.map { .string($0.date) } ?? .null),
                ("sha256", manifest.map { .string($0.sha256) } ?? .null),
                ("sha256Matches", .bool(listing.digestMatches)),
                ("rows", .int(listing.bundledRows)),
                ("filter", manifest.map { .string($0.filter) } ?? .null),
            ])),
            ("overlay", .object([("rows", .int(listing.overlayRows))])),
            ("override", .object([
                ("inForce", .bool(listing.override != nil)),
                ("rows", .int(listing.override?.rows ?? 0)),
                ("skippedRows", .int(listing.override?.skipped ?? 0)),
            ])),
            ("models", .array(listing.models.map { line in
                .object([
                    ("model", .string(line.model)), ("tokens", .integer(line.tokens)), ("events", .integer(line.events)),
                    ("priceKey", line.priceKey.map { .string($0) } ?? .null),
                    ("from", line.layer.map { .string($0) } ?? .null),
                ])
            })),
            ("unpriced", .array(listing.unpriced.map { line in
                .object([("model", .string(line.model)), ("tokens", .integer(line.tokens)), ("events", .integer(line.events))])
            })),
            ("at", listing.at.map { .string(CivilDate.dateString(ofDay: $0)) } ?? .null),
            ("datedRows", .array(listing.datedRows.map { row in
                .object([
                    ("priceKey", .string(row.key)), ("from", .string(row.layer)),
                    ("validFrom", row.validFrom.map { .string($0) } ?? .null),
                    ("validUntil", row.validUntil.map { .string($0) } ?? .null), ("otherDays", .bool(row.undated)),
                    ("inputPerMillion", row.inputPerMillion.map { .number($0) } ?? .null),
                    ("outputPerMillion", row.outputPerMillion.map { .number($0) } ?? .null),
                    ("source", row.source.map { .string($0) } ?? .null),
                ])
            })),
        ])
    }

    static func text(_ listing: PriceListing, layout: TableLayout) -> String {
        var lines: [String] = []
        if let manifest = listing.manifest {
            lines.append("price table: \(manifest.source), taken \(manifest.date)")
            lines.append("  from \(manifest.upstream)")
            let check = listing.digestMatches ? "matches the file" : "DOES NOT match the file \(PriceTable.bundledFile)"
            lines.append("  sha256 \(manifest.sha256) (\(check)); \(CountsFormat.grouped(listing.bundledRows)) rows")
        }
        lines.append("overlay: \(CountsFormat.grouped(listing.overlayRows)) hand-written rows (retired ids, missing long-context rates, models LiteLLM lacks), each citing its source")
        if let override = listing.override {
            lines.append("override: in force, \(CountsFormat.grouped(override.rows)) rows" + (override.skipped > 0 ? " (\(override.skipped) without an input and an output price, not used)" : ""))
        } else {
            lines.append("override: none (put prices.json, in this table's format, in the config directory to add or replace rows)")
        }
        lines = Prose.wrap(lines, width: layout.width)
        if !listing.datedRows.isEmpty {
            let day = listing.at.map { " in force on \(CivilDate.dateString(ofDay: $0))" } ?? ""
            lines += Prose.wrap(["dated prices (each day is priced with the row in force that day, UTC)\(day):"], width: layout.width)
            var dated = Table(datedColumns)
            for row in listing.datedRows {
                dated.add([
                    Table.Cell(row.key), Table.Cell(row.undated ? "other days" : row.validFrom ?? ""),
                    Table.Cell(row.undated ? "" : row.validUntil ?? ""),
                    Table.Cell(row.inputPerMillion.map { PriceText.perMillion($0) } ?? ""),
                    Table.Cell(row.outputPerMillion.map { PriceText.perMillion($0) } ?? ""), Table.Cell(row.source ?? ""),
                ])
            }
            var datedLayout = TableLayout(width: layout.width, color: layout.color)
            if layout.columns == .wide { datedLayout.columns = .wide }
            lines += dated.render(datedLayout.indented(by: 2)).map { "  " + $0 }
        }
        guard !listing.models.isEmpty else {
            lines.append("no models in the store yet")
            return lines.joined(separator: "\n")
        }
        var priced = Table(columns)
        for line in listing.models {
            priced.add([
                Table.Cell(line.model), Table.Cell(CountsFormat.grouped(Int(line.tokens)), compact: LocalFormat.compact(line.tokens)),
                Table.Cell(CountsFormat.grouped(Int(line.events))), Table.Cell(line.priceKey ?? "unpriced"), Table.Cell(line.layer ?? ""),
            ])
        }
        lines.append("models in the store:")
        lines += priced.render(layout.indented(by: 2)).map { "  " + $0 }
        let unpriced = listing.unpriced
        if unpriced.isEmpty {
            lines.append("every model in the store has a price")
        } else {
            lines += Prose.wrap(
                ["unpriced (shown as unpriced in every view, their tokens still counted):"]
                    + unpriced.map { "  \($0.model): \(CountsFormat.grouped(Int($0.tokens))) tokens in \(CountsFormat.grouped(Int($0.events))) events" },
                width: layout.width)
        }
        return lines.joined(separator: "\n")
    }
}

/// A rate per million tokens as the price list shows it: up to four decimals, no trailing zeros.
enum PriceText {
    static func perMillion(_ value: Double) -> String {
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
