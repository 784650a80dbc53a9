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
    /// When the document was read (milliseconds since 1970): the time of readings whose rule names no time of
    /// its own (a status line's). Nil for logs, whose readings must carry their time.
    let readAt: Int64?
    /// One parser per `decode` field, so decoded JSON never invalidates the outer document's values.
    private let decodeParsers: [JSONParser]
    private let modelCache = ModelCache()

    init(input: CompiledInput, timeZone: TimeZone, sourceKey: String, readAt: Int64? = nil) {
        self.input = input
        self.timeZone = timeZone
        self.sourceKey = sourceKey
        self.readAt = readAt
        let decodeCount = input.records.map(\.decode.count).max() ?? 0
        decodeParsers = (0..<decodeCount).map { _ in JSONParser() }
    }

    /// `siblings`: values read from documents beside a `json` source, given to its records by their time.
    func process(
        root: JSONRef, parser: JSONParser, line: Int, state: inout SourceState, into result: inout SourceReadResult,
        siblings: SiblingValues? = nil
    ) {
        let lineContext = RecordContext(
            parser: parser, root: root, element: root, entryKey: nil, variables: state.variables, decoded: [])
        for rule in input.carry where rule.match.allHold(in: lineContext) {
            for (name, value) in rule.set {
                if let resolved = value.resolve(in: lineContext) { state.variables[name] = resolved.text }
            }
        }
        let context = RecordContext(
            parser: parser, root: root, element: root, entryKey: nil, variables: state.variables, decoded: [])
        for rule in input.limits where rule.match.allHold(in: context) {
            readLimits(rule, context, line: line, into: &result)
        }
        for rule in input.records {
            if let pointer = rule.selectPointer, let select = rule.select {
                guard let container = parser.value(at: pointer, in: root) else { continue }
                var matched = false
                switch (select.kind, container) {
                case (.arrayElements, .array(let ref)):
                    for element in parser.elements(of: ref) {
                        let c = elementContext(rule, parser, root, element, nil, state.variables)
                        if rule.match.allHold(in: c) {
                            matched = true
                            readRecord(rule, c, line: line, state: &state, into: &result, siblings: siblings)
                        }
                    }
                case (.objectEntries, .object(let ref)):
                    for (key, element) in parser.entries(of: ref) {
                        let c = elementContext(rule, parser, root, element, key, state.variables)
                        if rule.match.allHold(in: c) {
                            matched = true
                            readRecord(rule, c, line: line, state: &state, into: &result, siblings: siblings)
                        }
                    }
                default: break
                }
                if matched { return }
            } else {
                let c = elementContext(rule, parser, root, root, nil, state.variables)
                if rule.match.allHold(in: c) {
                    readRecord(rule, c, line: line, state: &state, into: &result, siblings: siblings)
                    return
                }
            }
        }
    }

    private func elementContext(
        _ rule: CompiledRecord, _ parser: JSONParser, _ root: JSONRef, _ element: JSONRef, _ key: String?,
        _ variables: [String: String]
    ) -> RecordContext {
        var context = RecordContext(
            parser: parser, root: root, element: element, entryKey: key, variables: variables, decoded: [])
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
        if let skip = rule.skip.first(where: { $0.when.allHold(in: context) }) {
            result.skip(skip.reason, line: line)
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
            return
        }
        var context = context
        if let siblings { context.variables = siblings.applied(to: context.variables, at: time) }
        guard var raw = readTokens(rule.tokens, context) else {
            result.skip(SkipReason.badValue, line: line, problem: true)
            return
        }
        var cost = rule.cost?.resolve(in: context)
        // A cost that stands for the usage (a cost-only record, a running cost) must be a real amount.
        if rule.costOnly || rule.cumulativeCost, let found = cost {
            guard let amount = found.double, amount.isFinite, amount >= 0 else {
                result.skip(SkipReason.badValue, line: line, problem: true)
                return
            }
            if rule.cumulativeCost { raw.cost = amount }
        }
        if rule.cumulative {
            let key = rule.cumulativeKey.map { $0.resolve(in: context)?.text ?? "" }.joined(separator: "\u{1F}")
            if raw.isAbsent {
                guard let fallback = rule.fallbackTokens, let delta = readTokens(fallback, context), !delta.isAbsent else {
                    result.skip(SkipReason.noUsage, line: line)
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
                let previous = state.baselines[key] ?? RawTokens()
                state.baselines[key] = raw
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
            result.skip(SkipReason.noUsage, line: line)
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
        let model = rule.model?.resolve(in: context).map { modelCache.sanitized($0.text) } ?? ModelID.unknown
        let identity = identity(rule, context)
        result.events.append(
            TokenEvent(
                tool: input.tool, time: time, model: model, counts: counts,
                loggedCost: loggedCost, identity: identity.value,
                keep: identity.fromKey ? rule.keep : .first,
                alias: alias(rule, context), checkAlias: !rule.aliasKey.isEmpty && rule.aliasCheck.allHold(in: context),
                estimated: rule.estimated, dimensions: dimensions(rule.dimensions, context), serverTools: serverTools))
    }

    /// Each dimension the record states, through the descriptor's map; nil for one it does not state.
    private func dimensions(_ spec: CompiledDimensions, _ context: RecordContext) -> PriceDimensions {
        func read<D: StoredDimension>(_ field: (value: CompiledValue, map: MappedValue)?, as type: D.Type) -> D? {
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
        for (addends, path) in [(spec.webSearch, \ServerToolCounts.webSearch), (spec.webFetch, \.webFetch)] {
            guard let addends else { continue }
            switch readCount(addends, context) {
            case .absent: continue
            case .count(let count): counts[keyPath: path] = count
            case .invalid: return nil
            }
        }
        return counts
    }

    /// The token fields, or nil when one of them holds something that is not a count.
    private func readTokens(_ tokens: CompiledTokens, _ context: RecordContext) -> RawTokens? {
        var raw = RawTokens()
        var valid = true
        func read(_ addends: [CompiledValue]?) -> Int64? {
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
        raw.reasoning = read(tokens.reasoning)
        return valid ? raw : nil
    }

    private enum CountRead {
        case absent
        case count(Int64)
        case invalid
    }

    /// The sum of a count field's present addends; absent when all are absent; invalid when one is present
    /// but not a count, or the sum overflows.
    private func readCount(_ addends: [CompiledValue], _ context: RecordContext) -> CountRead {
        var sum: Int64?
        for value in addends {
            guard let found = value.resolve(in: context) else { continue }
            guard let count = found.count else { return .invalid }
            let (next, overflow) = (sum ?? 0).addingReportingOverflow(count)
            if overflow { return .invalid }
            sum = next
        }
        return sum.map { .count($0) } ?? .absent
    }

    /// Applies the tool's counting rules, giving disjoint counts.
    private func normalize(_ raw: RawTokens, _ rule: CompiledRecord, _ context: RecordContext) -> TokenCounts {
        let cacheRead = max(raw.cacheRead ?? 0, 0)
        let write1h = max(raw.cacheWrite1h ?? 0, 0)
        let write5m = max(raw.cacheWrite5m ?? ((raw.cacheWrite ?? 0) - write1h), 0)
        let reasoning = max(raw.reasoning ?? 0, 0)
        var input = max(raw.input ?? 0, 0)
        var output = max(raw.output ?? 0, 0)
        let cache = cacheRead + write5m + write1h
        func answer(_ flag: CountingFlag, _ conditions: [CompiledCondition]) -> CountingAnswer {
            switch flag {
            case .always(let value): value ? .yes : .no
            case .conditional(_, let then, let otherwise): conditions.allHold(in: context) ? then : otherwise
            case .auto: .auto
            case .byTotal(let otherwise): otherwise ? .yes : .no
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
        if let totalField = rule.tokens.total, case .count(let total) = readCount(totalField, context) {
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
            input: input, cacheRead: cacheRead, cacheWrite5m: write5m, cacheWrite1h: write1h, output: output,
            reasoning: reasoning)
    }

    /// The record's alias: a hash apart from every identity (salted), or nil when its values are absent.
    private func alias(_ rule: CompiledRecord, _ context: RecordContext) -> Identity? {
        guard !rule.aliasKey.isEmpty else { return nil }
        let values = rule.aliasKey.map { $0.resolve(in: context) }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        var hasher = IdentityHasher()
        hasher.combine(input.identitySpace)
        hasher.combine("alias")
        if rule.identityScope == .source { hasher.combine(sourceKey) }
        for value in values { value!.hash(into: &hasher) }
        return hasher.finalize()
    }

    /// The record's identity from the descriptor's key (or fallback). A record with neither is named by
    /// its own content, so reading a file again after a truncation or rewrite cannot count it twice; two
    /// byte-identical records are one record written twice. `fromKey` says which: a content identity is kept
    /// under `first`.
    private func identity(_ rule: CompiledRecord, _ context: RecordContext) -> (value: Identity, fromKey: Bool) {
        for key in [rule.identityKey, rule.identityFallback] where !key.isEmpty {
            let values = key.map { $0.resolve(in: context) }
            guard values.allSatisfy({ $0 != nil }) else { continue }
            var hasher = IdentityHasher()
            hasher.combine(input.identitySpace)
            if rule.identityScope == .source { hasher.combine(sourceKey) }
            for value in values { value!.hash(into: &hasher) }
            return (hasher.finalize(), true)
        }
        var hasher = IdentityHasher()
        hasher.combine(input.identitySpace)
        hasher.combine("content")
        // The whole line, and for a selected element its entry key and the element: two equal elements of
        // different lines (other timestamps, other sessions) stay two records.
        FieldValue.composite(context.root, context.parser).hash(into: &hasher)
        if context.element != context.root {
            hasher.combine(context.entryKey ?? "")
            FieldValue.composite(context.element, context.parser).hash(into: &hasher)
        }
        return (hasher.finalize(), false)
    }

    private func readLimits(
        _ rule: CompiledLimit, _ context: RecordContext, line: Int, into result: inout SourceReadResult
    ) {
        // A window is read when its used percent is present; a line with none holds no reading.
        let readings = rule.windows.compactMap { window in
            window.usedPercent?.resolve(in: context)?.double.map { (window, $0) }
        }
        guard !readings.isEmpty else { return }
        let logged = rule.time.flatMap { spec in
            spec.value.resolve(in: context).flatMap { TimeParsing.milliseconds($0, format: spec.format, timeZone: timeZone) }
        }
        guard let time = rule.time == nil ? readAt : logged else {
            result.skip(SkipReason.badLimitTime, line: line, problem: true)
            return
        }
        for (window, used) in readings {
            var resetsAt = window.resetsAt.flatMap { at in
                at.value.resolve(in: context).flatMap { TimeParsing.milliseconds($0, format: at.format, timeZone: timeZone) }
            }
            if resetsAt == nil, let seconds = window.resetsIn?.resolve(in: context)?.double, seconds.isFinite {
                resetsAt = time + Int64((seconds * 1000).rounded())
            }
            result.limits.append(
                LimitSample(
                    tool: input.tool, time: time, window: window.name, usedPercent: used,
                    windowMinutes: window.windowMinutes?.resolve(in: context)?.count, resetsAt: resetsAt))
        }
    }
}

/// The last model id seen and its sanitized form: a source names the same model record after record.
private final class ModelCache {
    private var raw = ""
    private var clean = ModelID.unknown

    func sanitized(_ text: String) -> String {
        if text != raw {
            raw = text
            clean = ModelID.sanitize(text)
        }
        return clean
    }
}

/// Model ids as stored and shown: only the characters model ids use, so nothing else from a log can ride
/// along in this one free-text field. Pure byte checks: this runs once per record, on every core.
enum ModelID {
    static let unknown = "unknown"

    static func sanitize(_ text: String) -> String {
        var bytes = Substring(text).utf8[...]
        while bytes.first == 0x20 { bytes = bytes.dropFirst() }
        while bytes.last == 0x20 { bytes = bytes.dropLast() }
        let allowed = bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D || byte == 0x3A || byte == 0x40 || byte == 0x2B
                || byte == 0x2F
        }
        guard allowed, !bytes.isEmpty, bytes.count <= 100, bytes.first != 0x2F,
            !zip(bytes, bytes.dropFirst()).contains(where: { $0 == 0x2F && $1 == 0x2F })
        else { return unknown }
        return String(Substring(bytes))
    }
}
