import Foundation

/// An input's sibling rules (`SiblingRule`), compiled once: paths become pointers, and the paths read from a
/// sibling's root are looked up in one walk, as for the source itself.
final class CompiledSiblings: Sendable {
    final class Rule: Sendable {
        let file: String
        let selection: Selection?
        let selectPointer: JSONPointer?
        let match: [CompiledCondition]
        let since: CompiledTime?
        let set: [(String, CompiledValue)]

        init(_ rule: SiblingRule, _ compiler: RuleCompiler) {
            let scope = RuleCompiler.Scope(fromLine: rule.select == nil, decode: [])
            file = rule.file
            selection = rule.select
            selectPointer = rule.select.map { RuleCompiler.pointer($0.path) }
            match = rule.match.map { compiler.condition($0, scope: scope) }
            since = rule.since.map { CompiledTime(value: compiler.value($0.value, scope: scope), format: $0.format) }
            set = rule.set.map { ($0.name, compiler.value($0.value, scope: scope)) }
        }
    }

    let rules: [Rule]
    /// Paths read from a sibling's root. Rules for other files find theirs absent in it.
    let rootPointers: [JSONPointer]

    init(_ rules: [SiblingRule]) {
        let compiler = RuleCompiler()
        self.rules = rules.map { Rule($0, compiler) }
        rootPointers = compiler.rootPointers
    }
}

/// The values sibling documents gave for one read of a source: for each name, the values in the order they
/// were set (rules in the order written, then elements in document order), each with the time it holds
/// from (nil: it always holds).
struct SiblingValues {
    fileprivate var entries: [String: [(from: Int64?, text: String)]] = [:]

    /// `variables` plus, for each sibling value, the last one that holds at `time`. A name whose every value
    /// holds only from a later time is left out, so a record's next alternative applies.
    func applied(to variables: [String: String], at time: Int64) -> [String: String] {
        var result = variables
        for (name, list) in entries {
            if let entry = list.last(where: { $0.from.map { $0 <= time } ?? true }) { result[name] = entry.text }
        }
        return result
    }
}

/// Reads the sibling documents of a source, in the source's own directory. One per reader, since it keeps a
/// parser between reads.
///
/// Contract:
/// - A sibling that does not exist, or is empty, gives no values: records then read their other alternatives.
/// - A sibling that exists but cannot be opened or read throws, so the whole source is unreadable and
///   nothing of it is kept.
/// - A sibling that is not JSON (or is larger than a document may be) is one `malformed-sibling` skip, and
///   gives no values.
/// - An element on which a pattern used up its work (`BoundedMatch`) is one `pattern-too-slow` skip, and sets
///   nothing.
final class SiblingReader {
    private let rules: CompiledSiblings
    private let rootPaths: JSONPathSet
    private let timeZone: TimeZone
    private let parser = JSONParser()

    init(rules: CompiledSiblings, timeZone: TimeZone) {
        self.rules = rules
        rootPaths = JSONPathSet(rules.rootPointers)
        self.timeZone = timeZone
    }

    func values(besides path: String, into result: inout SourceReadResult) throws(SourceReadError) -> SiblingValues {
        let directory = (path as NSString).deletingLastPathComponent
        var values = SiblingValues()
        // The document parsed last, kept while consecutive rules read the same file; files found to hold
        // nothing (absent, empty or malformed) are read once per read of the source.
        var parsed: (file: String, root: JSONRef)?
        var empty: Set<String> = []
        for rule in rules.rules where !empty.contains(rule.file) {
            if parsed?.file != rule.file {
                guard let root = try parse(directory.isEmpty ? rule.file : directory + "/" + rule.file, into: &result)
                else {
                    empty.insert(rule.file)
                    parsed = nil
                    continue
                }
                parsed = (rule.file, root)
            }
            let root = parsed!.root
            for (element, key) in elements(of: rule, in: root) {
                read(rule, element, key, root, into: &values, result: &result)
            }
        }
        return values
    }

    /// Parses the sibling at `path`, or returns nil when it holds nothing to read (counting a malformed one).
    private func parse(_ path: String, into result: inout SourceReadResult) throws(SourceReadError) -> JSONRef? {
        let fd = SystemPath.openForReading(path)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw SourceReadError(errno: errno, operation: "open a sibling document")
        }
        defer { close(fd) }
        guard case .read(let document) = try DocumentBytes.read(fd: fd, limit: JSONDocumentReader.maxDocumentBytes)
        else {
            result.skip(SkipReason.malformedSibling, line: 1, problem: true)
            return nil
        }
        if document.count == 0 { return nil }
        do {
            let root = try parser.parse(copying: UnsafeRawBufferPointer(start: document.base, count: document.count))
            parser.extract(rootPaths, in: root)
            return root
        } catch {
            result.skip(SkipReason.malformedSibling, line: 1, problem: true)
            return nil
        }
    }

    /// The rule's elements in document order (with their keys for object entries), or the root itself.
    private func elements(of rule: CompiledSiblings.Rule, in root: JSONRef) -> [(JSONRef, String?)] {
        guard let selection = rule.selection, let pointer = rule.selectPointer else { return [(root, nil)] }
        switch (selection.kind, parser.value(at: pointer, in: root)) {
        case (.arrayElements, .array(let ref)?): return parser.elements(of: ref).map { ($0, nil) }
        case (.objectEntries, .object(let ref)?): return parser.entries(of: ref).map { ($0.value, $0.key) }
        default: return []
        }
    }

    private func read(
        _ rule: CompiledSiblings.Rule, _ element: JSONRef, _ key: String?, _ root: JSONRef, into values: inout SiblingValues,
        result: inout SourceReadResult
    ) {
        let overrun = PatternOverrun()
        let context = RecordContext(
            parser: parser, root: root, element: element, entryKey: key, variables: [:], decoded: [], overrun: overrun)
        var found: [(String, Int64?, String)] = []
        defer {
            if overrun.happened {
                result.skip(SkipReason.patternTooSlow, line: 1, problem: true)
            } else {
                for (name, from, text) in found { values.entries[name, default: []].append((from, text)) }
            }
        }
        guard rule.match.allHold(in: context) else { return }
        var from: Int64?
        if let since = rule.since {
            // An element whose time is absent or does not parse cannot be placed in time: it sets nothing.
            guard let value = since.value.resolve(in: context),
                let time = TimeParsing.milliseconds(value, format: since.format, timeZone: timeZone)
            else { return }
            from = time
        }
        for (name, value) in rule.set {
            if let resolved = value.resolve(in: context) { found.append((name, from, resolved.text)) }
        }
    }
}
