import Foundation

/// The rows of a price file this program found valid before, byte for byte (`PriceTableCache`), each read when first
/// asked for: a view prices the few models it shows, not the hundreds of rows of the table. Reading a row cannot
/// fail: the same program read every row of the same bytes without an error.
final class PriceRows: Sendable {
    private let file: String
    private let document: Locked<Document>

    private struct Document {
        let parser: JSONParser
        let root: JSONRef
        /// Rows read so far, by key; nil for a key that names no priced row.
        var read: [String: ModelPrice?] = [:]
        /// Every row, once asked for.
        var all: (rows: [String: ModelPrice], skipped: Int)?
    }

    init(file: String, parser: sending JSONParser, root: JSONRef) {
        self.file = file
        document = Locked(Document(parser: parser, root: root))
    }

    /// The row `key` names, when it prices a model: the first row written with that key, as a whole read takes it.
    func row(_ key: String) -> ModelPrice? {
        guard PriceTable.isRow(key) else { return nil }
        let file = file
        return document.withLock { document in
            if let known = document.read[key] { return known }
            var price: ModelPrice?
            if case .object(let value)? = document.parser.value(at: JSONPointer([.key(key)]), in: document.root) {
                price = Self.checked { () throws(PriceDataError) in try PriceTable.row(key, value, document.parser, file: file) }
            }
            document.read[key] = price.flatMap { $0.isPriced ? $0 : nil }
            return document.read[key] ?? nil
        }
    }

    /// Every row, as a whole read gives them (for the price listing).
    var all: (rows: [String: ModelPrice], skipped: Int) {
        let file = file
        return document.withLock { document in
            if let all = document.all { return all }
            let all = Self.checked { () throws(PriceDataError) in try PriceTable.rows(of: document.root, document.parser, file: file) }
            document.all = all
            return all
        }
    }

    private static func checked<T>(_ read: () throws(PriceDataError) -> T) -> T {
        do {
            return try read()
        } catch {
            preconditionFailure("\(error), in a price file this program found valid")
        }
    }
}
