import Foundation

/// Everything one read of one source produced: numbers only.
public struct SourceReadResult: Sendable {
    public var events: [TokenEvent] = []
    public var limits: [LimitSample] = []
    /// Complete lines (or documents, or rows) read.
    public var lines = 0
    /// Records matched by a record rule, whether they became events or were skipped.
    public var records = 0
    /// Records (or lines) skipped, by reason.
    public var skipped: [String: Int] = [:]
    /// The first problems, with their line numbers; `skipped` has the full counts.
    public var problems: [ReadProblem] = []
    /// What a dry run explains its warnings with (`ReadDiagnostics`).
    public var diagnostics = ReadDiagnostics()
    /// Where the next read starts: the end of the last complete line consumed.
    public var endOffset: Int64 = 0
    public var state = SourceState()

    public static let problemLimit = 5

    public init() {}

    mutating func skip(_ reason: String, line: Int, problem: Bool = false) {
        skipped[reason, default: 0] += 1
        if problem, problems.count < SourceReadResult.problemLimit {
            problems.append(ReadProblem(line: line, reason: reason))
        }
    }
}

/// A record that could not be read, named by its line (never by its content).
public struct ReadProblem: Sendable, Equatable {
    public let line: Int
    public let reason: String
}

/// Applies a descriptor's rules to one parsed line or document: carried values, limit readings and
/// usage records. It keeps no state of its own; the source's state is passed in.
struct RecordExtractor {
    let input: CompiledInput
    let timeZone: TimeZone
    /// Hash of the source's path, for identities scoped to one source.
    let sourceKey: String
    /// The source's file name without its folders, for identities scoped to it (`scope: file_name`; empty when no
    /// rule is): it is only ever hashed into an identity.
    let fileName: String
    /// When the document was read (milliseconds since 1970): the time of readings whose rule names no time of
    /// its own (a status line's). Nil for logs, whose readings must carry their time.
    let readAt: Int64?
    /// One parser per `decode` field, so decoded JSON never invalidates the outer document's values.
    private let decodeParsers: [JSONParser]
    private let modelCache: ModelCache
    private let overrun = PatternOverrun()

    /// `models`: the model ids read before, kept by a reader from source to source.
    init(
        input: CompiledInput, timeZone: TimeZone, sourceKey: String, path: String, readAt: Int64? = nil,
        models: ModelCache = ModelCache()
    ) {
        self.input = input
        modelCache = models
        self.timeZone = timeZone
        self.sourceKey = sourceKey
        // Splitting a path costs more than reading a small file: done only for rules that hash the file's name.
        let hashesFileName = input.records.contains { $0.identityScope == .fileName || $0.formerScope == .fileName }
        fileName = hashesFileName ? path.split(separator: "/").last.map(String.init) ?? path : ""
        self.readAt = readAt
        let decodeCount = input.records.map(\.decode.count).max() ?? 0
        decodeParsers = (0..<decodeCount).map { _ in JSONParser() }
    }

    /// `siblings`: values read from documents beside a `json` source, given to its records by their time.
    ///
    /// `damage`: for a journal's rebuilt document, the places patches could not be applied to; a record there
    /// is refused (`journal-damaged`).
    ///
    /// A line (or document, or row) on which a pattern used up its work (`BoundedMatch`) gives nothing: what
    /// its rules did is undone, and it is one `pattern-too-slow` skip.
    func process(
        root: JSONRef, parser: JSONParser, line: Int, state: inout SourceState, into result: inout SourceReadResult,
        siblings: SiblingValues? = nil, damage: JournalDamage? = nil
    ) {
        guard input.usesPatterns else {
            apply(root: root, parser: parser, line: line, state: &state, into: &result, siblings: siblings, damage: damage)
            return
        }
        overrun.happened = false
        // Counts, not copies, of what only grows: holding the arrays would copy them on every line.
        let before = (
            state: state, events: result.events.count, limits: result.limits.count, records: result.records,
            skipped: result.skipped, problems: result.problems.count
        )
        apply(root: root, parser: parser, line: line, state: &state, into: &result, siblings: siblings, damage: damage)
        guard overrun.happened else { return }
        state = before.state
        result.events.removeSubrange(before.events...)
        result.limits.removeSubrange(before.limits...)
        result.records = before.records
        result.skipped = before.skipped
        result.problems.removeSubrange(before.problems...)
        result.skip(SkipReason.patternTooSlow, line: line, problem: true)
    }

