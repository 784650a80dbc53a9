import Foundation

/// Turns a descriptor file into a checked `Descriptor`, or says exactly where and why it cannot.
///
/// Unknown keys, wrong types, missing keys, duplicate keys, bad globs, bad field paths and bad patterns are
/// all errors at `file:line:col`. Nothing is defaulted silently: the few defaults are documented in
/// CONTRIBUTING.md, and every choice that changes a count (counting rules, which copy to keep) is required.
public enum DescriptorLoader: Sendable {
    /// Loads a descriptor file, whose name must be its id: `readers/codex.yaml` declares `id: codex`.
    public static func load(path: String) throws(DescriptorError) -> Descriptor {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw DescriptorError(file: path, mark: SourceMark(line: 1, column: 1), message: "cannot read the file as UTF-8 text")
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try load(text: text, file: path, expectedID: name)
    }

    public static func load(text: String, file: String, expectedID: String? = nil) throws(DescriptorError) -> Descriptor {
        let root = try YAMLLoader.load(text, file: file)
        return try DescriptorDecoder(file: file, expectedID: expectedID).descriptor(root)
    }

    /// The status line a descriptor's text declares (`StatusLineRule`), nil when it declares none: decoded only as
    /// far as its `schema`, `id` and `status_line` (`StatusLinePayload.readers` finds them, for a command that
    /// runs each time a line is drawn; every other command loads and checks the descriptors whole). An invalid
    /// one is an error at `file:line:col`, as it is for every other command.
    public static func statusLine(text: String, file: String, expectedID: String?) throws(DescriptorError) -> StatusLineReader? {
        let root = try YAMLLoader.load(text, file: file)
        return try DescriptorDecoder(file: file, expectedID: expectedID).statusLine(root)
    }
}

/// The decoding itself, one function per section of the language.
private struct DescriptorDecoder {
    let file: String
    let expectedID: String?

    func reader(_ node: YAMLNode, _ context: String, _ allowed: [String]) throws(DescriptorError) -> MappingReader {
        try MappingReader(node, file: file, context: context, allowed: allowed)
    }

    static let topLevelKeys = ["schema", "id", "name", "identity_space", "inputs", "derived_window", "status_line"]

    /// The schema this version reads, and the id (which must be the file's name when one is expected).
    func checkedID(_ map: MappingReader) throws(DescriptorError) -> String {
        let schemaNode = try map.required("schema")
        let schema = try map.integer(schemaNode, "schema", range: 1...1_000)
        guard schema == Descriptor.schemaVersion else {
            throw map.error(schemaNode, "schema \(schema) is not supported; this version reads schema \(Descriptor.schemaVersion)")
        }
        let idNode = try map.required("id")
        let id = try identifier(idNode, map, "id")
        if let expectedID, expectedID != id {
            throw map.error(idNode, "id '\(id)' must match the file name '\(expectedID).yaml'")
        }
        return id
    }

    func descriptor(_ node: YAMLNode) throws(DescriptorError) -> Descriptor {
        let map = try reader(node, "the descriptor", Self.topLevelKeys)
        let id = try checkedID(map)
        let name = try map.string(try map.required("name"), "name")
        var space = id
        if let spaceNode = map.optional("identity_space") { space = try identifier(spaceNode, map, "identity_space") }
        let inputsNode = try map.required("inputs")
        let inputNodes = try map.list(inputsNode, "inputs")
        if inputNodes.isEmpty { throw map.error(inputsNode, "inputs must list at least one input") }
        var inputs: [Input] = []
        for item in inputNodes { inputs.append(try input(item)) }
        let windows = inputs.flatMap { $0.limits.flatMap { $0.windows.flatMap { [$0.name] + $0.namesByMinutes.values.sorted() } } }
        let derived = try map.optional("derived_window").map { (n) throws(DescriptorError) in
            try DerivedWindow.decode(n, file: file, limitWindows: windows)
        }
        let statusLine = try map.optional("status_line").map { (n) throws(DescriptorError) in try statusLineRule(n) }
        return Descriptor(
            id: id, name: name, identitySpace: space, inputs: inputs, derivedWindow: derived, statusLine: statusLine, file: file)
    }

