import Foundation
import UnpromptKit

/// `prices [--wide] [--columns LIST] [--store PATH] [--json]`: what the cost readings are computed with (`PriceListing`) — the bundled
/// table's source, date and SHA-256 (checked against the file), the overlay, whether the user's override is
/// in force — and every model in the store with the price row it resolves to; a model without one is listed
/// as unpriced with its tokens. It reads the store as it is (read-only, no scan); no path is printed.
enum PricesCommand {
    static let columns: [Table.Column] = [
        .label("model"), Table.Column("tokens", "tokens", .essential(1)), Table.Column("events", "events", .optional(2)),
        Table.Column("price-row", "price row", .essential(2), alignment: .left, shortens: true),
        Table.Column("from", "from", .optional(1), alignment: .left),
    ]

    static func run(_ arguments: Arguments, environment: [String: String]) throws(UsageError) -> ExitCode {
        let layout = try TableOptions.layout(arguments, environment: environment, columns: UsageTable.ids(columns), view: "prices")
        let path = StoreLocation.path(arguments, environment)
        guard let readings = Readings.open(mode: .calculate, environment: environment) else { return .invalidData }
        let listing: PriceListing
        do {
            listing = try PriceListing.read(storePath: path, readings: readings)
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