    private func apply(
        root: JSONRef, parser: JSONParser, line: Int, state: inout SourceState, into result: inout SourceReadResult,
        siblings: SiblingValues?, damage: JournalDamage?
    ) {
        /// Counts a matched record that a journal's damage refuses.
        func refused(_ container: JSONPointer, _ element: JSONPointer.Component?) -> Bool {
            guard let damage, damage.touches(container, element) else { return false }
            result.records += 1
            result.skip(SkipReason.journalDamaged, line: line)
            return true
        }
        /// Reads the whole line as a record of `rule`; false when the rule does not match it.
        func readWhole(_ rule: CompiledRecord, _ context: RecordContext) -> Bool {
            guard rule.match.allHold(in: context) else { return false }
            if damage == nil || !refused(JSONPointer([]), nil) {
                readRecord(rule, context, line: line, state: &state, into: &result, siblings: siblings)
            }
            return true
        }
        let limitsBefore = result.limits.count
        let lineContext = RecordContext(
            parser: parser, root: root, element: root, entryKey: nil, variables: state.variables, decoded: [],
            overrun: overrun)
        for rule in input.carry where rule.match.allHold(in: lineContext) {
            for (name, value) in rule.set {
                if let resolved = value.resolve(in: lineContext) { state.variables[name] = resolved.text }
            }
        }
        let context = RecordContext(
            parser: parser, root: root, element: root, entryKey: nil, variables: state.variables, decoded: [],
            overrun: overrun)
        // Whether a record read a replaced byte (`JSONParser.parseLog`) is noted afresh for each record.
        for rule in input.limits {
            guard let select = rule.select else {
                parser.forgetReadReplacedText()
                if rule.match.allHold(in: context) { readLimits(rule, context, line: line, into: &result) }
                continue
            }
            let elements: [JSONRef] =
                switch (select.kind, parser.value(at: select.pointer, in: root)) {
                case (.arrayElements, .array(let ref)?): Array(parser.elements(of: ref))
                case (.objectEntries, .object(let ref)?): parser.entries(of: ref).map(\.1)
                default: []
                }
            for element in elements {
                let c = RecordContext(
                    parser: parser, root: root, element: element, entryKey: nil, variables: state.variables, decoded: [],
                    overrun: overrun)
                parser.forgetReadReplacedText()
                if rule.match.allHold(in: c) { readLimits(rule, c, line: line, into: &result) }
            }
        }
        for rule in input.records {
            if let pointer = rule.selectPointer, let select = rule.select {
                guard let container = parser.value(at: pointer, in: root) else { continue }
                var matched = false
                switch (select.kind, container) {
                case (.arrayElements, .array(let ref)):
                    for (index, element) in parser.elements(of: ref).enumerated() {
                        parser.forgetReadReplacedText()
                        var c = elementContext(rule, parser, root, element, nil, state.variables)
                        c.elementIndex = index
                        if rule.match.allHold(in: c) {
                            matched = true
                            if refused(pointer, .index(index)) { continue }
                            readRecord(rule, c, line: line, state: &state, into: &result, siblings: siblings)
                        }
                    }
                case (.objectEntries, .object(let ref)):
                    for (key, element) in parser.entries(of: ref) {
                        parser.forgetReadReplacedText()
                        let c = elementContext(rule, parser, root, element, key, state.variables)
                        if rule.match.allHold(in: c) {
                            matched = true
                            if refused(pointer, .key(key)) { continue }
                            readRecord(rule, c, line: line, state: &state, into: &result, siblings: siblings)
                        }
                    }
                default: break
                }
                if matched { return }
            } else {
                parser.forgetReadReplacedText()
                // A rule that decodes no field reads the line in the context the limits read it in.
                let matched =
                    rule.decode.isEmpty
                    ? readWhole(rule, context)
                    : readWhole(rule, elementContext(rule, parser, root, root, nil, state.variables))
                if matched { return }
            }
        }
        if !input.records.isEmpty, result.limits.count == limitsBefore {
            result.diagnostics.unmatched += 1
            if result.diagnostics.firstUnmatched == nil { result.diagnostics.firstUnmatched = (0, line) }
        }
    }