    /// The descriptor's status line only: its schema and id are checked, its other sections are not read.
    func statusLine(_ node: YAMLNode) throws(DescriptorError) -> StatusLineReader? {
        let map = try reader(node, "the descriptor", Self.topLevelKeys)
        let id = try checkedID(map)
        guard let lineNode = map.optional("status_line") else { return nil }
        return StatusLineReader(tool: id, rule: try statusLineRule(lineNode), file: file)
    }

    func statusLineRule(_ node: YAMLNode) throws(DescriptorError) -> StatusLineRule {
        let rule = try reader(node, "status_line", ["windows"])
        return StatusLineRule(windows: try limitWindows(try rule.required("windows"), rule))
    }

    func identifier(_ node: YAMLNode, _ map: MappingReader, _ what: String) throws(DescriptorError) -> String {
        let text = try map.string(node, what)
        let valid = !text.isEmpty && text.count <= 64 && text.first!.isLetter
            && text.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
        guard valid else { throw map.error(node, "\(what) must be lowercase letters, digits and '-', starting with a letter") }
        return text
    }

    func input(_ node: YAMLNode) throws(DescriptorError) -> Input {
        let map = try reader(
            node, "an input",
            ["format", "sources", "prefilter", "carry", "records", "limits", "query", "patterns", "siblings"])
        let formatNode = try map.required("format")
        let format: Format = try map.choice(formatNode, "format")

        let sourcesNode = try map.required("sources")
        let sourceNodes = try map.list(sourcesNode, "sources")
        if sourceNodes.isEmpty { throw map.error(sourcesNode, "sources must list at least one place to look") }
        var sources: [SourceSpec] = []
        for item in sourceNodes { sources.append(try source(item)) }

        var prefilter: [[UInt8]] = []
        if let node = map.optional("prefilter") {
            guard format == .jsonl || format == .text else {
                throw map.error(node, "prefilter applies to line formats (jsonl, text) only")
            }
            let strings = try map.strings(node, "prefilter")
            if strings.count > 8 { throw map.error(node, "prefilter takes at most 8 strings") }
            for (text, item) in strings {
                if text.isEmpty { throw map.error(item, "a prefilter string must not be empty") }
                prefilter.append(Array(text.utf8))
            }
        }

        var patterns: [TextPattern] = []
        if let node = map.optional("patterns") {
            guard format == .text else { throw map.error(node, "patterns apply to the text format only") }
            patterns = try textPatterns(node, map)
        } else if format == .text {
            throw map.error(node, "a text input needs patterns")
        }

        var queries: [SQLQuery] = []
        if let node = map.optional("query") {
            guard format == .sqlite else { throw map.error(node, "query applies to the sqlite format only") }
            if case .sequence = node.kind {
                let variants = try map.list(node, "query")
                if variants.isEmpty { throw map.error(node, "query must list at least one variant") }
                for variant in variants { queries.append(try sqlQuery(variant)) }
            } else {
                queries = [try sqlQuery(node)]
            }
        } else if format == .sqlite {
            throw map.error(node, "a sqlite input needs a query")
        }

        var carry: [CarryRule] = []
        if let node = map.optional("carry") {
            for item in try map.list(node, "carry") { carry.append(try carryRule(item)) }
        }
        var siblings: [SiblingRule] = []
        if let node = map.optional("siblings") {
            guard format == .json else { throw map.error(node, "siblings apply to the json format only") }
            siblings = try siblingRules(node, map, carried: Set(carry.flatMap { $0.set.map(\.name) }))
        }
        // A file of limit readings only (Claude Desktop's plan usage history) has limits and no records.
        let recordsNode = map.optional("limits") == nil ? try map.required("records") : map.optional("records")
        let recordNodes = try recordsNode.map { (n) throws(DescriptorError) in try map.list(n, "records") } ?? []
        if let recordsNode, recordNodes.isEmpty { throw map.error(recordsNode, "records must list at least one kind of record") }
        var records: [RecordRule] = []
        for item in recordNodes { records.append(try record(item)) }
        var seen: [String: SourceMark] = [:]
        for (rule, item) in zip(records, recordNodes) {
            if let first = seen[rule.name] {
                throw map.error(item, "a record named '\(rule.name)' is already declared at \(first)")
            }
            seen[rule.name] = item.mark
        }
        var limits: [LimitRule] = []
        if let node = map.optional("limits") {
            for item in try map.list(node, "limits") { limits.append(try limitRule(item)) }
        }
        let formatRules: FormatRules =
            switch format {
            case .jsonl: .jsonl
            case .json: .json(siblings: siblings)
            case .sqlite: .sqlite(queries: queries)
            case .text: .text(patterns: patterns)
            }
        return Input(
            sources: sources, prefilter: prefilter, carry: carry, records: records, limits: limits, formatRules: formatRules)
    }

