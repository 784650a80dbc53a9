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
    /// For a scalar written on one line whose characters are its value's, one for one (plain, or quoted without
    /// escapes): where its first character is, so an error can point inside it.
    public let exactStart: SourceMark?

    public init(kind: Kind, mark: SourceMark, exactStart: SourceMark? = nil) {
        self.kind = kind
        self.mark = mark
        self.exactStart = exactStart
    }
}

/// One `key: value` pair of a mapping. Keys are always scalars and unique within their mapping.
public struct YAMLEntry: Sendable, Equatable {
    public let key: String
    public let keyMark: SourceMark
    public let value: YAMLNode
    /// False for a quoted key, whose text may differ from its characters in the file (escapes).
    public let keyIsPlain: Bool
    /// See `YAMLNode.exactStart`.
    public let keyExactStart: SourceMark?

    init(key: String, keyMark: SourceMark, value: YAMLNode, keyIsPlain: Bool = true, keyExactStart: SourceMark? = nil) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
        self.keyIsPlain = keyIsPlain
        self.keyExactStart = keyExactStart
    }

    /// The key as a node, for keys that are paths (conditions, lookups), so an error can point inside it.
    public var keyNode: YAMLNode {
        YAMLNode(kind: .scalar(key, plain: keyIsPlain), mark: keyMark, exactStart: keyExactStart)
    }
}