    private func elementContext(
        _ rule: CompiledRecord, _ parser: JSONParser, _ root: JSONRef, _ element: JSONRef, _ key: String?,
        _ variables: [String: String]
    ) -> RecordContext {
        var context = RecordContext(
            parser: parser, root: root, element: element, entryKey: key, variables: variables, decoded: [],
            overrun: overrun)
        for (pointer, inner) in zip(rule.decode, decodeParsers) {
            // A field that is absent, or not a string, leaves its values absent. A string that is not JSON
            // makes the record malformed (see `readRecord`).
            guard case .string(let bytes) = parser.value(at: pointer, in: element) else {
                context.decoded.append(nil)
                continue
            }
            do {
                context.decoded.append((inner, try inner.parse(copying: bytes)))
            } catch {
                context.decoded.append(nil)
                context.malformedDecode = true
            }
        }
        return context
    }

    private func readRecord(
        _ rule: CompiledRecord, _ context: RecordContext, line: Int, state: inout SourceState,
        into result: inout SourceReadResult, siblings: SiblingValues?
    ) {
        result.records += 1
        for index in rule.skip.indices where rule.skip[index].when.allHold(in: context) {
            result.skip(rule.skip[index].reason, line: line)
            return
        }
        // After the descriptor's own skips, which may name what such a record is (Cursor's cut-short bubbles).
        if context.malformedDecode {
            result.skip(SkipReason.malformedEmbeddedJSON, line: line, problem: true)
            return
        }
        guard let timeValue = rule.time.value.resolve(in: context),
            let time = TimeParsing.milliseconds(timeValue, format: rule.time.format, timeZone: timeZone)
        else {
            result.skip(SkipReason.badTime, line: line, problem: true)
            let number = rule.time.value.resolve(in: context)?.double
            result.diagnostics.update(rule: rule.index) {
                $0.badTimes += 1
                if $0.firstBadTimeNumber == nil { $0.firstBadTimeNumber = number }
            }
            return
        }
        guard let siblings else {
            count(rule, context, time: time, timeValue: timeValue, line: line, state: &state, into: &result)
            return
        }
        var withSiblings = context
        withSiblings.variables = siblings.applied(to: context.variables, at: time)
        count(rule, withSiblings, time: time, timeValue: timeValue, line: line, state: &state, into: &result)
    }

    /// The rest of `readRecord`, once the record's time is known.
    private func count(
        _ rule: CompiledRecord, _ context: RecordContext, time: Int64, timeValue: FieldValue, line: Int,
        state: inout SourceState, into result: inout SourceReadResult
    ) {
        guard var raw = readTokens(rule.tokens, context) else {
            result.skip(SkipReason.badValue, line: line, problem: true)
            return
        }
        let cost = rule.cost?.resolve(in: context)
        // A cost that stands for the usage (a cost-only record, a running cost) must be a real amount.
        if rule.costOnly || rule.cumulativeCost, let found = cost {
            guard let amount = found.double, amount.isFinite, amount >= 0 else {
                result.skip(SkipReason.badValue, line: line, problem: true)
                return
            }
            if rule.cumulativeCost { raw.cost = amount }
        }
        if rule.cumulative {
            let key =
                rule.cumulativeKey.isEmpty
                ? "" : rule.cumulativeKey.map { $0.resolve(in: context)?.text ?? "" }.joined(separator: "\u{1F}")
            if raw.isAbsent {
                guard let fallback = rule.fallbackTokens, let delta = readTokens(fallback, context), !delta.isAbsent else {
                    skipNoUsage(rule, context, line: line, into: &result)
                    return
                }
                raw = delta
            } else if raw.isZero {
                // A zeroed total (Codex's context-window fill) is not a reset of the running count.
                result.skip(SkipReason.zeroUsage, line: line)
                return
            } else if state.runningTotalsLost, state.baselines[key] == nil {
                state.baselines[key] = raw
                result.skip(SkipReason.lostRunningTotal, line: line)
                return
            } else {
                let previous = state.baselines.updateValue(raw, forKey: key) ?? RawTokens()
                // A field that shrinks (or disappears, which is a drop to 0) means the counter restarted.
                if raw.wentBackwards(from: previous) {
                    if let fallback = rule.fallbackTokens, let delta = readTokens(fallback, context), !delta.isAbsent {
                        raw = delta
                    }
                } else if raw.minus(previous).isZero {
                    result.skip(SkipReason.unchangedTotal, line: line)
                    return
                } else {
                    raw = raw.minus(previous)
                }
            }
        } else if raw.isAbsent, !rule.costOnly || cost == nil {
            skipNoUsage(rule, context, line: line, into: &result)
            return
        }
        let counts = normalize(raw, rule, context)
        let loggedCost = rule.cumulativeCost ? raw.cost : cost?.double
        // A cost-only record is usage when it cost something.
        if counts.isZero, !rule.costOnly || (loggedCost ?? 0) == 0 {
            result.skip(SkipReason.zeroUsage, line: line)
            return
        }
        guard let serverTools = serverTools(rule.dimensions, context) else {
            result.skip(SkipReason.badValue, line: line, problem: true)
            return
        }
        let model = rule.model?.resolve(in: context).map { modelCache.sanitized($0) } ?? ModelID.unknown
        let identity = identity(rule, context)
        let alias = alias(rule, context)
        let checkAlias = !rule.aliasKey.isEmpty && rule.aliasCheck.allHold(in: context)
        // Bytes that are not UTF-8 make a record malformed only when a value it was read from holds them.
        if context.parser.readReplacedText {
            result.skip(SkipReason.malformedJSON, line: line, problem: true)
            return
        }
        result.events.append(
            TokenEvent(
                tool: input.tool, time: time, model: model, counts: counts,
                loggedCost: loggedCost, identity: identity.value, legacyIdentity: identity.legacy,
                keep: identity.fromKey ? rule.keep : .first,
                alias: alias, checkAlias: checkAlias, aliasOwner: rule.aliasGroup.map(aliasGroup),
                estimated: rule.estimated, dimensions: dimensions(rule.dimensions, context), serverTools: serverTools))
        // A time read in a calendar format is text with dashes, never a number: it is not read as one.
        let number = rule.time.format == .iso8601 || rule.time.format == .local ? nil : timeValue.double
        result.diagnostics.update(rule: rule.index) { $0.note(time: time, number: number) }
        // Decoded fields live in other parsers: their paths are not looked at.
        if rule.decode.isEmpty, !result.diagnostics.rules[rule.index].nearMissesChecked {
            let misses = NearMiss.find(rule.nearMissPaths, in: context)
            result.diagnostics.update(rule: rule.index) {
                $0.nearMissesChecked = true
                $0.nearMisses = misses
            }
        }
    }

