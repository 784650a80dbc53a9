import Foundation

/// Reads a YAML mapping key by key, and refuses keys nobody asked for.
///
/// Every accessor throws a `DescriptorError` at the node that is wrong, saying what was expected there.
struct MappingReader {
    let file: String
    let node: YAMLNode
    let context: String
    private let entries: [YAMLEntry]

    init(_ node: YAMLNode, file: String, context: String, allowed: [String]) throws(DescriptorError) {
        guard case .mapping(let entries) = node.kind else {
            throw DescriptorError(file: file, mark: node.mark, message: "\(context) must be a mapping")
        }
        for entry in entries where !allowed.contains(entry.key) {
            throw DescriptorError(
                file: file, mark: entry.keyMark,
                message: "unknown key '\(entry.key)' in \(context); expected one of: \(allowed.joined(separator: ", "))")
        }
        self.file = file
        self.node = node
        self.context = context
        self.entries = entries
    }

    func optional(_ key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.value
    }

    func required(_ key: String) throws(DescriptorError) -> YAMLNode {
        guard let value = optional(key) else {
            throw DescriptorError(file: file, mark: node.mark, message: "\(context) is missing the required key '\(key)'")
        }
        return value
    }

    func error(_ node: YAMLNode, _ message: String) -> DescriptorError {
        DescriptorError(file: file, mark: node.mark, message: message)
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
        try parseFieldPath(text, at: node, what, file: file)
    }

    func glob(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> Glob {
        let text = try string(node, what)
        switch Glob.parse(text) {
        case .success(let glob): return glob
        case .failure(let problem):
            throw DescriptorError(
                file: file, mark: markInside(node, offset: problem.offset),
                message: "bad \(what) '\(text)': \(problem.message)")
        }
    }

    func regex(_ node: YAMLNode, _ what: String, captures: ClosedRange<Int>? = nil) throws(DescriptorError) -> Pattern {
        let text = try string(node, what)
        let compiled: NSRegularExpression
        do {
            compiled = try NSRegularExpression(pattern: text)
        } catch {
            throw self.error(node, "bad regular expression in \(what): '\(text)'")
        }
        if let captures, !captures.contains(compiled.numberOfCaptureGroups) {
            let count = captures.lowerBound == captures.upperBound ? "exactly \(captures.lowerBound)" : "\(captures)"
            throw self.error(node, "\(what) must have \(count) capture group\(captures == 1...1 ? "" : "s")")
        }
        return Pattern(text: text, regex: compiled, mark: node.mark)
    }

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

/// The mark of a character inside a plain scalar, so a bad path or glob points at the bad character.
/// Quoted scalars may hold escapes, so their start is the best exact place.
func markInside(_ node: YAMLNode, offset: Int) -> SourceMark {
    guard case .scalar(_, true) = node.kind else { return node.mark }
    return SourceMark(line: node.mark.line, column: node.mark.column + offset)
}
