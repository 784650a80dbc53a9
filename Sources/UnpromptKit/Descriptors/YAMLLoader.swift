internal import CYAML

/// Turns descriptor text into a `YAMLNode` tree, using libyaml's event parser.
///
/// Only the plain-data subset of YAML is accepted: exactly one document, scalar keys that are unique
/// per mapping, no anchors, aliases, merge keys or tags, and at most `maxDepth` nested collections.
/// Every failure, libyaml's syntax errors included, is a `DescriptorError` at a 1-based mark.
public enum YAMLLoader: Sendable {
    /// The builder recurses once per collection level; the cap keeps hostile input from exhausting the stack.
    static let maxDepth = 64

    /// Loads exactly one YAML document. `file` is only used in error messages; with `markingFile`, every mark
    /// names the file, for nodes used in another file's tree (a descriptor's blocks).
    public static func load(_ text: String, file: String, markingFile: Bool = false) throws(DescriptorError) -> YAMLNode {
        // libyaml keeps raw pointers to its parser struct and to the input until yaml_parser_delete,
        // so both live at fixed heap addresses rather than in Swift values that may move.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        // One spare byte: libyaml asserts a non-null input even when it is empty.
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count + 1)
        defer { input.deallocate() }
        _ = input.initialize(from: text.utf8)

        guard yaml_parser_initialize(parser) == 1 else {
            throw DescriptorError(file: file, mark: SourceMark(line: 1, column: 1), message: "out of memory starting the YAML parser")
        }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_input_string(parser, input.baseAddress, text.utf8.count)
        return try TreeBuilder(parser: parser, text: text, file: file, markFile: markingFile ? file : nil).document()
    }
}

/// A libyaml event copied into Swift values, so the C event can be freed as soon as it is read.
private struct Event {
    enum Kind {
        /// `exactStart`: see `YAMLNode.exactStart`.
        case scalar(String, plain: Bool, exactStart: SourceMark?)
        case sequenceStart, mappingStart, collectionEnd
        case documentStart
        /// Stream start/end and document end: libyaml's grammar fixes where they occur.
        case other
    }

    let kind: Kind
    let mark: SourceMark
}

/// Pulls events from an initialized parser and builds the tree by recursive descent.
private struct TreeBuilder {
    let parser: UnsafeMutablePointer<yaml_parser_t>
    let text: String
    let file: String
    let markFile: String?

    func document() throws(DescriptorError) -> YAMLNode {
        _ = try next()  // stream start
        let start = try next()
        guard case .documentStart = start.kind else {
            throw error("empty document, expected a mapping", at: SourceMark(line: 1, column: 1))
        }
        let root = try node(next(), depth: 0)
        _ = try next()  // document end
        let after = try next()
        if case .documentStart = after.kind {
            throw error("only one YAML document is allowed", at: after.mark)
        }
        return root
    }

    /// Builds the node that `event` starts; `depth` counts the collections around it.
    private func node(_ event: Event, depth: Int) throws(DescriptorError) -> YAMLNode {
        switch event.kind {
        case .scalar(let value, let plain, let exactStart):
            return YAMLNode(kind: .scalar(value, plain: plain), mark: event.mark, exactStart: exactStart)
        case .sequenceStart, .mappingStart:
            guard depth < YAMLLoader.maxDepth else {
                throw error("collections nested deeper than \(YAMLLoader.maxDepth) levels are not supported", at: event.mark)
            }
            if case .sequenceStart = event.kind {
                return YAMLNode(kind: .sequence(try sequence(depth: depth + 1)), mark: event.mark)
            }
            return YAMLNode(kind: .mapping(try mapping(depth: depth + 1)), mark: event.mark)
        case .collectionEnd, .documentStart, .other:
            // libyaml never emits these where a node must start; fail softly rather than trap if it does.
            throw error("unexpected YAML event", at: event.mark)
        }
    }

    private func sequence(depth: Int) throws(DescriptorError) -> [YAMLNode] {
        var items: [YAMLNode] = []
        while true {
            let event = try next()
            if case .collectionEnd = event.kind { return items }
            items.append(try node(event, depth: depth))
        }
    }