    /// A `no-usage` skip; the first of the source also keeps the key names where its first token path stops.
    private func skipNoUsage(_ rule: CompiledRecord, _ context: RecordContext, line: Int, into result: inout SourceReadResult) {
        result.skip(SkipReason.noUsage, line: line)
        let known = result.diagnostics.rules.indices.contains(rule.index) && result.diagnostics.rules[rule.index].noUsageLevel != nil
        let level = known ? nil : deepestLevel(of: rule.tokenPaths.first, context)
        result.diagnostics.update(rule: rule.index) {
            $0.noUsage += 1
            if let level { $0.noUsageLevel = level }
        }
    }

    /// The deepest object on `path` (within the record) that exists, as its path and its key names; nil when
    /// none of it is an object. Key names only: the dry run may print them, never a value.
    private func deepestLevel(of path: FieldPath?, _ context: RecordContext) -> (path: String, keys: [String])? {
        guard let path else { return nil }
        let base = path.fromRoot ? context.root : context.element
        for depth in stride(from: path.components.count - 1, through: 0, by: -1) {
            let prefix = Array(path.components.prefix(depth))
            let pointer = RuleCompiler.pointer(FieldPath(components: prefix, fromRoot: path.fromRoot, text: ""))
            guard case .object(let ref) = context.parser.value(at: pointer, in: base) else { continue }
            let keys = context.parser.entries(of: ref).map(\.key).sorted().prefix(RuleDiagnostics.keyLimit).map { key in
                key.count > RuleDiagnostics.keyLength ? String(key.prefix(RuleDiagnostics.keyLength)) + "…" : key
            }
            let written = prefix.map { component -> String in
                switch component {
                case .key(let key): key
                case .index(let index): "[\(index)]"
                }
            }
            return ((path.fromRoot ? "^" : "") + written.joined(separator: "."), keys)
        }
        return nil
    }

