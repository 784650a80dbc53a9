/// A position in a descriptor or config file, 1-based like a compiler's `file:line:col`.
public struct SourceMark: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    /// The file, when it is not the one being loaded: a block another descriptor declares (`use`).
    public let file: String?

    public init(line: Int, column: Int, file: String? = nil) {
        self.line = line
        self.column = column
        self.file = file
    }

    public var description: String { "\(line):\(column)" }
}

/// Every problem found while loading a descriptor (or the settings file, `UserConfig`): the file, the exact place, and what was expected there.
///
/// `description` is `file:line:col: message`, the shape editors and CI logs turn into links.
public struct DescriptorError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let mark: SourceMark
    public let message: String

    /// `file` is the file being loaded; a mark that names another file (a block it uses) wins.
    public init(file: String, mark: SourceMark, message: String) {
        self.file = mark.file ?? file
        self.mark = mark
        self.message = message
    }

    public var description: String { "\(file):\(mark): \(message)" }
}
