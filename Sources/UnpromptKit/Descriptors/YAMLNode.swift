/// A parsed YAML node that remembers where it stood in the file.
///
/// The tree holds only strings, sequences and mappings: typing scalars (numbers, booleans) is left
/// to the descriptor layer, which can then report a wrong type at `mark`.
public struct YAMLNode: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `plain` is false for quoted or block scalars, so a descriptor can tell the string "true" from the boolean.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([YAMLEntry])   // in file order
    }

    public let kind: Kind
    public let mark: SourceMark        // 1-based line:column of the node's start
}

/// One `key: value` pair of a mapping. Keys are always scalars and unique within their mapping.
public struct YAMLEntry: Sendable, Equatable {
    public let key: String
    public let keyMark: SourceMark
    public let value: YAMLNode
    /// False for a quoted key, whose text may differ from its characters in the file (escapes).
    public let keyIsPlain: Bool

    init(key: String, keyMark: SourceMark, value: YAMLNode, keyIsPlain: Bool = true) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
        self.keyIsPlain = keyIsPlain
    }
}