    /// Each dimension the record states, through the descriptor's map; nil for one it does not state.
    private func dimensions(_ spec: CompiledDimensions, _ context: RecordContext) -> PriceDimensions {
        func read<D: StoredDimension>(_ field: CompiledDimensions.Mapped?, as type: D.Type) -> D? {
            guard let field, let found = field.value.resolve(in: context) else { return nil }
            return field.map.resolve(found.text, as: type)
        }
        return PriceDimensions(
            speed: read(spec.speed, as: Speed.self), tier: read(spec.tier, as: ServiceTier.self),
            region: read(spec.region, as: InferenceRegion.self))
    }

    /// The record's server-tool calls, or nil when a count field holds something that is not a count.
    private func serverTools(_ spec: CompiledDimensions, _ context: RecordContext) -> ServerToolCounts? {
        var counts = ServerToolCounts()
        if let addends = spec.webSearch {
            switch readCount(addends, context) {
            case .absent: break
            case .count(let count): counts.webSearch = count
            case .invalid: return nil
            }
        }
        if let addends = spec.webFetch {
            switch readCount(addends, context) {
            case .absent: break
            case .count(let count): counts.webFetch = count
            case .invalid: return nil
            }
        }
        return counts
    }

    /// The token fields, or nil when one of them holds something that is not a count.
    private func readTokens(_ tokens: CompiledTokens, _ context: RecordContext) -> RawTokens? {
        var raw = RawTokens()
        var valid = true
        func read(_ addends: CompiledCount?) -> Int64? {
            guard let addends else { return nil }
            switch readCount(addends, context) {
            case .absent: return nil
            case .count(let count): return count
            case .invalid:
                valid = false
                return nil
            }
        }
        raw.input = read(tokens.input)
        raw.output = read(tokens.output)
        raw.cacheRead = read(tokens.cacheRead)
        raw.cacheWrite = read(tokens.cacheWrite)
        raw.cacheWrite5m = read(tokens.cacheWrite5m)
        raw.cacheWrite1h = read(tokens.cacheWrite1h)
        raw.cacheWrite12h = read(tokens.cacheWrite12h)
        raw.reasoning = read(tokens.reasoning)
        return valid ? raw : nil
    }

    private enum CountRead {
        case absent
        case count(Int64)
        case invalid
    }

    /// The sum of a count field's present addends (every element's, for a path through arrays); absent when all
    /// are absent; invalid when one is present but not a count, or the sum is above what one record may count
    /// (`TokenCounts.recordCeiling`).
    private func readCount(_ count: CompiledCount, _ context: RecordContext) -> CountRead {
        var sum: Int64?
        var invalid = false
        func add(_ found: FieldValue) -> Bool {
            guard let count = found.count else {
                invalid = true
                return false
            }
            let (next, overflow) = (sum ?? 0).addingReportingOverflow(count)
            if overflow || next > TokenCounts.recordCeiling {
                invalid = true
                return false
            }
            sum = next
            return true
        }
        if let slots = count.slots {
            for slot in slots {
                if let found = context.extracted(slot), !found.isNull, !add(found) { return .invalid }
            }
            return sum.map { .count($0) } ?? .absent
        }
        for addend in count.addends {
            switch addend {
            case .value(let value):
                if let found = value.resolve(in: context), !add(found) { return .invalid }
            case .each(let each):
                each.values(in: context, add)
                if invalid { return .invalid }
            }
        }
        return sum.map { .count($0) } ?? .absent
    }

