import Foundation

/// The price table read for a few models only, for a view that runs many times a minute (the status line):
/// each file is parsed as a whole (simdjson, well under a millisecond), but only the rows the models' candidate
/// keys name become price rows, so those models resolve to exactly the rows, and prices, of the whole table.
/// A row that is not a price is refused as the whole table refuses it, when it is one of those rows; the
/// other rows are not checked here (every other view loads them all).
extension PriceTable {
    public static func load(directory: String, override: String?, models: Set<String>) throws(PriceDataError) -> PriceTable {
        let aliases = try aliases(at: directory + "/aliases.json")
        let keys = Set(models.flatMap { ModelNormalizer.candidates($0, aliases: aliases).map(\.key) })
        var layers: [PriceLayer] = []
        if let override, FileManager.default.fileExists(atPath: override) {
            layers.append(try layer("override", file: override, wanted: keys.contains))
        }
        layers.append(try layer("overlay", file: directory + "/overlay.json", wanted: keys.contains))
        layers.append(try layer("bundled", file: directory + "/" + bundledFile, wanted: keys.contains))
        return PriceTable(layers: layers, aliases: aliases, manifest: try manifest(at: directory + "/manifest.json"))
    }
}
