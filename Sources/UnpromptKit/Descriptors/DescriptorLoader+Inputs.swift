import Foundation

/// Inputs and what only some formats have: sources, source lists, line patterns, queries, sibling documents.
extension DescriptorDecoder {
    func input(_ node: YAMLNode) throws(DescriptorError) -> Input {
        let map = try reader(node, DescriptorKeys.input)
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
        var journal: JournalRules?
        if let node = map.optional("journal") {
            guard format == .jsonl else { throw map.error(node, "journal applies to the jsonl format only") }
            // Every line of a journal matters, and its records are read once from the whole document.
            for key in ["prefilter", "carry", "limits"] where map.optional(key) != nil {
                throw map.error(node, "a journal input takes no \(key): every line rebuilds the document, and only its records are read")
            }
            journal = try journalRules(node, records: records)
        }
        let formatRules: FormatRules =
            switch format {
            case .jsonl: .jsonl(journal: journal)
            case .json: .json(siblings: siblings)
            case .sqlite: .sqlite(queries: queries)
            case .text: .text(patterns: patterns)
            }
        return Input(
            sources: sources, prefilter: prefilter, carry: carry, records: records, limits: limits, formatRules: formatRules)
    }

    func source(_ node: YAMLNode) throws(DescriptorError) -> SourceSpec {
        let map = try reader(node, DescriptorKeys.source)
        let rootNode = try map.required("root")
        let root = try map.string(rootNode, "root")
        if root.isEmpty { throw map.error(rootNode, "root must not be empty") }
        if let problem = RootTemplate.problem(in: root) { throw map.error(rootNode, "bad root: \(problem)") }
        let glob = try map.glob(try map.required("glob"), "glob")
        var exclude: [Glob] = []
        if let node = map.optional("exclude") {
            for (_, item) in try map.strings(node, "exclude") { exclude.append(try map.glob(item, "exclude")) }
        }
        let maxDepth = try map.optional("max_depth") { (n) throws(DescriptorError) in try map.integer(n, "max_depth", range: 1...64) }
        let list = try map.optional("list") { (n) throws(DescriptorError) in try sourceList(n) }
        return SourceSpec(root: root, glob: glob, exclude: exclude, maxDepth: maxDepth, list: list, mark: node.mark)
    }

    func sourceList(_ node: YAMLNode) throws(DescriptorError) -> SourceList {
        let map = try reader(node, DescriptorKeys.sourceList)
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
        let map = try reader(node, DescriptorKeys.query)
        let sqlNode = try map.required("sql")
        let sql = try map.string(sqlNode, "sql")
        let normalized = sql.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard normalized.hasPrefix("select") || normalized.hasPrefix("with") else {
            throw map.error(sqlNode, "sql must be a read-only SELECT query")
        }
        let watermark = try map.optional("watermark") { (n) throws(DescriptorError) in try map.string(n, "watermark") }
        let requires = try map.optional("requires") { (n) throws(DescriptorError) in try map.strings(n, "requires").map(\.0) } ?? []
        var decompress: [String: Compression] = [:]
        if let node = map.optional("decompress") {
            guard case .mapping(let entries) = node.kind, !entries.isEmpty else {
                throw map.error(node, "decompress must map column names to a compression, e.g. { data: zstd }")
            }
            for entry in entries { decompress[entry.key] = try map.choice(entry.value, "decompress.\(entry.key)") }
        }
        let protobuf = try map.optional("protobuf") { (n) throws(DescriptorError) in try protobufColumns(n, map) }
        if let protobuf, let both = protobuf.roots.keys.sorted().first(where: { decompress[$0] != nil }), let node = map.optional("protobuf") {
            throw map.error(node, "column '\(both)' is given both decompress and protobuf")
        }
        return SQLQuery(sql: sql, watermark: watermark, requires: requires, decompress: decompress, protobuf: protobuf)
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
            let map = try reader(item, DescriptorKeys.sibling)
            let fileNode = try map.required("file")
            let fileName = try map.string(fileNode, "file")
            guard !fileName.isEmpty, fileName != ".", fileName != "..", !fileName.contains("/") else {
                throw map.error(fileNode, "file must be a file name in the source's directory, with no '/'")
            }
            let selection = try map.optional("select") { (n) throws(DescriptorError) in try select(n, map) }
            let match = try map.optional("match") { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
            let since = try map.optional("since") { (n) throws(DescriptorError) in try timeSpec(n, "since") }
            let set = try namedValues(
                try map.required("set"), map, taken: carried,
                takenBy: "a carry rule; a value is carried or read from a sibling, not both")
            rules.append(SiblingRule(file: fileName, select: selection, match: match, since: since, set: set))
        }
        return rules
    }

    func carryRule(_ node: YAMLNode) throws(DescriptorError) -> CarryRule {
        let map = try reader(node, DescriptorKeys.carry)
        let match = try map.optional("match") { (n) throws(DescriptorError) in try conditions(n, "match") } ?? []
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
            guard Names.isVariable(entry.key) else {
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
}
