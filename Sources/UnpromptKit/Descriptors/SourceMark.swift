/// A position in a descriptor or config file, 1-based like a compiler's `file:line:col`.
public struct SourceMark: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
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

    public init(file: String, mark: SourceMark, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    public var description: String { "\(file):\(mark): \(message)" }
}
