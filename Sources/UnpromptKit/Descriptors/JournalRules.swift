/// How the lines of a patch journal rebuild one document (a `jsonl` input's `journal`): each line names an
/// operation by a code, a path into the document and a value. The records are then read from the rebuilt
/// document, as from a `json` document.
public struct JournalRules: Sendable {
    /// What a line does to the document.
    public enum Operation: String, Sendable, CaseIterable {
        /// The line's value is the whole document.
        case snapshot
        /// The value is put at the path.
        case set
        /// The value's elements are added to the array at the path, after cutting it to the line's index if it
        /// has one.
        case append
        /// The key at the path is removed.
        case delete
    }

    /// An operation code as a line writes it: a JSON integer or a JSON string (never equal to each other).
    public enum Code: Sendable, Hashable, CustomStringConvertible {
        case integer(Int64)
        case text(String)

        public var description: String {
            switch self {
            case .integer(let value): String(value)
            case .text(let text): "\"\(text)\""
            }
        }
    }

    /// Where each line holds its operation code, its path (a JSON array of keys and indices), its value and
    /// the optional cut index of an append.
    public let operation: FieldPath
    public let path: FieldPath
    public let value: FieldPath
    public let index: FieldPath?
    public let operations: [Code: Operation]
    /// Elements an append's cut removes from an array that a record rule selects are still read, once, as they
    /// were when removed.
    public let keepRemoved: Bool
}
