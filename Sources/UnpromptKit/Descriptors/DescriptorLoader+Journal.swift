/// A `jsonl` input's `journal`: the fields of a patch line and its operation codes.
extension DescriptorDecoder {
    /// `records`: the input's record rules, which `keep_removed` needs to select array elements.
    func journalRules(_ node: YAMLNode, records: [RecordRule]) throws(DescriptorError) -> JournalRules {
        let map = try reader(node, DescriptorKeys.journal)
        func linePath(_ node: YAMLNode, _ key: String) throws(DescriptorError) -> FieldPath {
            let path = try map.fieldPath(try map.string(node, "journal.\(key)"), at: node, "journal.\(key)")
            if path.fromRoot { throw map.error(node, "journal.\(key) is a field of each line: '^' has no meaning here") }
            return path
        }
        let operation = try linePath(try map.required("op"), "op")
        let path = try linePath(try map.required("path"), "path")
        let value = try linePath(try map.required("value"), "value")
        let index = try map.optional("index") { (n) throws(DescriptorError) in try linePath(n, "index") }
        let ops = try reader(try map.required("ops"), DescriptorKeys.journalOps)
        var codes: [JournalRules.Code: JournalRules.Operation] = [:]
        for operation in JournalRules.Operation.allCases {
            let name = operation.rawValue
            guard let codeNode = operation == .snapshot ? try ops.required(name) : ops.optional(name) else { continue }
            guard case .scalar(let text, let plain) = codeNode.kind else {
                throw ops.error(codeNode, "ops.\(name) must be a number or a string")
            }
            // A plain whole number is the JSON integer; anything else (or a quoted number) is the JSON string.
            let code: JournalRules.Code = plain ? Int64(text).map { .integer($0) } ?? .text(text) : .text(text)
            if let other = codes[code] { throw ops.error(codeNode, "code \(code) is already the code of \(other.rawValue)") }
            codes[code] = operation
        }
        let keepRemoved = try map.optional("keep_removed") { (n) throws(DescriptorError) in try map.bool(n, "keep_removed") } ?? false
        if keepRemoved, let node = map.optional("keep_removed"),
            records.contains(where: { $0.select?.kind != .arrayElements })
        {
            throw map.error(node, "keep_removed needs every record rule to select array elements (`select: path[]`)")
        }
        return JournalRules(
            operation: operation, path: path, value: value, index: index, operations: codes, keepRemoved: keepRemoved)
    }
}
