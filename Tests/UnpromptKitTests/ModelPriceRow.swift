import Foundation

@testable import UnpromptKit

extension ModelPrice {
    /// A row the tests write as a dictionary literal, read as the table reads a row: from its JSON text.
    init(key: String, row: [String: Any]) throws {
        let text = try JSONSerialization.data(withJSONObject: row)
        let parser = JSONParser()
        let root = try text.withUnsafeBytes { bytes in try parser.parse(copying: bytes) }
        try self.init(key: key, row: root, in: parser)
    }
}
