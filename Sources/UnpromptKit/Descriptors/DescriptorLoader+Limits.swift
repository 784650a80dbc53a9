/// Plan-limit rules.
extension DescriptorDecoder {
    func limitRule(_ node: YAMLNode) throws(DescriptorError) -> LimitRule {
        let map = try reader(node, DescriptorKeys.limit)
        let match = try map.optional("match") { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
        let time = try timeSpec(try map.required("time"), "time")
        return LimitRule(match: match, time: time, windows: try limitWindows(try map.required("windows"), map))
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
        func field(_ key: String) throws(DescriptorError) -> ValueSpec? {
            try map.optional(key) { (n) throws(DescriptorError) in try value(n, key) }
        }
        return LimitWindowSpec(
            name: name, usedPercent: try value(try map.required("used_percent"), "used_percent"),
            windowMinutes: try field("window_minutes"),
            resetsAt: try map.optional("resets_at") { (n) throws(DescriptorError) in try timeSpec(n, "resets_at") },
            resetsIn: try field("resets_in"))
    }
}
