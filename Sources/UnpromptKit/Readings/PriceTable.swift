import Foundation

/// One file of price rows in LiteLLM's format: read whole, or row by row when first asked for (`PriceRows`).
public struct PriceLayer: Sendable {
    /// `override` (the user's file), `overlay` (hand-written rows shipped with the table) or `bundled`.
    public let name: String
    private let read: Read

    private enum Read: Sendable {
        case whole([String: ModelPrice], skipped: Int)
        case byRow(PriceRows)
    }

    public init(name: String, rows: [String: ModelPrice], skipped: Int = 0) {
        self.name = name
        read = .whole(rows, skipped: skipped)
    }

    init(name: String, rows: PriceRows) {
        self.name = name
        read = .byRow(rows)
    }

    public var rows: [String: ModelPrice] {
        switch read {
        case .whole(let rows, _): rows
        case .byRow(let rows): rows.all.rows
        }
    }

    /// Rows without both an input and an output rate (not prices of a text model), left out.
    public var skipped: Int {
        switch read {
        case .whole(_, let skipped): skipped
        case .byRow(let rows): rows.all.skipped
        }
    }

    /// The row `key` names, when it prices a model.
    func row(_ key: String) -> ModelPrice? {
        switch read {
        case .whole(let rows, _): rows[key]
        case .byRow(let rows): rows.row(key)
        }
    }
}

/// Where the bundled table came from, as `pricing/manifest.json` records it.
public struct PriceManifest: Sendable, Equatable {
    public let source: String
    public let upstream: String
    public let date: String
    public let sha256: String
    public let bytes: Int
    public let entries: Int
    public let filter: String
}

/// How a logged model id was matched to a price row.
public struct PriceResolution: Sendable {
    public let key: String
    public let layer: String
    public let price: ModelPrice
    /// The id carried a speed suffix (`-fast`).
    public let fast: Bool
}

/// The price table: a user's override file, then the overlay, then the bundled LiteLLM rows.
///
/// A model id is matched by `ModelNormalizer.candidates`, most specific first. The user's file is asked first
/// for every candidate, so its row for `claude-sonnet-4-5` also prices `claude-sonnet-4-5-20250929`. Then,
/// for each candidate, the overlay and the bundled table in that order: an exact id beats a normalized one,
/// and for the same key the overlay's row beats the bundled one. A row is taken whole (fields are not merged
/// across layers).
/// Nothing is ever fetched: the table is what the files hold.
public struct PriceTable: Sendable {
    public let layers: [PriceLayer]
    /// Logged id (lower case) → price key.
    public let aliases: [String: String]
    public let manifest: PriceManifest?

    public init(layers: [PriceLayer], aliases: [String: String] = [:], manifest: PriceManifest? = nil) {
        self.layers = layers
        self.aliases = aliases
        self.manifest = manifest
    }

    public func resolve(_ model: String) -> PriceResolution? {
        let candidates = ModelNormalizer.candidates(model, aliases: aliases)
        // The user's rows first, for every candidate: a row for `claude-sonnet-4-5` also prices its dated ids.
        for layer in layers where layer.name == "override" {
            if let found = find(candidates, in: [layer]) { return found }
        }
        return find(candidates, in: layers.filter { $0.name != "override" })
    }

    private func find(_ candidates: [ModelNormalizer.Candidate], in layers: [PriceLayer]) -> PriceResolution? {
        for candidate in candidates {
            for layer in layers {
                if let price = layer.row(candidate.key) {
                    return PriceResolution(key: candidate.key, layer: layer.name, price: price, fast: candidate.fast)
                }
            }
        }
        return nil
    }

    public func layer(_ name: String) -> PriceLayer? { layers.first { $0.name == name } }

    // MARK: Loading

    /// The files of a pricing directory: `litellm-prices.json` with its `manifest.json`, `overlay.json`
    /// and `aliases.json`.
    public static let bundledFile = "litellm-prices.json"

    /// Loads the pricing directory and, when given, the user's override file (same format as the table).
    /// A file that is missing (other than the override), not JSON, or holds a row whose price fields are
    /// not prices is refused with an error naming the file, the row and the field. With a `cache`, an overlay and
    /// a bundled table this program found valid before, byte for byte, are not checked again: their rows are read
    /// when first asked for (`PriceRows`). The override is checked whole every time.
    public static func load(directory: String, override: String?, cache: PriceTableCache? = nil) throws(PriceDataError)
        -> PriceTable
    {
        var layers: [PriceLayer] = []
        if let override, FileManager.default.fileExists(atPath: override) {
            layers.append(try layer("override", file: override))
        }
        var shipped: [(name: String, file: String, data: Data)] = []
        for (name, file) in [("overlay", directory + "/overlay.json"), ("bundled", directory + "/" + bundledFile)] {
            shipped.append((name, file, try contents(of: file)))
        }
        let key = cache?.key(of: shipped.map(\.data))
        let known = key.flatMap { cache?.knows($0) } ?? false
        for (name, file, data) in shipped {
            let (parser, root) = try document(data, file: file)
            if known {
                layers.append(PriceLayer(name: name, rows: PriceRows(file: file, parser: parser, root: root)))
            } else {
                let (rows, skipped) = try Self.rows(of: root, parser, file: file)
                layers.append(PriceLayer(name: name, rows: rows, skipped: skipped))
            }
        }
        if !known, let cache, let key { cache.remember(key) }
        return PriceTable(
            layers: layers, aliases: try aliases(at: directory + "/aliases.json"),
            manifest: try manifest(at: directory + "/manifest.json"))
    }