    /// Applies the tool's counting rules, giving disjoint counts.
    private func normalize(_ raw: RawTokens, _ rule: CompiledRecord, _ context: RecordContext) -> TokenCounts {
        let cacheRead = max(raw.cacheRead ?? 0, 0)
        let write1h = max(raw.cacheWrite1h ?? 0, 0)
        let write12h = max(raw.cacheWrite12h ?? 0, 0)
        // A tool that logs all writes and the longer classes apart: the rest is the default class.
        let write5m = max(raw.cacheWrite5m ?? ((raw.cacheWrite ?? 0) - write1h - write12h), 0)
        let reasoning = max(raw.reasoning ?? 0, 0)
        var input = max(raw.input ?? 0, 0)
        var output = max(raw.output ?? 0, 0)
        let cache = cacheRead + write5m + write1h + write12h
        var loggedTotal: Int64?
        if let totalField = rule.tokens.total, case .count(let total) = readCount(totalField, context) { loggedTotal = total }
        func answer(_ flag: CountingFlag, _ conditions: [CompiledCondition]) -> CountingAnswer {
            switch flag {
            case .always(let value): value ? .yes : .no
            case .conditional(_, let then, let otherwise): conditions.allHold(in: context) ? then : otherwise
            case .auto: .auto
            case .byTotal(let otherwise, let withoutTotal): (loggedTotal == nil ? withoutTotal : otherwise) ? .yes : .no
            }
        }
        var includesCache: Bool
        switch answer(rule.counting.inputIncludesCache, rule.countingConditions.input) {
        case .yes: includesCache = true
        case .no: includesCache = false
        case .auto: includesCache = input >= cache
        }
        // `auto` is refused for reasoning by the loader; read as the usual case, reasoning inside output.
        var outputIncludesReasoning = answer(rule.counting.outputIncludesReasoning, rule.countingConditions.reasoning) != .no
        if let total = loggedTotal {
            // The reading of the counts that adds up to the logged total wins. Readings are tried from the
            // fewest flags turned against their default, so a total that cannot tell keeps the default.
            let byTotal = (input: rule.counting.inputIncludesCache.isByTotal, output: rule.counting.outputIncludesReasoning.isByTotal)
            for (flipInput, flipOutput) in [(false, false), (true, false), (false, true), (true, true)]
            where (byTotal.input || !flipInput) && (byTotal.output || !flipOutput) {
                let cacheIncluded = includesCache != flipInput
                let reasoningIncluded = outputIncludesReasoning != flipOutput
                let parts = [input, cacheIncluded ? 0 : cache, output, reasoningIncluded ? 0 : reasoning]
                let sum = parts.reduce(Int64?(0)) { sum, part in
                    sum.flatMap { let (next, overflow) = $0.addingReportingOverflow(part); return overflow ? nil : next }
                }
                if sum == total {
                    includesCache = cacheIncluded
                    outputIncludesReasoning = reasoningIncluded
                    break
                }
            }
        }
        if includesCache { input = max(input - cache, 0) }
        if !outputIncludesReasoning { output += reasoning }
        return TokenCounts(
            input: input, cacheRead: cacheRead, cacheWrite5m: write5m, cacheWrite1h: write1h, cacheWrite12h: write12h,
            output: output, reasoning: reasoning)
    }

    /// The record's alias: a hash apart from every identity (salted), or nil when its values are absent.
    private func alias(_ rule: CompiledRecord, _ context: RecordContext) -> Identity? {
        guard !rule.aliasKey.isEmpty else { return nil }
        var hasher = KeyHasher()
        hasher.combine(input.identitySpace)
        hasher.combine("alias")
        hashScope(rule.identityScope, into: &hasher)
        guard combine(rule.aliasKey, context, into: &hasher) else { return nil }
        return hasher.finalize().identity
    }

    /// Who registers an alias for every record of the group: one hash for the group, apart from every identity.
    private func aliasGroup(_ group: String) -> Identity {
        var hasher = KeyHasher()
        hasher.combine(input.identitySpace)
        hasher.combine("alias-group")
        hasher.combine(group)
        return hasher.finalize().identity
    }

    private func hashScope(_ scope: IdentityScope, into hasher: inout KeyHasher) {
        switch scope {
        case .global: break
        case .source: hasher.combine(sourceKey)
        case .fileName:
            hasher.combine("file")
            hasher.combine(fileName)
        }
    }

    /// The identity older versions gave the record, from the descriptor's `former` key, hashed as they did (an
    /// object as its bytes); nil when that key is incomplete.
    private func formerIdentity(_ rule: CompiledRecord, _ context: RecordContext) -> Identity? {
        var hasher = KeyHasher()
        hasher.combine(input.identitySpace)
        hashScope(rule.formerScope, into: &hasher)
        guard combine(rule.formerKey, context, into: &hasher) else { return nil }
        let (identity, asWritten) = hasher.finalize()
        return asWritten ?? identity
    }

    /// Hashes the values of a key in order; false when one is absent (the hash is then of no use).
    private func combine(_ key: [CompiledValue], _ context: RecordContext, into hasher: inout KeyHasher) -> Bool {
        for value in key {
            guard let found = value.resolve(in: context) else { return false }
            hasher.combine(found)
        }
        return true
    }

