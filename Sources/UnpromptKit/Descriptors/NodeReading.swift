import Foundation

/// Reads a YAML mapping key by key, through its section's table of keys (`KeySection`), and refuses keys the
/// table does not list. Asking for a key the table does not list is a programming error.
///
/// Every accessor throws a `DescriptorError` at the node that is wrong, saying what was expected there; an error
/// about a key's value quotes the key's help.
final class MappingReader {
    let file: String
    let node: YAMLNode
    let context: String
    let section: KeySection
    private let entries: [YAMLEntry]
    /// The keys asked for, so a test can check that none is allowed without being read (`KeyReadLog`).
    private(set) var asked = Set<String>()

    /// `context` names the mapping in messages when the section's title is not precise enough (`tokens.input`).
    /// With `blocks`, a key `use` stands for the keys of the blocks it names (`DescriptorBlocks`).
    init(
        _ node: YAMLNode, file: String, section: KeySection, context: String? = nil, log: KeyReadLog? = nil,
        blocks: DescriptorBlocks? = nil
    ) throws(DescriptorError) {
        let context = context ?? section.title
        guard case .mapping(let written) = node.kind else {
            throw DescriptorError(file: file, mark: node.mark, message: "\(context) must be a mapping")
        }
        var entries: [YAMLEntry] = []
        for entry in written {
            if entry.key == "use", let blocks { entries += try blocks.entries(usedBy: entry) } else { entries.append(entry) }
        }
        if blocks != nil, written.contains(where: { $0.key == "use" }) {
            var first: [String: YAMLEntry] = [:]
            for entry in entries {
                if let earlier = first[entry.key] {
                    let place = { (mark: SourceMark) in (mark.file.map { $0 + ":" } ?? "") + mark.description }
                    throw DescriptorError(
                        file: file, mark: node.mark,
                        message: "'\(entry.key)' is given twice in \(context), at \(place(earlier.keyMark)) and at \(place(entry.keyMark)) (through use); a block's keys are not overridden")
                }
                first[entry.key] = entry
            }
        }
        for entry in entries where section[entry.key] == nil {
            var message = "unknown key '\(entry.key)' in \(context); expected one of: \(section.names.joined(separator: ", "))"
            if let near = section.nearest(to: entry.key) { message += " (did you mean '\(near.name)': \(near.help)?)" }
            throw DescriptorError(file: file, mark: entry.keyMark, message: message)
        }
        self.file = file
        self.node = node
        self.context = context
        self.section = section
        self.entries = entries
        log?.readers.append(self)
    }

    /// The keys the mapping holds.
    var present: [String] { entries.map(\.key) }

    func optional(_ key: String) -> YAMLNode? {
        precondition(section[key] != nil, "'\(key)' is not a key of the \(section.id) section")
        asked.insert(key)
        return entries.first { $0.key == key }?.value
    }

    /// The key's value read by `read`, or nil when the key is absent.
    func optional<T>(_ key: String, _ read: (YAMLNode) throws(DescriptorError) -> T) throws(DescriptorError) -> T? {
        guard let node = optional(key) else { return nil }
        return try read(node)
    }

    func required(_ key: String) throws(DescriptorError) -> YAMLNode {
        guard let value = optional(key) else {
            throw DescriptorError(
                file: file, mark: node.mark,
                message: "\(context) is missing the required key '\(key)' (\(key): \(section[key]!.help))")
        }
        return value
    }

    /// An error at `node`; when `node` is the value of one of the mapping's keys, the message quotes its help.
    func error(_ node: YAMLNode, _ message: String) -> DescriptorError {
        DescriptorError(file: file, mark: node.mark, message: message + help(of: node))
    }

    /// ` (key: help)` for the key whose value `node` is, else nothing.
    private func help(of node: YAMLNode) -> String {
        guard let entry = entries.first(where: { $0.value.mark == node.mark }), let key = section[entry.key] else { return "" }
        return " (\(key.name): \(key.help))"
    }