    private func mapping(depth: Int) throws(DescriptorError) -> [YAMLEntry] {
        var entries: [YAMLEntry] = []
        var firstMarks: [String: SourceMark] = [:]
        while true {
            let event = try next()
            if case .collectionEnd = event.kind { return entries }
            guard case .scalar(let key, let plain, let keyExactStart) = event.kind else {
                throw error("mapping keys must be plain strings", at: event.mark)
            }
            // A plain `<<` is YAML 1.1's merge key, which only makes sense together with aliases.
            if plain && key == "<<" {
                throw error("anchors and aliases are not supported in descriptors (merge key '<<')", at: event.mark)
            }
            if let first = firstMarks[key] {
                throw error("duplicate key '\(key)' (first at \(first))", at: event.mark)
            }
            firstMarks[key] = event.mark
            entries.append(
                YAMLEntry(
                    key: key, keyMark: event.mark, value: try node(next(), depth: depth), keyIsPlain: plain,
                    keyExactStart: keyExactStart))
        }
    }

    /// Reads one event and rejects anchors, aliases and tags where they appear.
    private func next() throws(DescriptorError) -> Event {
        var event = yaml_event_t()
        defer { yaml_event_delete(&event) }  // safe on the zeroed event a failed parse leaves
        guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }

        let mark = oneBased(event.start_mark)
        func plainData(anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?) throws(DescriptorError) {
            if anchor != nil { throw error("anchors and aliases are not supported in descriptors", at: mark) }
            if tag != nil { throw error("tags are not supported", at: mark) }
        }

        switch event.type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            try plainData(anchor: scalar.anchor, tag: scalar.tag)
            // Decode by length: a quoted "\0" puts a NUL byte inside the value.
            let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            let quoted = scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE || scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE
            let end = oneBased(event.end_mark)
            let written = value.unicodeScalars.count + (quoted ? 2 : 0)
            let exact = (plain || quoted) && end.line == mark.line && end.column - mark.column == written
            let exactStart = exact ? SourceMark(line: mark.line, column: mark.column + (quoted ? 1 : 0), file: markFile) : nil
            return Event(kind: .scalar(value, plain: plain, exactStart: exactStart), mark: mark)
        case YAML_SEQUENCE_START_EVENT:
            try plainData(anchor: event.data.sequence_start.anchor, tag: event.data.sequence_start.tag)
            return Event(kind: .sequenceStart, mark: mark)
        case YAML_MAPPING_START_EVENT:
            try plainData(anchor: event.data.mapping_start.anchor, tag: event.data.mapping_start.tag)
            return Event(kind: .mappingStart, mark: mark)
        case YAML_ALIAS_EVENT:
            throw error("anchors and aliases are not supported in descriptors", at: mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            return Event(kind: .collectionEnd, mark: mark)
        case YAML_DOCUMENT_START_EVENT:
            return Event(kind: .documentStart, mark: mark)
        default:
            return Event(kind: .other, mark: mark)
        }
    }

    /// The parser's current error, with libyaml's own wording.
    private func syntaxError() -> DescriptorError {
        let state = parser.pointee
        var message = "YAML syntax error: " + (state.problem.map { String(cString: $0) } ?? "unknown error")
        if let context = state.context {
            message += " (\(String(cString: context)) at \(oneBased(state.context_mark)))"
        }
        // Reader errors (bad characters) carry a byte offset instead of a mark.
        let position = state.error == YAML_READER_ERROR ? mark(atByteOffset: state.problem_offset) : oneBased(state.problem_mark)
        return error(message, at: position)
    }

    /// Counts lines and characters (not bytes) up to `offset`, as libyaml's marks do.
    private func mark(atByteOffset offset: Int) -> SourceMark {
        var line = 1, column = 1
        for byte in text.utf8.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // skip UTF-8 continuation bytes
                column += 1
            }
        }
        return SourceMark(line: line, column: column, file: markFile)
    }

    private func oneBased(_ mark: yaml_mark_t) -> SourceMark {
        SourceMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1, file: markFile)
    }

    private func error(_ message: String, at mark: SourceMark) -> DescriptorError {
        DescriptorError(file: file, mark: mark, message: message)
    }
}
