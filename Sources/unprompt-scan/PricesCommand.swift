import Foundation
import UnpromptKit

/// `prices [--store PATH] [--json]`: what the cost readings are computed with — the bundled table's source,
/// date and SHA-256 (checked against the file), the overlay, whether the user's override is in force — and
/// every model in the store with the price row it resolves to; a model without one is listed as unpriced with
/// its tokens. It reads the store as it is (read-only, no scan); no path is printed.
enum PricesCommand {
    struct ModelLine {
        let model: String
        let tokens: Int64
        let events: Int64
        let resolution: PriceResolution?
    }

    static func run(_ arguments: Arguments, environment: [String: String]) throws(UsageError) -> ExitCode {
        if arguments.words.count > 1 { throw UsageError("prices takes no argument '\(arguments.words[1])'") }
        let path = try StoreLocation.path(arguments, environment)
        let readings: Readings
        do {
            readings = try Readings.load(mode: .calculate, environment: environment)
        } catch {
            printError("unprompt-scan: \(error.message)")
            return .invalidData
        }
        var models: [ModelLine] = []
        do {
            if FileManager.default.fileExists(atPath: path) {
                models = try UsageStore(path: path, readOnly: true).modelTotals().map { entry in
                    ModelLine(
                        model: entry.model, tokens: entry.counts.total, events: entry.events,
                        resolution: readings.pricer.resolution(of: entry.model))
                }
            }
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        let bundled = readings.pricingDirectory + "/" + PriceTable.bundledFile
        let digest: String
        do {
            digest = SHA256.hex(try Data(contentsOf: URL(fileURLWithPath: bundled)))
        } catch {
            printError("unprompt-scan: \(bundled): cannot be read (\(error.localizedDescription))")
            return .invalidData
        }
        if arguments.has("--json") {
            print(json(readings, digest: digest, models: models).text)
        } else {
            print(text(readings, digest: digest, models: models))
        }
        return .success
    }

    static func json(_ readings: Readings, digest: String, models: [ModelLine]) -> JSON {
        let manifest = readings.table.manifest
        let table = readings.table
        return .object([
            ("table", .object([
                ("source", manifest.map { .string($0.source) } ?? .null),
                ("upstream", manifest.map { .string($0.upstream) } ?? .null),
                ("date", manifest.map { .string($0.date) } ?? .null),
                ("sha256", manifest.map { .string($0.sha256) } ?? .null),
                ("sha256Matches", .bool(digest == manifest?.sha256)),
                ("rows", .int(table.layer("bundled")?.rows.count ?? 0)),
                ("filter", manifest.map { .string($0.filter) } ?? .null),
            ])),
            ("overlay", .object([("rows", .int(table.layer("overlay")?.rows.count ?? 0))])),
            ("override", .object([
                ("inForce", .bool(table.layer("override") != nil)),
                ("rows", .int(table.layer("override")?.rows.count ?? 0)),
                ("skippedRows", .int(table.layer("override")?.skipped ?? 0)),
            ])),
            ("models", .array(models.map { line in
                .object([
                    ("model", .string(line.model)), ("tokens", .integer(line.tokens)), ("events", .integer(line.events)),
                    ("priceKey", line.resolution.map { .string($0.key) } ?? .null),
                    ("from", line.resolution.map { .string($0.layer) } ?? .null),
                ])
            })),
            ("unpriced", .array(models.filter { $0.resolution == nil }.map { line in
                .object([("model", .string(line.model)), ("tokens", .integer(line.tokens)), ("events", .integer(line.events))])
            })),
        ])
    }

    static func text(_ readings: Readings, digest: String, models: [ModelLine]) -> String {
        let table = readings.table
        var lines: [String] = []
        if let manifest = table.manifest {
            lines.append("price table: \(manifest.source), taken \(manifest.date)")
            lines.append("  from \(manifest.upstream)")
            let check = digest == manifest.sha256 ? "matches the file" : "DOES NOT match the file \(PriceTable.bundledFile)"
            lines.append("  sha256 \(manifest.sha256) (\(check)); \(CountsFormat.grouped(table.layer("bundled")?.rows.count ?? 0)) rows")
        }
        lines.append("overlay: \(CountsFormat.grouped(table.layer("overlay")?.rows.count ?? 0)) hand-written rows (retired ids, missing long-context rates), each citing its source")
        if let override = table.layer("override") {
            lines.append("override: in force, \(CountsFormat.grouped(override.rows.count)) rows" + (override.skipped > 0 ? " (\(override.skipped) without an input and an output price, not used)" : ""))
        } else {
            lines.append("override: none (put prices.json, in this table's format, in the config directory to add or replace rows)")
        }
        guard !models.isEmpty else {
            lines.append("no models in the store yet")
            return lines.joined(separator: "\n")
        }
        var priced = TextTable(header: ["model", "tokens", "events", "price row", "from"])
        for line in models {
            priced.add([
                line.model, CountsFormat.grouped(Int(line.tokens)), CountsFormat.grouped(Int(line.events)),
                line.resolution?.key ?? "unpriced", line.resolution?.layer ?? "",
            ])
        }
        lines.append("models in the store:")
        lines += priced.render().map { "  " + $0 }
        let unpriced = models.filter { $0.resolution == nil }
        if unpriced.isEmpty {
            lines.append("every model in the store has a price")
        } else {
            lines.append("unpriced (shown as unpriced in every view, their tokens still counted):")
            for line in unpriced {
                lines.append("  \(line.model): \(CountsFormat.grouped(Int(line.tokens))) tokens in \(CountsFormat.grouped(Int(line.events))) events")
            }
        }
        return lines.joined(separator: "\n")
    }
}
