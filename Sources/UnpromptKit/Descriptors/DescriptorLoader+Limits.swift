/// Plan-limit rules.
extension DescriptorDecoder {
    func limitRule(_ node: YAMLNode) throws(DescriptorError) -> LimitRule {
        let map = try reader(node, DescriptorKeys.limit)
        let selection = try map.optional("select") { (n) throws(DescriptorError) in try select(n, map) }
        let match = try map.optional("match") { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
        let time = try timeSpec(try map.required("time"), "time")
        return LimitRule(
            select: selection, match: match, time: time, windows: try limitWindows(try map.required("windows"), map))
    }

    /// A limit rule's (or a status line's) `windows`.
    func limitWindows(_ windowsNode: YAMLNode, _ map: MappingReader) throws(DescriptorError) -> [LimitWindowSpec] {
        let items = try map.list(windowsNode, "windows")
        if items.isEmpty { throw map.error(windowsNode, "windows must list at least one window") }
        var windows: [LimitWindowSpec] = []
        for item in items { windows.append(try limitWindow(item)) }
        return windows
    }

    func limitWindow(_ node: YAMLNode) throws(DescriptorError) -> LimitWindowSpec {
        let map = try reader(node, DescriptorKeys.window)
        let nameNode = try map.required("name")
        let name = try map.string(nameNode, "window name")
        guard Names.isVariable(name) else { throw map.error(nameNode, "window name must be lowercase letters, digits and '_'") }
        var namesByMinutes: [Int64: String] = [:]
        if let node = map.optional("names_by_minutes") {
            guard map.optional("window_minutes") != nil else {
                throw map.error(node, "names_by_minutes names a window by its window_minutes, which this window does not read")
            }
            guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
                throw map.error(node, "names_by_minutes must map lengths in minutes to window names, e.g. { 300: five_hour }")
            }
            for entry in entries {
                guard let minutes = Int64(entry.key), minutes > 0 else {
                    throw DescriptorError(
                        file: file, mark: entry.keyMark,
                        message: "names_by_minutes: '\(entry.key)' is not a whole number of minutes")
                }
                let windowName = try map.string(entry.value, "window name")
                guard Names.isVariable(windowName) else {
                    throw map.error(entry.value, "window name must be lowercase letters, digits and '_'")
                }
                namesByMinutes[minutes] = windowName
            }
        }
        func field(_ key: String) throws(DescriptorError) -> ValueSpec? {
            try map.optional(key) { (n) throws(DescriptorError) in try value(n, key) }
        }
        return LimitWindowSpec(
            name: name, namesByMinutes: namesByMinutes, usedPercent: try value(try map.required("used_percent"), "used_percent"),
            windowMinutes: try field("window_minutes"),
            resetsAt: try map.optional("resets_at") { (n) throws(DescriptorError) in try timeSpec(n, "resets_at") },
            resetsIn: try field("resets_in"))
    }
}
