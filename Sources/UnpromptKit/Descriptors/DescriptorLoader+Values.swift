/// Values, times and conditions: the language every rule reads fields with.
extension DescriptorDecoder {
    /// A list whose items are each one value (a field, `@name`, or a `{ path, const, pattern }` mapping).
    func valueList(_ node: YAMLNode, _ what: String, _ parent: MappingReader) throws(DescriptorError) -> [ValueSpec] {
        let items: [YAMLNode]
        switch node.kind {
        case .scalar, .mapping: items = [node]
        case .sequence(let list): items = list
        }
        if items.isEmpty { throw parent.error(node, "\(what) must not be empty") }
        var result: [ValueSpec] = []
        for item in items {
            if case .sequence = item.kind { throw parent.error(item, "each item of \(what) must be one value, not a list") }
            result.append(try value(item, what))
        }
        return result
    }

    func timeSpec(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> TimeSpec {
        if case .mapping(let entries) = node.kind, entries.contains(where: { $0.key == "as" }) {
            let map = try reader(node, DescriptorKeys.time, context: what)
            let format: TimeFormat = try map.choice(try map.required("as"), "\(what).as")
            return TimeSpec(value: try valueMapping(map, what), format: format)
        }
        return TimeSpec(value: try value(node, what), format: .iso8601)
    }

    /// A value: `path`, `@name`, a list of alternatives, or `{ path, const, pattern }`.
    func value(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> ValueSpec {
        switch node.kind {
        case .scalar(let text, _):
            return noted(ValueSpec(alternatives: [try valueSource(text, node, what)], patterns: [], mark: node.mark))
        case .sequence(let items):
            if items.isEmpty { throw placeError(node, "\(what) must not be an empty list") }
            var alternatives: [ValueSource] = []
            for item in items {
                guard case .scalar(let text, _) = item.kind else {
                    throw placeError(item, "each alternative of \(what) must be a field path or @name")
                }
                alternatives.append(try valueSource(text, item, what))
            }
            return noted(ValueSpec(alternatives: alternatives, patterns: [], mark: node.mark))
        case .mapping:
            return try valueMapping(try reader(node, DescriptorKeys.value, context: what), what)
        }
    }

    func valueMapping(_ map: MappingReader, _ what: String) throws(DescriptorError) -> ValueSpec {
        var alternatives: [ValueSource] = []
        if let node = map.optional("in") {
            alternatives.append(.lookup(try lookup(map, arrayNode: node, what)))
        } else if let node = map.optional("where") {
            throw map.error(node, "\(what).where needs in: the array whose element it finds")
        } else if let node = map.optional("path") {
            for (text, item) in try map.strings(node, "\(what).path") { alternatives.append(try valueSource(text, item, what)) }
        }
        if let node = map.optional("const") {
            if !alternatives.isEmpty { throw map.error(node, "\(what) takes either path or const, not both") }
            alternatives.append(.constant(try map.string(node, "\(what).const")))
        }
        if alternatives.isEmpty { throw map.error(map.node, "\(what) needs a path or a const") }
        var patterns: [Pattern] = []
        if let node = map.optional("pattern") {
            let items: [YAMLNode]
            if case .sequence(let list) = node.kind { items = list } else { items = [node] }
            if items.isEmpty { throw map.error(node, "\(what).pattern must not be an empty list") }
            for item in items { patterns.append(try map.regex(item, "\(what).pattern", captures: 1...1)) }
        }
        return noted(ValueSpec(alternatives: alternatives, patterns: patterns, mark: map.node.mark))
    }

    /// `spec`, its mark noted when it reads `@index`, so the record it belongs to can check that it has an element
    /// index (`checkElementIndex`).
    private func noted(_ spec: ValueSpec) -> ValueSpec {
        if spec.alternatives.contains(where: { if case .elementIndex = $0 { true } else { false } }) {
            elementIndexUses.marks.append(spec.mark)
        }
        return spec
    }

    /// `{ in: array, where: { field: value, … }, path: field }`: one field path each, read in the element found.
    func lookup(_ map: MappingReader, arrayNode: YAMLNode, _ what: String) throws(DescriptorError) -> Lookup {
        let array = try map.fieldPath(try map.string(arrayNode, "\(what).in"), at: arrayNode, "\(what).in")
        guard let pathNode = map.optional("path") else {
            throw map.error(map.node, "\(what) with in needs a path: the field read in the element found")
        }
        if let node = map.optional("const") { throw map.error(node, "\(what) takes either in or const, not both") }
        let path = try map.fieldPath(try map.string(pathNode, "\(what).path"), at: pathNode, "\(what).path")
        guard let whereNode = map.optional("where"), case .mapping(let entries) = whereNode.kind, !entries.isEmpty else {
            throw map.error(map.optional("where") ?? map.node, "\(what).where must map fields of the element to values of the record")
        }
        var match: [(field: FieldPath, value: ValueSpec)] = []
        for entry in entries {
            let keyNode = entry.keyNode
            let field = try parseFieldPath(entry.key, at: keyNode, "\(what).where", file: file)
            if field.fromRoot { throw placeError(keyNode, "\(what).where names fields of the element: no '^'") }
            match.append((field, try value(entry.value, "\(what).where.\(entry.key)")))
        }
        return Lookup(array: array, match: match, path: path)
    }

    func valueSource(_ text: String, _ node: YAMLNode, _ what: String) throws(DescriptorError) -> ValueSource {
        if text == "@key" { return .entryKey }
        if text == "@index" { return .elementIndex }
        if text.hasPrefix("@") {
            let name = String(text.dropFirst())
            guard Names.isVariable(name), name != "key", name != "index" else {
                throw placeError(node, "'\(text)' in \(what): a carried value is @ followed by its name (not key or index, which are @key and @index)")
            }
            return .variable(name)
        }
        return .path(try parseFieldPath(text, at: node, what, file: file))
    }

    func conditions(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> [Condition] {
        guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
            throw placeError(node, "\(what) must map field paths to expected values")
        }
        var result: [Condition] = []
        for entry in entries {
            let keyNode = entry.keyNode
            let subject: Condition.Subject
            if entry.key.hasPrefix("@") {
                let name = String(entry.key.dropFirst())
                guard Names.isVariable(name), name != "key", name != "index" else {
                    throw placeError(
                        keyNode, "'\(entry.key)' in \(what): a condition tests a field or a carried value, @ followed by its name (@key and @index are values, not conditions)")
                }
                subject = .variable(name)
            } else {
                subject = .path(try parseFieldPath(entry.key, at: keyNode, what, file: file))
            }
            result.append(Condition(subject: subject, test: try conditionTest(entry, what)))
        }
        return result
    }

    /// What a condition expects of its field: a scalar, a list of them, or `{ present | matches | less_than }`.
    func conditionTest(_ entry: YAMLEntry, _ what: String) throws(DescriptorError) -> Condition.Test {
        switch entry.value.kind {
        case .scalar:
            return .equals([literal(entry.value)])
        case .sequence(let items):
            if items.isEmpty { throw placeError(entry.value, "\(what).\(entry.key) must not be an empty list") }
            var literals: [Condition.Literal] = []
            for item in items {
                guard case .scalar = item.kind else { throw placeError(item, "each item of \(what).\(entry.key) must be a plain value") }
                literals.append(literal(item))
            }
            return .equals(literals)
        case .mapping:
            let map = try reader(entry.value, DescriptorKeys.condition, context: "\(what).\(entry.key)")
            let given = DescriptorKeys.condition.names.compactMap { map.optional($0) }
            if given.count > 1 { throw map.error(given[1], "a condition takes one of present, matches or less_than") }
            if let present = map.optional("present") { return .present(try map.bool(present, "present")) }
            if let pattern = map.optional("matches") { return .matches(try map.regex(pattern, "matches")) }
            if let bound = map.optional("less_than") {
                guard case .scalar(let text, true) = bound.kind, let number = Double(text), number.isFinite else {
                    throw map.error(bound, "less_than must be a number")
                }
                return .lessThan(number)
            }
            throw map.error(entry.value, "a condition mapping needs present: true|false, matches: REGEX or less_than: NUMBER")
        }
    }

    func literal(_ node: YAMLNode) -> Condition.Literal {
        guard case .scalar(let text, let plain) = node.kind else { return .null }
        guard plain else { return .string(text) }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null", "~": return .null
        default:
            if let integer = Int64(text) { return .integer(integer) }
            if let number = Double(text), text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return .number(number) }
            return .string(text)
        }
    }
}