    /// The record's identity from the descriptor's key (or fallback). A record with neither is named by
    /// its own content, so reading a file again after a truncation or rewrite cannot count it twice; two
    /// byte-identical records are one record written twice. `fromKey` says which: a content identity is kept
    /// under `first`. A key's objects and arrays are hashed in their canonical text (`CanonicalJSON`); `legacy`
    /// is the hash of their bytes as written, which older versions stored, when it is another.
    private func identity(
        _ rule: CompiledRecord, _ context: RecordContext
    ) -> (value: Identity, legacy: Identity?, fromKey: Bool) {
        for key in [rule.identityKey, rule.identityFallback] where !key.isEmpty {
            var hasher = KeyHasher()
            hasher.combine(input.identitySpace)
            hashScope(rule.identityScope, into: &hasher)
            guard combine(key, context, into: &hasher) else { continue }
            let (identity, legacy) = hasher.finalize()
            return (identity, rule.formerKey.isEmpty ? legacy : formerIdentity(rule, context), true)
        }
        var hasher = IdentityHasher()
        hasher.combine(input.identitySpace)
        hasher.combine("content")
        // The whole line, and for a selected element its entry key and the element: two equal elements of
        // different lines (other timestamps, other sessions) stay two records.
        FieldValue.composite(context.root, ParserReference(context.parser)).hash(into: &hasher)
        if context.element != context.root {
            hasher.combine(context.entryKey ?? "")
            FieldValue.composite(context.element, ParserReference(context.parser)).hash(into: &hasher)
        }
        return (hasher.finalize(), nil, false)
    }

    private func readLimits(
        _ rule: CompiledLimit, _ context: RecordContext, line: Int, into result: inout SourceReadResult
    ) {
        // A window is read when its used percent is present; a line with none holds no reading.
        let before = result.limits.count
        var time: Int64?
        for window in rule.windows {
            guard let used = window.usedPercent?.resolve(in: context)?.double else { continue }
            if time == nil {
                let logged = rule.time.flatMap { spec in
                    spec.value.resolve(in: context).flatMap { TimeParsing.milliseconds($0, format: spec.format, timeZone: timeZone) }
                }
                time = rule.time == nil ? readAt : logged
                guard time != nil else {
                    result.skip(SkipReason.badLimitTime, line: line, problem: true)
                    return
                }
            }
            result.limits.append(sample(window, used: used, at: time!, context))
        }
        // As for a record: bytes that are not UTF-8 spoil a reading only when it was read from them.
        if time != nil, context.parser.readReplacedText {
            result.limits.removeSubrange(before...)
            result.skip(SkipReason.malformedJSON, line: line, problem: true)
        }
    }

    private func sample(_ window: CompiledWindow, used: Double, at time: Int64, _ context: RecordContext) -> LimitSample {
        var resetsAt = window.resetsAt.flatMap { at in
            at.value.resolve(in: context).flatMap { TimeParsing.milliseconds($0, format: at.format, timeZone: timeZone) }
        }
        if resetsAt == nil, let seconds = window.resetsIn?.resolve(in: context)?.double, seconds.isFinite {
            resetsAt = time + Int64((seconds * 1000).rounded())
        }
        let minutes = window.windowMinutes?.resolve(in: context)?.count
        return LimitSample(
            tool: input.tool, time: time, window: minutes.flatMap(window.name(minutes:)) ?? window.name,
            usedPercent: used, windowMinutes: minutes, resetsAt: resetsAt)
    }
}

/// The last few model ids read and their sanitized forms: a source names the same model record after record, or
/// alternates between a few (a main model and a smaller one for side tasks), and so do the sources of one tool, so an
/// id's bytes are compared with them, and it is read into a string and sanitized only when it is none of them. Used by
/// one reader's thread.
final class ModelCache {
    private static let capacity = 4
    // One reader's thread, record after record: checked for exclusive access at compile time only.
    @exclusivity(unchecked) private var entries: [(raw: [UInt8], clean: String)] = []

    func sanitized(_ value: FieldValue) -> String {
        if case .bytes(let bytes) = value { return sanitized(bytes) }
        var text = value.text
        return text.withUTF8 { sanitized(UnsafeRawBufferPointer($0)) }
    }

    private func sanitized(_ bytes: UnsafeRawBufferPointer) -> String {
        for index in entries.indices {
            let same = entries[index].raw.withUnsafeBytes { known in
                known.count == bytes.count && (bytes.isEmpty || memcmp(known.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
            }
            if same { return entries[index].clean }
        }
        let clean = ModelID.sanitize(String(decoding: bytes, as: UTF8.self))
        if entries.count == Self.capacity { entries.removeFirst() }
        entries.append((Array(bytes), clean))
        return clean
    }
}
