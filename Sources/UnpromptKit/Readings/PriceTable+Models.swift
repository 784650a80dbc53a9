import Foundation

/// The price table read for a few models only, for a view that runs many times a minute (the status line):
/// each file is parsed as a whole (simdjson, well under a millisecond), but only the rows the models' candidate
/// keys name become price rows, so those models resolve to exactly the rows, and prices, of the whole table.
/// A row that is not a price is refused as the whole table refuses it, when it is one of those rows; the
/// other rows are not checked here (every other view checks them all, or reads a table checked whole before,
/// `PriceTableCache`).
extension PriceTable {
    public static func load(directory: String, override: String?, models: Set<String>) throws(PriceDataError) -> PriceTable {
        let aliases = try aliases(at: directory + "/aliases.json")
        let keys = Set(models.flatMap { ModelNormalizer.candidates($0, aliases: aliases).map(\.key) })
        var layers: [PriceLayer] = []
        if let override, FileManager.default.fileExists(atPath: override) {
            layers.append(try layer("override", file: override, keys: keys))
        }
        layers.append(try layer("overlay", file: directory + "/overlay.json", keys: keys))
        layers.append(try layer("bundled", file: directory + "/" + bundledFile, keys: keys))
        return PriceTable(layers: layers, aliases: aliases, manifest: try manifest(at: directory + "/manifest.json"))
    }

    /// The rows of `file` whose keys are among `keys`, each found by its key (the first row written with it, as a
    /// whole read takes it), with no other row read.
    static func layer(_ name: String, file: String, keys: Set<String>) throws(PriceDataError) -> PriceLayer {
        let (parser, root) = try document(at: file)
        guard case .object = parser.value(of: root) else { throw PriceDataError(file: file, message: "must hold a JSON object") }
        var rows: [String: ModelPrice] = [:]
        for key in keys where isRow(key) {
            guard let found = parser.value(at: JSONPointer([.key(key)]), in: root) else { continue }
            guard case .object(let value) = found else {
                throw PriceDataError(file: file, message: "row '\(key)' must be an object of fields")
            }
            let price = try row(key, value, parser, file: file)
            if price.isPriced { rows[key] = price }
        }
        return PriceLayer(name: name, rows: rows)
    }
}
