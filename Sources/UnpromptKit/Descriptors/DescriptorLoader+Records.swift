/// Record rules: what selects a record, what it skips, and its token fields.
extension DescriptorDecoder {
    func record(_ node: YAMLNode) throws(DescriptorError) -> RecordRule {
        let map = try reader(node, DescriptorKeys.record)
        let indexUsesBefore = elementIndexUses.marks.count
        let name = try identifier(try map.required("name"), map, "name")
        let match = try map.optional("match") { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
        let selection = try map.optional("select") { (n) throws(DescriptorError) in try select(n, map) }
        var decode: [FieldPath] = []
        if let node = map.optional("decode") {
            for (text, item) in try map.strings(node, "decode") { decode.append(try map.fieldPath(text, at: item, "decode")) }
        }
        let skip = try map.optional("skip") { (n) throws(DescriptorError) in try skipReasons(n, map) } ?? []
        let time = try timeSpec(try map.required("time"), "time")
        let model = try map.optional("model") { (n) throws(DescriptorError) in try value(n, "model") }
        let tokensAt = try map.optional("tokens_at") { (n) throws(DescriptorError) in
            try map.fieldPath(try map.string(n, "tokens_at"), at: n, "tokens_at")
        }
        // A tool that logs only a cost (Crush) gives `cost` and no `tokens`.
        let costNode = map.optional("cost")
        let tokensNode = map.optional("tokens")
        let tokens = costNode != nil && tokensNode == nil ? TokenSpec.none : try tokenSpec(try map.required("tokens"))
        let countingNode = try map.required("counting")
        let counting = try countingRules(countingNode)
        let cumulativeNode = map.optional("cumulative")
        let cumulative = try cumulativeNode.map { (n) throws(DescriptorError) in try cumulativeSpec(n) }
        if let cumulative, let cumulativeNode, cumulative.cost, costNode == nil {
            throw map.error(cumulativeNode, "cumulative.cost says the record's cost is a running total, but the record has no cost")
        }
        let byTotal = [counting.inputIncludesCache, counting.outputIncludesReasoning].contains { $0.isByTotal }
        if byTotal, tokens.total == nil {
            throw map.error(countingNode, "a by_total counting flag needs tokens.total")
        }
        if byTotal, let cumulativeNode {
            throw map.error(cumulativeNode, "by_total counting flags compare one record's counts with its total, so they cannot be cumulative")
        }
        if !byTotal, tokens.total != nil {
            throw map.error(countingNode, "tokens.total is read only by by_total counting flags; none is given")
        }
        let identity = try map.optional("identity") { (n) throws(DescriptorError) in try identitySpec(n) }
        let cost = try costNode.map { (n) throws(DescriptorError) in try value(n, "cost") }
        let estimated = try map.optional("estimated") { (n) throws(DescriptorError) in try map.bool(n, "estimated") } ?? false
        var dimensions = DimensionSpec.none
        if let node = map.optional("dimensions") {
            dimensions = try dimensionSpec(node)
            if cumulative != nil, dimensions.webSearch != nil || dimensions.webFetch != nil {
                throw map.error(node, "server-tool counts are read per record; a cumulative record cannot give them")
            }
        }
        let rule = RecordRule(
            name: name, match: match, select: selection, decode: decode, skip: skip, time: time, model: model,
            tokensAt: tokensAt, tokens: tokens, counting: counting, cumulative: cumulative, identity: identity,
            cost: cost, estimated: estimated, dimensions: dimensions, mark: node.mark)
        try checkElementIndex(rule, usesFrom: indexUsesBefore)
        return rule
    }

    /// `dimensions: { speed: {value, map}, service_tier: …, region: …, web_search_requests: count, … }`.
    func dimensionSpec(_ node: YAMLNode) throws(DescriptorError) -> DimensionSpec {
        let map = try reader(node, DescriptorKeys.dimensions)
        func mapped<D: StoredDimension>(_ key: String, _: D.Type) throws(DescriptorError) -> MappedValue? {
            guard let node = map.optional(key) else { return nil }
            let entry = try reader(node, DescriptorKeys.mappedValue, context: "dimensions.\(key)")
            var targets: [String: String] = [:]
            if let mapNode = entry.optional("map") {
                guard case .mapping(let pairs) = mapNode.kind, !pairs.isEmpty else {
                    throw entry.error(mapNode, "dimensions.\(key).map must map the tool's strings to: \(D.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                for pair in pairs {
                    let target: D = try entry.choice(pair.value, "dimensions.\(key).map.\(pair.key)")
                    targets[pair.key] = target.rawValue
                }
            }
            return MappedValue(value: try value(try entry.required("value"), "dimensions.\(key).value"), map: targets)
        }
        func count(_ key: String) throws(DescriptorError) -> CountSpec? {
            try map.optional(key) { (n) throws(DescriptorError) in try self.count(n, "dimensions.\(key)") }
        }
        return DimensionSpec(
            speed: try mapped("speed", Speed.self), tier: try mapped("service_tier", ServiceTier.self),
            region: try mapped("region", InferenceRegion.self), webSearch: try count("web_search_requests"),
            webFetch: try count("web_fetch_requests"))
    }

    /// `skip`: reason names (never a built-in one, so every count means one thing) to conditions.
    func skipReasons(_ node: YAMLNode, _ map: MappingReader) throws(DescriptorError) -> [(reason: String, when: [Condition])] {
        guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
            throw map.error(node, "skip must map reason names to conditions, e.g. synthetic: { message.model: \"<synthetic>\" }")
        }
        var skip: [(reason: String, when: [Condition])] = []
        for entry in entries {
            guard Names.isIdentifier(entry.key) else {
                throw DescriptorError(
                    file: file, mark: entry.keyMark, message: "'\(entry.key)' is not a reason name: use lowercase letters, digits and '-'")
            }
            guard !SkipReason.builtIn.contains(entry.key) else {
                throw DescriptorError(
                    file: file, mark: entry.keyMark,
                    message: "'\(entry.key)' is a built-in skip reason; name this one differently so the counts stay apart")
            }
            skip.append((entry.key, try conditions(entry.value, "skip.\(entry.key)")))
        }
        return skip
    }

    func select(_ node: YAMLNode, _ map: MappingReader) throws(DescriptorError) -> Selection {
        let text = try map.string(node, "select")
        let kind: Selection.Kind
        let pathText: String
        if text.hasSuffix("[]") {
            kind = .arrayElements
            pathText = String(text.dropLast(2))
        } else if text == "*" || text.hasSuffix(".*") {
            kind = .objectEntries
            pathText = String(text.dropLast(text == "*" ? 1 : 2))
        } else {
            throw map.error(node, "select must end with '[]' (array elements) or '.*' (object entries)")
        }
        // `[]` and `*` alone select the elements or entries of the document's root (a bare array).
        let path =
            pathText.isEmpty
            ? FieldPath(components: [], fromRoot: false, text: "") : try map.fieldPath(pathText, at: node, "select")
        return Selection(path: path, kind: kind)
    }

    func tokenSpec(_ node: YAMLNode) throws(DescriptorError) -> TokenSpec {
        let map = try reader(node, DescriptorKeys.tokens)
        func field(_ key: String) throws(DescriptorError) -> CountSpec? {
            try map.optional(key) { (n) throws(DescriptorError) in try count(n, "tokens.\(key)") }
        }
        let spec = TokenSpec(
            input: try field("input"), output: try field("output"), cacheRead: try field("cache_read"),
            cacheWrite: try field("cache_write"), cacheWrite5m: try field("cache_write_5m"),
            cacheWrite1h: try field("cache_write_1h"), cacheWrite12h: try field("cache_write_12h"), reasoning: try field("reasoning"),
            total: try field("total"))
        let counted = DescriptorKeys.tokens.names.filter { $0 != "total" }
        if counted.allSatisfy({ map.optional($0) == nil }) {
            throw map.error(node, "tokens must name at least one of: \(counted.joined(separator: ", "))")
        }
        return spec
    }

    /// A count field: a value, or `{ sum: [value, ...] }`; a path through arrays (`rounds[].tokens`), alone or
    /// as an item of the sum, adds the value of every element.
    func count(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> CountSpec {
        if case .mapping(let entries) = node.kind, entries.contains(where: { $0.key == "sum" }) {
            let map = try reader(node, DescriptorKeys.sum, context: what)
            let list = try map.required("sum")
            let items: [YAMLNode]
            if case .sequence(let written) = list.kind { items = written } else { items = [list] }
            if items.isEmpty { throw map.error(list, "\(what).sum must not be empty") }
            var addends: [Addend] = []
            for item in items {
                if case .sequence = item.kind { throw map.error(item, "each item of \(what).sum must be one value, not a list") }
                addends.append(try addend(item, "\(what).sum"))
            }
            return CountSpec(addends: addends)
        }
        return CountSpec(addends: [try addend(node, what)])
    }

    /// A value, or a field path holding `[]`: every element of the array there adds its value.
    func addend(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> Addend {
        guard case .scalar(let text, _) = node.kind, text.contains("[]") else { return .value(try value(node, what)) }
        if text.hasPrefix("^") || text.hasPrefix("@") {
            throw placeError(node, "'\(text)' in \(what): a path through arrays (with []) is read from the record, not with ^ or @")
        }
        switch ListPath.parse(text) {
        case .success(let path): return .each(path)
        case .failure(let problem):
            throw DescriptorError(
                file: file, mark: markInside(node, offset: problem.offset), message: "bad field path '\(text)' in \(what): \(problem.message)")
        }
    }

    /// `@index` names the element `select: path[]` expands: a record of another shape has none. The values read
    /// since `first` (`elementIndexUses`) are the rule's.
    func checkElementIndex(_ rule: RecordRule, usesFrom first: Int) throws(DescriptorError) {
        if case .arrayElements? = rule.select?.kind { return }
        if elementIndexUses.marks.count > first {
            throw DescriptorError(
                file: file, mark: elementIndexUses.marks[first],
                message: "@index is the position of the element select expands, but record '\(rule.name)' has no select: path[]")
        }
    }
}