    func source(_ node: YAMLNode) throws(DescriptorError) -> SourceSpec {
        let map = try reader(node, "a source", ["root", "glob", "exclude", "max_depth", "list"])
        let rootNode = try map.required("root")
        let root = try map.string(rootNode, "root")
        if root.isEmpty { throw map.error(rootNode, "root must not be empty") }
        if let problem = RootTemplate.problem(in: root) { throw map.error(rootNode, "bad root: \(problem)") }
        let glob = try map.glob(try map.required("glob"), "glob")
        var exclude: [Glob] = []
        if let node = map.optional("exclude") {
            for (_, item) in try map.strings(node, "exclude") { exclude.append(try map.glob(item, "exclude")) }
        }
        var maxDepth: Int?
        if let node = map.optional("max_depth") { maxDepth = try map.integer(node, "max_depth", range: 1...64) }
        let list = try map.optional("list").map { (n) throws(DescriptorError) in try sourceList(n) }
        return SourceSpec(root: root, glob: glob, exclude: exclude, maxDepth: maxDepth, list: list, mark: node.mark)
    }

    func sourceList(_ node: YAMLNode) throws(DescriptorError) -> SourceList {
        let map = try reader(node, "list", ["file", "paths"])
        let fileNode = try map.required("file")
        let listFile = try map.string(fileNode, "list.file")
        let segments = listFile.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if listFile.hasPrefix("/") || segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            throw map.error(fileNode, "list.file must be a path below the root, without empty, '.' or '..' segments")
        }
        let pathsNode = try map.required("paths")
        let text = try map.string(pathsNode, "list.paths")
        switch ListPath.parse(text) {
        case .success(let paths): return SourceList(file: segments, paths: paths)
        case .failure(let problem):
            throw DescriptorError(
                file: file, mark: markInside(pathsNode, offset: problem.offset),
                message: "bad list path '\(text)': \(problem.message)")
        }
    }

    func textPatterns(_ node: YAMLNode, _ parent: MappingReader) throws(DescriptorError) -> [TextPattern] {
        guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
            throw parent.error(node, "patterns must be a mapping of pattern names to regular expressions")
        }
        var result: [TextPattern] = []
        for entry in entries {
            let regex = try parent.regex(entry.value, "pattern '\(entry.key)'")
            result.append(TextPattern(name: entry.key, regex: regex, mark: entry.value.mark))
        }
        return result
    }

    func sqlQuery(_ node: YAMLNode) throws(DescriptorError) -> SQLQuery {
        let map = try reader(node, "query", ["sql", "watermark", "requires", "decompress"])
        let sqlNode = try map.required("sql")
        let sql = try map.string(sqlNode, "sql")
        let normalized = sql.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard normalized.hasPrefix("select") || normalized.hasPrefix("with") else {
            throw map.error(sqlNode, "sql must be a read-only SELECT query")
        }
        var watermark: String?
        if let node = map.optional("watermark") { watermark = try map.string(node, "watermark") }
        var requires: [String] = []
        if let node = map.optional("requires") { requires = try map.strings(node, "requires").map(\.0) }
        var decompress: [String: Compression] = [:]
        if let node = map.optional("decompress") {
            guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
                throw map.error(node, "decompress must map column names to a compression, e.g. { data: zstd }")
            }
            for entry in entries { decompress[entry.key] = try map.choice(entry.value, "decompress.\(entry.key)") }
        }
        return SQLQuery(sql: sql, watermark: watermark, requires: requires, decompress: decompress)
    }

    func carryRule(_ node: YAMLNode) throws(DescriptorError) -> CarryRule {
        let map = try reader(node, "a carry rule", ["match", "set"])
        let match = try map.optional("match").map { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
        return CarryRule(match: match, set: try namedValues(try map.required("set"), map))
    }

    /// A `set` mapping: value names (none of them in `taken`) to values.
    func namedValues(_ node: YAMLNode, _ parent: MappingReader, taken: Set<String> = [], takenBy: String = "")
        throws(DescriptorError) -> [(name: String, value: ValueSpec)]
    {
        guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
            throw parent.error(node, "set must map value names to fields")
        }
        var set: [(name: String, value: ValueSpec)] = []
        for entry in entries {
            guard isVariableName(entry.key) else {
                throw DescriptorError(
                    file: file, mark: entry.keyMark,
                    message: "'\(entry.key)' is not a value name: use lowercase letters, digits and '_'")
            }
            guard !taken.contains(entry.key) else {
                throw DescriptorError(file: file, mark: entry.keyMark, message: "'\(entry.key)' is already set by \(takenBy)")
            }
            set.append((entry.key, try value(entry.value, "set.\(entry.key)")))
        }
        return set
    }

    /// Sibling rules. A value set by a sibling rule is never also carried, so a record's `@name` has one
    /// meaning; several sibling rules may set it (one per shape of the same file).
    func siblingRules(_ node: YAMLNode, _ parent: MappingReader, carried: Set<String>) throws(DescriptorError)
        -> [SiblingRule]
    {
        let items = try parent.list(node, "siblings")
        if items.isEmpty { throw parent.error(node, "siblings must list at least one rule") }
        var rules: [SiblingRule] = []
        for item in items {
            let map = try reader(item, "a sibling rule", ["file", "select", "match", "since", "set"])
            let fileNode = try map.required("file")
            let fileName = try map.string(fileNode, "file")
            guard !fileName.isEmpty, fileName != ".", fileName != "..", !fileName.contains("/") else {
                throw map.error(fileNode, "file must be a file name in the source's directory, with no '/'")
            }
            var selection: Selection?
            if let n = map.optional("select") { selection = try select(n, map) }
            let match = try map.optional("match").map { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
            let since = try map.optional("since").map { (n) throws(DescriptorError) in try timeSpec(n, "since") }
            let set = try namedValues(
                try map.required("set"), map, taken: carried,
                takenBy: "a carry rule; a value is carried or read from a sibling, not both")
            rules.append(SiblingRule(file: fileName, select: selection, match: match, since: since, set: set))
        }
        return rules
    }

    func record(_ node: YAMLNode) throws(DescriptorError) -> RecordRule {
        let map = try reader(
            node, "a record",
            ["name", "match", "select", "decode", "skip", "time", "model", "tokens_at", "tokens", "counting",
             "cumulative", "identity", "cost", "estimated", "dimensions"])
        let nameNode = try map.required("name")
        let name = try identifier(nameNode, map, "name")
        let match = try map.optional("match").map { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
        var selection: Selection?
        if let node = map.optional("select") { selection = try select(node, map) }
        var decode: [FieldPath] = []
        if let node = map.optional("decode") {
            for (text, item) in try map.strings(node, "decode") { decode.append(try map.fieldPath(text, at: item, "decode")) }
        }
        var skip: [(reason: String, when: [Condition])] = []
        if let node = map.optional("skip") {
            guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
                throw map.error(node, "skip must map reason names to conditions, e.g. synthetic: { message.model: \"<synthetic>\" }")
            }
            for entry in entries {
                guard isReasonName(entry.key) else {
                    throw DescriptorError(file: file, mark: entry.keyMark, message: "'\(entry.key)' is not a reason name: use lowercase letters, digits and '-'")
                }
                guard !SkipReason.builtIn.contains(entry.key) else {
                    throw DescriptorError(
                        file: file, mark: entry.keyMark,
                        message: "'\(entry.key)' is a built-in skip reason; name this one differently so the counts stay apart")
                }
                skip.append((entry.key, try conditions(entry.value, "skip.\(entry.key)")))
            }
        }
        let time = try timeSpec(try map.required("time"), "time")
        let model = try map.optional("model").map { (n) throws(DescriptorError) in try value(n, "model") }
        var tokensAt: FieldPath?
        if let node = map.optional("tokens_at") {
            tokensAt = try map.fieldPath(try map.string(node, "tokens_at"), at: node, "tokens_at")
        }
        // A tool that logs only a cost (Crush) gives `cost` and no `tokens`.
        let tokens = map.optional("cost") != nil && map.optional("tokens") == nil
            ? TokenSpec.none : try tokenSpec(try map.required("tokens"))
        let countingNode = try map.required("counting")
        let counting = try countingRules(countingNode)
        var cumulative: CumulativeSpec?
        if let node = map.optional("cumulative") {
            cumulative = try cumulativeSpec(node)
            if cumulative!.cost, map.optional("cost") == nil {
                throw map.error(node, "cumulative.cost says the record's cost is a running total, but the record has no cost")
            }
        }
        let byTotal = [counting.inputIncludesCache, counting.outputIncludesReasoning].contains {
            if case .byTotal = $0 { true } else { false }
        }
        if byTotal, tokens.total == nil {
            throw map.error(countingNode, "a by_total counting flag needs tokens.total")
        }
        if byTotal, let node = map.optional("cumulative") {
            throw map.error(node, "by_total counting flags compare one record's counts with its total, so they cannot be cumulative")
        }
        if !byTotal, tokens.total != nil {
            throw map.error(countingNode, "tokens.total is read only by by_total counting flags; none is given")
        }
        var identity: IdentitySpec?
        if let node = map.optional("identity") { identity = try identitySpec(node) }
        let cost = try map.optional("cost").map { (n) throws(DescriptorError) in try value(n, "cost") }
        let estimated = try map.optional("estimated").map { (n) throws(DescriptorError) in try map.bool(n, "estimated") } ?? false
        var dimensions = DimensionSpec.none
        if let node = map.optional("dimensions") {
            dimensions = try dimensionSpec(node)
            if cumulative != nil, dimensions.webSearch != nil || dimensions.webFetch != nil {
                throw map.error(node, "server-tool counts are read per record; a cumulative record cannot give them")
            }
        }
        return RecordRule(
            name: name, match: match, select: selection, decode: decode, skip: skip, time: time, model: model,
            tokensAt: tokensAt, tokens: tokens, counting: counting, cumulative: cumulative, identity: identity,
            cost: cost, estimated: estimated, dimensions: dimensions)
    }

    /// `dimensions: { speed: {value, map}, service_tier: …, region: …, web_search_requests: count, … }`.
    func dimensionSpec(_ node: YAMLNode) throws(DescriptorError) -> DimensionSpec {
        let map = try reader(node, "dimensions", DimensionSpec.keys)
        func mapped<D: StoredDimension>(_ key: String, _: D.Type) throws(DescriptorError) -> MappedValue? {
            guard let node = map.optional(key) else { return nil }
            let entry = try reader(node, "dimensions.\(key)", ["value", "map"])
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
            try map.optional(key).map { (n) throws(DescriptorError) in try self.count(n, "dimensions.\(key)") }
        }
        return DimensionSpec(
            speed: try mapped("speed", Speed.self), tier: try mapped("service_tier", ServiceTier.self),
            region: try mapped("region", InferenceRegion.self), webSearch: try count("web_search_requests"),
            webFetch: try count("web_fetch_requests"))
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
        let keys = ["input", "output", "cache_read", "cache_write", "cache_write_5m", "cache_write_1h", "cache_write_12h", "reasoning"]
        let map = try reader(node, "tokens", keys + ["total"])
        func field(_ key: String) throws(DescriptorError) -> CountSpec? {
            try map.optional(key).map { (n) throws(DescriptorError) in try count(n, "tokens.\(key)") }
        }
        let spec = TokenSpec(
            input: try field("input"), output: try field("output"), cacheRead: try field("cache_read"),
            cacheWrite: try field("cache_write"), cacheWrite5m: try field("cache_write_5m"),
            cacheWrite1h: try field("cache_write_1h"), cacheWrite12h: try field("cache_write_12h"), reasoning: try field("reasoning"),
            total: try field("total"))
        if keys.allSatisfy({ map.optional($0) == nil }) {
            throw map.error(node, "tokens must name at least one of: \(keys.joined(separator: ", "))")
        }
        return spec
    }

    /// A count field: a value, or `{ sum: [value, ...] }`.
    func count(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> CountSpec {
        if case .mapping(let entries) = node.kind, entries.contains(where: { $0.key == "sum" }) {
            let map = try reader(node, what, ["sum"])
            return CountSpec(addends: try valueList(try map.required("sum"), "\(what).sum", map))
        }
        return CountSpec(addends: [try value(node, what)])
    }

    func countingRules(_ node: YAMLNode) throws(DescriptorError) -> CountingRules {
        let map = try reader(node, "counting", ["input_includes_cache", "output_includes_reasoning"])
        return CountingRules(
            inputIncludesCache: try countingFlag(try map.required("input_includes_cache"), "input_includes_cache", map),
            outputIncludesReasoning: try countingFlag(
                try map.required("output_includes_reasoning"), "output_includes_reasoning", map))
    }

    func countingFlag(_ node: YAMLNode, _ what: String, _ parent: MappingReader) throws(DescriptorError) -> CountingFlag {
        switch node.kind {
        case .scalar("auto", true) where what == "input_includes_cache":
            return .auto
        case .scalar:
            return .always(try parent.bool(node, what))
        case .mapping(let entries) where entries.contains(where: { $0.key == "by_total" }):
            let map = try reader(node, what, ["by_total", "without_total"])
            let otherwise = try map.bool(try map.required("by_total"), "\(what).by_total")
            let withoutTotal = try map.optional("without_total").map { (node) throws(DescriptorError) in
                try map.bool(node, "\(what).without_total")
            }
            return .byTotal(otherwise: otherwise, withoutTotal: withoutTotal ?? otherwise)
        case .mapping:
            let map = try reader(node, what, ["when", "then", "else"])
            func answer(_ key: String) throws(DescriptorError) -> CountingAnswer {
                let branch = try map.required(key)
                if case .scalar("auto", true) = branch.kind, what == "input_includes_cache" { return .auto }
                guard case .scalar(let text, true) = branch.kind, text == "true" || text == "false" else {
                    throw map.error(
                        branch, "\(what).\(key) must be true\(what == "input_includes_cache" ? ", false or auto" : " or false")")
                }
                return text == "true" ? .yes : .no
            }
            return .conditional(
                when: try conditions(try map.required("when"), "\(what).when"), then: try answer("then"),
                otherwise: try answer("else"))
        case .sequence:
            throw parent.error(
                node,
                "\(what) must be true, false\(what == "input_includes_cache" ? ", auto" : ""), { when, then, else } or { by_total }")
        }
    }

    func cumulativeSpec(_ node: YAMLNode) throws(DescriptorError) -> CumulativeSpec {
        let map = try reader(node, "cumulative", ["key", "fallback_at", "cost"])
        var key: [ValueSpec] = []
        if let node = map.optional("key") { key = try valueList(node, "cumulative.key", map) }
        var fallback: FieldPath?
        if let node = map.optional("fallback_at") {
            fallback = try map.fieldPath(try map.string(node, "fallback_at"), at: node, "cumulative.fallback_at")
        }
        let cost = try map.optional("cost").map { (n) throws(DescriptorError) in try map.bool(n, "cumulative.cost") } ?? false
        return CumulativeSpec(key: key, fallbackAt: fallback, cost: cost)
    }

    func identitySpec(_ node: YAMLNode) throws(DescriptorError) -> IdentitySpec {
        let map = try reader(node, "identity", ["key", "fallback", "scope", "keep", "alias", "former"])
        let key = try valueList(try map.required("key"), "identity.key", map)
        var fallback: [ValueSpec] = []
        if let node = map.optional("fallback") { fallback = try valueList(node, "identity.fallback", map) }
        var scope = IdentityScope.global
        if let node = map.optional("scope") { scope = try map.choice(node, "identity.scope") }
        let keep: KeepRule = try map.choice(try map.required("keep"), "identity.keep")
        var alias: IdentityAlias?
        if let node = map.optional("alias") {
            let aliasMap = try reader(node, "identity.alias", ["key", "check_when", "group"])
            alias = IdentityAlias(
                key: try valueList(try aliasMap.required("key"), "identity.alias.key", aliasMap),
                checkWhen: try aliasMap.optional("check_when").map { (n) throws(DescriptorError) in
                    try conditions(n, "identity.alias.check_when")
                } ?? [],
                group: try aliasMap.optional("group").map { (n) throws(DescriptorError) in try aliasMap.string(n, "identity.alias.group") })
        }
        var former: FormerIdentity?
        if let node = map.optional("former") {
            let formerMap = try reader(node, "identity.former", ["key", "scope"])
            var formerScope = IdentityScope.global
            if let node = formerMap.optional("scope") { formerScope = try formerMap.choice(node, "identity.former.scope") }
            former = FormerIdentity(
                key: try valueList(try formerMap.required("key"), "identity.former.key", formerMap), scope: formerScope)
        }
        return IdentitySpec(key: key, fallback: fallback, scope: scope, keep: keep, alias: alias, former: former)
    }

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

    func limitRule(_ node: YAMLNode) throws(DescriptorError) -> LimitRule {
        let map = try reader(node, "a limit rule", ["select", "match", "time", "windows"])
        let selection = try map.optional("select").map { (n) throws(DescriptorError) in try select(n, map) }
        let match = try map.optional("match").map { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
        let time = try timeSpec(try map.required("time"), "time")
        return LimitRule(
            select: selection, match: match, time: time, windows: try limitWindows(try map.required("windows"), map))
    }

    /// A limit rule's (or a status line's) `windows`.
    func limitWindows(_ windowsNode: YAMLNode, _ map: MappingReader) throws(DescriptorError) -> [LimitWindowSpec] {
        let items = try map.list(windowsNode, "windows")
        if items.isEmpty { throw map.error(windowsNode, "windows must list at least one window") }
        var windows: [LimitWindowSpec] = []
        for item in items {
            let w = try reader(
                item, "a window", ["name", "names_by_minutes", "used_percent", "window_minutes", "resets_at", "resets_in"])
            let name = try identifierLike(try w.required("name"), w, "window name")
            var namesByMinutes: [Int64: String] = [:]
            if let node = w.optional("names_by_minutes") {
                guard w.optional("window_minutes") != nil else {
                    throw w.error(node, "names_by_minutes names a window by its window_minutes, which this window does not read")
                }
                guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
                    throw w.error(node, "names_by_minutes must map lengths in minutes to window names, e.g. { 300: five_hour }")
                }
                for entry in entries {
                    guard let minutes = Int64(entry.key), minutes > 0 else {
                        throw DescriptorError(
                            file: file, mark: entry.keyMark, message: "names_by_minutes: '\(entry.key)' is not a whole number of minutes")
                    }
                    namesByMinutes[minutes] = try identifierLike(entry.value, w, "window name")
                }
            }
            func field(_ key: String) throws(DescriptorError) -> ValueSpec? {
                try w.optional(key).map { (n) throws(DescriptorError) in try value(n, key) }
            }
            windows.append(
                LimitWindowSpec(
                    name: name, namesByMinutes: namesByMinutes, usedPercent: try value(try w.required("used_percent"), "used_percent"),
                    windowMinutes: try field("window_minutes"),
                    resetsAt: try w.optional("resets_at").map { (n) throws(DescriptorError) in try timeSpec(n, "resets_at") },
                    resetsIn: try field("resets_in")))
        }
        return windows
    }

    func identifierLike(_ node: YAMLNode, _ map: MappingReader, _ what: String) throws(DescriptorError) -> String {
        let text = try map.string(node, what)
        guard isVariableName(text) else { throw map.error(node, "\(what) must be lowercase letters, digits and '_'") }
        return text
    }

    func timeSpec(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> TimeSpec {
        if case .mapping(let entries) = node.kind, entries.contains(where: { $0.key == "as" }) {
            let map = try reader(node, what, ["path", "const", "pattern", "in", "where", "as"])
            let format: TimeFormat = try map.choice(try map.required("as"), "\(what).as")
            return TimeSpec(value: try valueMapping(map, what), format: format)
        }
        return TimeSpec(value: try value(node, what), format: .iso8601)
    }

    /// A value: `path`, `@name`, a list of alternatives, or `{ path, const, pattern }`.
    func value(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> ValueSpec {
        switch node.kind {
        case .scalar(let text, _):
            return ValueSpec(alternatives: [try valueSource(text, node, what)], pattern: nil, mark: node.mark)
        case .sequence(let items):
            if items.isEmpty { throw DescriptorError(file: file, mark: node.mark, message: "\(what) must not be an empty list") }
            var alternatives: [ValueSource] = []
            for item in items {
                guard case .scalar(let text, _) = item.kind else {
                    throw DescriptorError(file: file, mark: item.mark, message: "each alternative of \(what) must be a field path or @name")
                }
                alternatives.append(try valueSource(text, item, what))
            }
            return ValueSpec(alternatives: alternatives, pattern: nil, mark: node.mark)
        case .mapping:
            return try valueMapping(try reader(node, what, ["path", "const", "pattern", "in", "where"]), what)
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
        var pattern: Pattern?
        if let node = map.optional("pattern") { pattern = try map.regex(node, "\(what).pattern", captures: 1...1) }
        return ValueSpec(alternatives: alternatives, pattern: pattern, mark: map.node.mark)
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
            let keyNode = YAMLNode(kind: .scalar(entry.key, plain: entry.keyIsPlain), mark: entry.keyMark)
            let field = try parseFieldPath(entry.key, at: keyNode, "\(what).where", file: file)
            if field.fromRoot { throw placeError(keyNode, "\(what).where names fields of the element: no '^'") }
            match.append((field, try value(entry.value, "\(what).where.\(entry.key)")))
        }
        return Lookup(array: array, match: match, path: path)
    }

    func valueSource(_ text: String, _ node: YAMLNode, _ what: String) throws(DescriptorError) -> ValueSource {
        if text == "@key" { return .entryKey }
        if text.hasPrefix("@") {
            let name = String(text.dropFirst())
            guard isVariableName(name) else {
                throw DescriptorError(file: file, mark: node.mark, message: "'\(text)' in \(what): a carried value is @ followed by its name")
            }
            return .variable(name)
        }
        return .path(try parseFieldPath(text, at: node, what, file: file))
    }

    func conditions(_ node: YAMLNode, _ what: String) throws(DescriptorError) -> [Condition] {
        guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
            throw DescriptorError(file: file, mark: node.mark, message: "\(what) must map field paths to expected values")
        }
        var result: [Condition] = []
        for entry in entries {
            let keyNode = YAMLNode(kind: .scalar(entry.key, plain: entry.keyIsPlain), mark: entry.keyMark)
            if entry.key.hasPrefix("@") {
                throw placeError(keyNode, "a condition tests a field; '\(entry.key)' is a carried value, which conditions cannot test")
            }
            let path = try parseFieldPath(entry.key, at: keyNode, what, file: file)
            switch entry.value.kind {
            case .scalar:
                result.append(Condition(path: path, test: .equals([literal(entry.value)])))
            case .sequence(let items):
                if items.isEmpty { throw placeError(entry.value, "\(what).\(entry.key) must not be an empty list") }
                var literals: [Condition.Literal] = []
                for item in items {
                    guard case .scalar = item.kind else { throw placeError(item, "each item of \(what).\(entry.key) must be a plain value") }
                    literals.append(literal(item))
                }
                result.append(Condition(path: path, test: .equals(literals)))
            case .mapping:
                let map = try reader(entry.value, "\(what).\(entry.key)", ["present", "matches", "less_than"])
                let given = ["present", "matches", "less_than"].compactMap { map.optional($0) }
                if given.count > 1 { throw map.error(given[1], "a condition takes one of present, matches or less_than") }
                if let present = map.optional("present") {
                    result.append(Condition(path: path, test: .present(try map.bool(present, "present"))))
                } else if let pattern = map.optional("matches") {
                    result.append(Condition(path: path, test: .matches(try map.regex(pattern, "matches"))))
                } else if let bound = map.optional("less_than") {
                    guard case .scalar(let text, true) = bound.kind, let number = Double(text), number.isFinite else {
                        throw map.error(bound, "less_than must be a number")
                    }
                    result.append(Condition(path: path, test: .lessThan(number)))
                } else {
                    throw map.error(entry.value, "a condition mapping needs present: true|false, matches: REGEX or less_than: NUMBER")
                }
            }
        }
        return result
    }

    func placeError(_ node: YAMLNode, _ message: String) -> DescriptorError {
        DescriptorError(file: file, mark: node.mark, message: message)
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

    func isVariableName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.first!.isLetter
            && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }

    func isReasonName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.first!.isLetter
            && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }
}
