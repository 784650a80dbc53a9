import Foundation

/// What the cost readings are computed with, as `prices` shows it: the bundled table and whether its SHA-256
/// matches the file, the overlay and the override, and every model in the store with the price row it
/// resolves to (unpriced models listed with their tokens).
public struct PriceListing: Sendable {
    public struct Model: Sendable {
        public let model: String
        public let tokens: Int64
        public let events: Int64
        /// The row's key and layer; nil when the model has no price.
        public let priceKey: String?
        public let layer: String?
    }

    /// One row of a model whose price changed on a date: a dated row, or the row in force on every other day
    /// (`validFrom` and `validUntil` nil, `undated`).
    public struct DatedRow: Sendable {
        public let key: String
        public let layer: String
        public let validFrom: String?
        public let validUntil: String?
        public let undated: Bool
        public let source: String?
        /// USD per million tokens, input and output.
        public let inputPerMillion: Double?
        public let outputPerMillion: Double?
    }

    public let manifest: PriceManifest?
    /// The rows of every model with dated prices, in key and date order; with `at`, only those in force that day.
    public let datedRows: [DatedRow]
    /// The day `datedRows` was narrowed to (days since 1970-01-01), if any.
    public let at: Int64?
    /// The SHA-256 of the bundled table's file, as read now.
    public let digest: String
    public let bundledRows: Int
    public let overlayRows: Int
    /// Rows of the person's override, and rows it holds without an input and an output price (not used); nil
    /// when there is no override.
    public let override: (rows: Int, skipped: Int)?
    /// Every model in the store, by id.
    public let models: [Model]
    /// What is wrong with the store's sums (`UsageStore.problems`).
    public let storeProblems: [StoreProblem]

    public var digestMatches: Bool { digest == manifest?.sha256 }
    public var unpriced: [Model] { models.filter { $0.priceKey == nil } }

    /// Reads the store at `storePath` as it is (read-only, no scan; no models when there is none).
    public static func read(storePath: String, readings: Readings, at: Int64? = nil) throws(PriceListingError) -> PriceListing {
        var models: [Model] = []
        var problems: [StoreProblem] = []
        do {
            if FileManager.default.fileExists(atPath: storePath) {
                let store = try UsageStore(path: storePath, readOnly: true)
                problems = try store.problems()
                models = try store.modelTotals().map { entry in
                    let resolution = readings.pricer.resolution(of: entry.model)
                    return Model(
                        model: entry.model, tokens: entry.counts.total, events: entry.events, priceKey: resolution?.key,
                        layer: resolution?.layer)
                }
            }
        } catch {
            throw .store(error)
        }
        let bundled = readings.pricingDirectory + "/" + PriceTable.bundledFile
        let digest: String
        do {
            digest = SHA256.hex(try Data(contentsOf: URL(fileURLWithPath: bundled)))
        } catch {
            throw .unreadable(ReadingsUnavailable(message: "\(bundled): cannot be read (\(error.localizedDescription))"))
        }
        let table = readings.table
        return PriceListing(
            manifest: table.manifest, datedRows: datedRows(table, at: at), at: at, digest: digest, bundledRows: table.layer("bundled")?.rows.count ?? 0,
            overlayRows: table.layer("overlay")?.rows.count ?? 0,
            override: table.layer("override").map { (rows: $0.rows.count, skipped: $0.skipped) }, models: models,
            storeProblems: problems)
    }
}

extension PriceListing {
    static func datedRows(_ table: PriceTable, at: Int64?) -> [DatedRow] {
        var rows: [DatedRow] = []
        for layer in table.layers {
            for key in layer.rows.keys.sorted() {
                guard let price = layer.rows[key], !price.dated.isEmpty else { continue }
                func row(_ price: ModelPrice, from: Int64?, until: Int64?, undated: Bool) -> DatedRow {
                    DatedRow(
                        key: key, layer: layer.name, validFrom: from.map(CivilDate.dateString),
                        validUntil: until.map(CivilDate.dateString), undated: undated, source: price.source,
                        inputPerMillion: price.base.input.map { $0 * 1e6 }, outputPerMillion: price.base.output.map { $0 * 1e6 })
                }
                if let at {
                    let dated = price.dated.first { $0.covers(at) }
                    rows.append(
                        dated.map { row($0.price, from: $0.validFrom, until: $0.validUntil, undated: false) }
                            ?? row(price, from: nil, until: nil, undated: true))
                } else {
                    rows += price.dated.map { row($0.price, from: $0.validFrom, until: $0.validUntil, undated: false) }
                    rows.append(row(price, from: nil, until: nil, undated: true))
                }
            }
        }
        return rows
    }
}

public enum PriceListingError: Error {
    case store(StoreError)
    /// The bundled table's file cannot be read to check its digest.
    case unreadable(ReadingsUnavailable)
}