    static func object(at path: String) throws(PriceDataError) -> [String: Any] {
        let (parser, root) = try document(at: path)
        guard let object = parser.foundationValue(of: root) as? [String: Any] else {
            throw PriceDataError(file: path, message: "must hold a JSON object")
        }
        return object
    }

    static func contents(of path: String) throws(PriceDataError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PriceDataError(file: path, message: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// A JSON file, parsed (simdjson, not JSONSerialization: every view loads the table).
    static func document(at path: String) throws(PriceDataError) -> (JSONParser, JSONRef) {
        try document(try contents(of: path), file: path)
    }

    static func document(_ data: Data, file: String) throws(PriceDataError) -> (JSONParser, JSONRef) {
        let parser = JSONParser()
        switch data.withUnsafeBytes({ bytes in Result { () throws(JSONParseError) in try parser.parse(copying: bytes) } }) {
        case .success(let root): return (parser, root)
        case .failure(let error): throw PriceDataError(file: file, message: "is not valid JSON: \(error)")
        }
    }

    /// The rows of a LiteLLM-format file.
    static func layer(_ name: String, file: String) throws(PriceDataError) -> PriceLayer {
        let (parser, root) = try document(at: file)
        let (rows, skipped) = try Self.rows(of: root, parser, file: file)
        return PriceLayer(name: name, rows: rows, skipped: skipped)
    }

    /// The rows of a parsed file, and how many of them price no text model; `sample_spec` and keys starting with
    /// `_` (comments) are skipped. Each row is read from the document as it is, with no value of a field that is
    /// not a price made.
    static func rows(of root: JSONRef, _ parser: JSONParser, file: String) throws(PriceDataError)
        -> (rows: [String: ModelPrice], skipped: Int)
    {
        guard case .object = parser.value(of: root) else { throw PriceDataError(file: file, message: "must hold a JSON object") }
        var rows: [String: ModelPrice] = [:]
        var skipped = 0
        for (keyBytes, value) in PriceFields(root, parser).entries {
            let key = String(decoding: keyBytes, as: UTF8.self)
            guard isRow(key) else { continue }
            let price = try row(key, value, parser, file: file)
            if price.isPriced { rows[key] = price } else { skipped += 1 }
        }
        return (rows, skipped)
    }

    /// Whether a key of a price file names a row: `sample_spec` (LiteLLM's example) and `_…` (comments) do not.
    static func isRow(_ key: String) -> Bool { key != "sample_spec" && !key.hasPrefix("_") }

    /// The row `key` names, `value` of `parser`'s document; refused when it is not one.
    static func row(_ key: String, _ value: JSONRef, _ parser: JSONParser, file: String) throws(PriceDataError) -> ModelPrice {
        guard case .object = parser.value(of: value) else {
            throw PriceDataError(file: file, message: "row '\(key)' must be an object of fields")
        }
        do {
            return try ModelPrice(key: key, row: value, in: parser)
        } catch {
            throw PriceDataError(file: file, message: "row '\(key)', field '\(error.field)': expected \(error.expected)")
        }
    }

    static func aliases(at path: String) throws(PriceDataError) -> [String: String] {
        guard let entries = try object(at: path)["aliases"] as? [String: Any] else {
            throw PriceDataError(file: path, message: "must hold an object \"aliases\"")
        }
        var result: [String: String] = [:]
        for (id, entry) in entries {
            guard let key = (entry as? [String: Any])?["key"] as? String else {
                throw PriceDataError(file: path, message: "alias '\(id)' must be an object with a \"key\"")
            }
            result[id.lowercased()] = key
        }
        return result
    }

    public static func manifest(at path: String) throws(PriceDataError) -> PriceManifest {
        let object = try object(at: path)
        func text(_ field: String) throws(PriceDataError) -> String {
            guard let value = object[field] as? String else {
                throw PriceDataError(file: path, message: "field '\(field)' must be a string")
            }
            return value
        }
        func count(_ field: String) throws(PriceDataError) -> Int {
            guard let value = object[field].flatMap(ModelPrice.number), value >= 0, value == value.rounded() else {
                throw PriceDataError(file: path, message: "field '\(field)' must be a whole number")
            }
            return Int(value)
        }
        return PriceManifest(
            source: try text("source"), upstream: try text("upstream"), date: try text("date"),
            sha256: try text("sha256"), bytes: try count("bytes"), entries: try count("entries"),
            filter: try text("filter"))
    }
}

/// A price or water data file that cannot be used; `file` is the path it was read from.
public struct PriceDataError: Error, CustomStringConvertible {
    public let file: String
    public let message: String

    public var description: String { "\(file): \(message)" }
}