    func string(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> String {
        guard case .scalar(let text, _) = node.kind else { throw error(node, "\(what) must be a string") }
        return text
    }

    func integer(_ node: YAMLNode, _ what: String, range: ClosedRange<Int>) throws(DescriptorError) -> Int {
        guard case .scalar(let text, true) = node.kind, let value = Int(text), range.contains(value) else {
            throw error(node, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func bool(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> Bool {
        guard case .scalar(let text, true) = node.kind, text == "true" || text == "false" else {
            throw error(node, "\(what) must be true or false")
        }
        return text == "true"
    }

    func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> T
    where T.RawValue == String {
        let text = try string(node, what)
        guard let value = T(rawValue: text) else {
            let options = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(node, "\(what) must be one of: \(options); found '\(text)'")
        }
        return value
    }

    /// A scalar or a list of scalars, as a list.
    func strings(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> [(String, YAMLNode)] {
        switch node.kind {
        case .scalar(let text, _): return [(text, node)]
        case .sequence(let items):
            if items.isEmpty { throw error(node, "\(what) must not be an empty list") }
            var result: [(String, YAMLNode)] = []
            for item in items { result.append((try string(item, "each item of \(what)"), item)) }
            return result
        case .mapping: throw error(node, "\(what) must be a string or a list of strings")
        }
    }

    func list(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> [YAMLNode] {
        guard case .sequence(let items) = node.kind else { throw error(node, "\(what) must be a list") }
        return items
    }

    func fieldPath(_ text: String, at node: YAMLNode, _ what: String) throws(DescriptorError) -> FieldPath {
        do {
            return try parseFieldPath(text, at: node, what, file: file)
        } catch {
            throw DescriptorError(file: error.file, mark: error.mark, message: error.message + help(of: node))
        }
    }

    func glob(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> Glob {
        let text = try string(node, what)
        switch Glob.parse(text) {
        case .success(let glob): return glob
        case .failure(let problem):
            throw DescriptorError(
                file: file, mark: markInside(node, offset: problem.offset),
                message: "bad \(what) '\(text)': \(problem.message)" + help(of: node))
        }
    }

    func regex(_ node: YAMLNode, _ what: String, captures: ClosedRange<Int>? = nil) throws(DescriptorError) -> Pattern {
        let text = try string(node, what)
        let compiled: NSRegularExpression
        do {
            compiled = try NSRegularExpression(pattern: text)
        } catch {
            let problem = RegexProblem.diagnose(text)
            let place = problem.offset.map { " at character \($0 + 1)" } ?? ""
            throw DescriptorError(
                file: file, mark: problem.offset.map { markInside(node, offset: $0) } ?? node.mark,
                message: "bad regular expression in \(what): '\(text)': \(problem.reason)\(place)" + help(of: node))
        }
        if let captures, !captures.contains(compiled.numberOfCaptureGroups) {
            let count = captures.lowerBound == captures.upperBound ? "exactly \(captures.lowerBound)" : "\(captures)"
            throw self.error(node, "\(what) must have \(count) capture group\(captures == 1...1 ? "" : "s")")
        }
        return Pattern(text: text, regex: compiled, mark: node.mark)
    }

}

/// The mappings one load read, for the test that every key a mapping holds is read, and every key of every table
/// is read by some descriptor.
final class KeyReadLog {
    var readers: [MappingReader] = []
}

/// Parses a field path written in `node`, pointing an error at the bad character.
func parseFieldPath(_ text: String, at node: YAMLNode, _ what: String, file: String) throws(DescriptorError) -> FieldPath {
    switch FieldPath.parse(text) {
    case .success(let path): return path
    case .failure(let problem):
        throw DescriptorError(
            file: file, mark: markInside(node, offset: problem.offset),
            message: "bad field path '\(text)' in \(what): \(problem.message)")
    }
}

/// The mark of a character inside a scalar, so a bad path, glob or pattern points at the bad character. A scalar
/// whose characters are not its value's one for one (escapes, folded lines) is pointed at by its start.
func markInside(_ node: YAMLNode, offset: Int) -> SourceMark {
    guard let start = node.exactStart else { return node.mark }
    return SourceMark(line: start.line, column: start.column + offset, file: start.file)
}
