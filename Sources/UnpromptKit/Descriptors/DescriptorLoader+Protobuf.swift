/// Protobuf messages (`messages:`) and the query columns decoded with them (`protobuf:`).
extension DescriptorDecoder {
    /// The descriptor's `messages`: names (letters, digits, `_`, starting with a letter) to fields. Every
    /// message a field names must be declared, and field names and numbers are unique within a message.
    func protobufMessages(_ node: YAMLNode, _ parent: MappingReader) throws(DescriptorError) -> [String: ProtobufMessage] {
        guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
            throw parent.error(node, "messages must map message names to their fields")
        }
        var messages: [String: ProtobufMessage] = [:]
        var named: [(type: String, node: YAMLNode)] = []
        for entry in entries {
            let keyNode = YAMLNode(kind: .scalar(entry.key, plain: entry.keyIsPlain), mark: entry.keyMark)
            guard Self.isMessageName(entry.key) else {
                throw placeError(keyNode, "'\(entry.key)' is not a message name: use letters, digits and '_', starting with a letter")
            }
            guard case .mapping(let fieldEntries) = entry.value.kind, !fieldEntries.isEmpty else {
                throw placeError(entry.value, "message \(entry.key) must map field names to { field, type }")
            }
            var fields: [ProtobufField] = []
            for fieldEntry in fieldEntries {
                let fieldKey = YAMLNode(kind: .scalar(fieldEntry.key, plain: fieldEntry.keyIsPlain), mark: fieldEntry.keyMark)
                guard Names.isVariable(fieldEntry.key) else {
                    throw placeError(fieldKey, "'\(fieldEntry.key)' is not a field name: use lowercase letters, digits and '_'")
                }
                let map = try reader(fieldEntry.value, DescriptorKeys.protobufField, context: "\(entry.key).\(fieldEntry.key)")
                let number = try map.integer(try map.required("field"), "field", range: 1...536_870_911)
                if let same = fields.first(where: { $0.number == number }) {
                    throw map.error(map.node, "field \(number) is already \(entry.key).\(same.name)")
                }
                let typeNode = try map.required("type")
                let typeName = try map.string(typeNode, "type")
                let type: ProtobufFieldType
                if let scalar = ProtobufScalar(rawValue: typeName) {
                    type = .scalar(scalar)
                } else if typeName == "string" {
                    type = .string
                } else if typeName == "timestamp" {
                    type = .timestamp
                } else {
                    type = .message(typeName)
                    named.append((typeName, typeNode))
                }
                let repeated = try map.optional("repeated") { (n) throws(DescriptorError) in try map.bool(n, "repeated") } ?? false
                fields.append(ProtobufField(name: fieldEntry.key, number: number, type: type, repeated: repeated))
            }
            messages[entry.key] = ProtobufMessage(fields: fields)
        }
        for (type, node) in named where messages[type] == nil {
            let known = (ProtobufScalar.allCases.map(\.rawValue) + ["string", "timestamp"]).joined(separator: ", ")
            throw placeError(node, "type '\(type)' is neither a declared message nor one of: \(known)")
        }
        return messages
    }

    /// A query's `protobuf`: result columns to the declared message their BLOBs hold.
    func protobufColumns(_ node: YAMLNode, _ map: MappingReader) throws(DescriptorError) -> ProtobufColumns {
        guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
            throw map.error(node, "protobuf must map column names to declared messages, e.g. { data: Usage }")
        }
        var roots: [String: String] = [:]
        for entry in entries {
            let name = try map.string(entry.value, "protobuf.\(entry.key)")
            guard messages[name] != nil else {
                let declared = messages.keys.sorted().joined(separator: ", ")
                throw placeError(
                    entry.value, "'\(name)' is not a message of this descriptor's messages" + (declared.isEmpty ? " (it declares none)" : " (\(declared))"))
            }
            roots[entry.key] = name
        }
        return ProtobufColumns(roots: roots, messages: messages)
    }

    static func isMessageName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
