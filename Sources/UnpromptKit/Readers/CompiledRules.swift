import Foundation

/// A descriptor input with every path turned into a JSON pointer, once, before the first line is read
/// (its patterns were compiled by the loader). Immutable, so one is shared by every worker that reads its
/// sources; each reader keeps its own parsers and buffers.
final class CompiledInput: Sendable {
    /// The format, with the part of the rules only it has.
    enum FormatRules: Sendable {
        /// With a journal: the lines rebuild one document (`JournalReader`).
        case jsonl(CompiledJournal?)
        /// For `json` inputs: the rules that read values from documents beside the source.
        case json(CompiledSiblings?)
        case sqlite([SQLQuery])
        case text([TextPattern])
    }

    let formatRules: FormatRules
    let tool: String
    let identitySpace: String
    let prefilter: [[UInt8]]
    let carry: [CompiledCarry]
    let records: [CompiledRecord]
    let limits: [CompiledLimit]
    /// Every path read from the line's root, looked up in one walk per line (see `CompiledPath.slot`): each
    /// reader builds its `JSONPathSet` from these.
    let rootPointers: [JSONPointer]
    /// A value or condition of these rules matches a pattern, which may use up its work (`BoundedMatch`): only
    /// then must a line's reading be undone when one did.
    let usesPatterns: Bool

    var format: Format {
        switch formatRules {
        case .jsonl: .jsonl
        case .json: .json
        case .sqlite: .sqlite
        case .text: .text
        }
    }

    /// What these rules were compiled from (`compiledAgain`).
    private let input: Input
    private let descriptor: Descriptor

    init(_ input: Input, descriptor: Descriptor) {
        self.input = input
        self.descriptor = descriptor
        let compiler = RuleCompiler()
        formatRules =
            switch input.formatRules {
            case .jsonl(let journal): .jsonl(journal.map(CompiledJournal.init))
            case .json(let siblings): .json(siblings.isEmpty ? nil : CompiledSiblings(siblings))
            case .sqlite(let queries): .sqlite(queries)
            case .text(let patterns): .text(patterns)
            }
        tool = descriptor.id
        identitySpace = descriptor.identitySpace
        prefilter = input.prefilter
        carry = input.carry.map { rule in
            CompiledCarry(
                match: rule.match.map { compiler.condition($0, scope: .line) },
                set: rule.set.map { ($0.name, compiler.value($0.value, scope: .line)) })
        }
        records = input.records.enumerated().map { CompiledRecord($1, index: $0, compiler) }
        limits = input.limits.map { rule in
            // With `select`, the paths are read inside each element (`^path` from the line), as for records.
            let scope = RuleCompiler.Scope(fromLine: rule.select == nil, decode: [])
            return CompiledLimit(
                select: rule.select.map { ($0.kind, RuleCompiler.pointer($0.path)) },
                match: rule.match.map { compiler.condition($0, scope: scope) },
                time: rule.time.map { CompiledTime(value: compiler.value($0.value, scope: scope), format: $0.format) },
                windows: rule.windows.map { window in
                    CompiledWindow(
                        name: window.name, namesByMinutes: window.namesByMinutes,
                        usedPercent: window.usedPercent.map { compiler.value($0, scope: scope) },
                        windowMinutes: window.windowMinutes.map { compiler.value($0, scope: scope) },
                        resetsAt: window.resetsAt.map {
                            CompiledTime(value: compiler.value($0.value, scope: scope), format: $0.format)
                        },
                        resetsIn: window.resetsIn.map { compiler.value($0, scope: scope) })
                })
        }
        rootPointers = compiler.rootPointers
        usesPatterns = compiler.compiledPatterns
    }

    /// The same rules in objects of their own, for one worker thread: reading retains and releases the rules'
    /// objects at every record, and on objects two threads share each of those moves a cache line between the
    /// cores (measured: an eighth of a two-core dry run's time).
    func compiledAgain() -> CompiledInput {
        CompiledInput(input, descriptor: descriptor)
    }
}

/// Compiles paths, values and conditions, and gives every path read from the line's root a slot in
/// the input's `JSONPathSet`.
final class RuleCompiler {
    /// Where a rule's relative paths start: the whole line, or elements picked by `select`; and which
    /// string fields along the way hold JSON.
    struct Scope {
        var fromLine: Bool
        var decode: [FieldPath]

        static let line = Scope(fromLine: true, decode: [])
    }

    private(set) var rootPointers: [JSONPointer] = []
    private var slots: [JSONPointer: Int] = [:]
    /// A value or condition compiled so far matches a pattern.
    private(set) var compiledPatterns = false

    func path(_ path: FieldPath, scope: Scope) -> CompiledPath {
        let pointer = Self.pointer(path)
        if !path.fromRoot {
            for (index, field) in scope.decode.enumerated()
            where path.components.count > field.components.count
                && Array(path.components.prefix(field.components.count)) == field.components
            {
                let inner = FieldPath(
                    components: Array(path.components.dropFirst(field.components.count)), fromRoot: false, text: path.text)
                return CompiledPath(pointer: pointer, fromRoot: false, decoded: (index, Self.pointer(inner)), slot: nil)
            }
            if !scope.fromLine { return CompiledPath(pointer: pointer, fromRoot: false, decoded: nil, slot: nil) }
        }
        return CompiledPath(pointer: pointer, fromRoot: path.fromRoot, decoded: nil, slot: slot(for: pointer))
    }

    func value(_ value: ValueSpec, scope: Scope) -> CompiledValue {
        if !value.patterns.isEmpty { compiledPatterns = true }
        return CompiledValue(
            alternatives: value.alternatives.map { source in
                switch source {
                case .path(let p): .path(path(p, scope: scope))
                case .variable(let name): .variable(name)
                case .entryKey: .entryKey
                case .elementIndex: .elementIndex
                case .constant(let text): .constant(text)
                case .lookup(let lookup):
                    .lookup(
                        CompiledLookup(
                            array: path(lookup.array, scope: scope),
                            match: lookup.match.map { (Self.pointer($0.field), self.value($0.value, scope: scope)) },
                            path: Self.pointer(lookup.path)))
                }
            },
            patterns: value.patterns.map(\.regex))
    }

    func condition(_ condition: Condition, scope: Scope) -> CompiledCondition {
        if case .matches = condition.test { compiledPatterns = true }
        switch condition.subject {
        case .path(let field): return CompiledCondition(path: path(field, scope: scope), variable: nil, test: condition.test)
        case .variable(let name): return CompiledCondition(path: nil, variable: name, test: condition.test)
        }
    }

    /// A path through arrays: its first step as a path of the record, the rest as pointers inside each element.
    func each(_ list: ListPath, scope: Scope) -> CompiledEach {
        CompiledEach(
            first: list.steps.first.flatMap { $0 }.map { path($0, scope: scope) },
            rest: list.steps.dropFirst().map { $0.map(Self.pointer) })
    }

    /// A value whose paths are placed under `base` (`tokens_at`, `fallback_at`), when there is one.
    func value(_ value: ValueSpec, under base: FieldPath?, scope: Scope) -> CompiledValue {
        guard let base else { return self.value(value, scope: scope) }
        let rebased = ValueSpec(
            alternatives: value.alternatives.map { source in
                guard case .path(let path) = source else { return source }
                return .path(Self.path(path, under: base))
            }, patterns: value.patterns, mark: value.mark)
        return self.value(rebased, scope: scope)
    }

    /// A count's addends, each path placed under `base` (`tokens_at`, `fallback_at`), when there is one.
    func addends(_ count: CountSpec, under base: FieldPath?, scope: Scope) -> CompiledCount {
        CompiledCount(count.addends.map { addend in
            switch addend {
            case .each(let list):
                let steps = [list.steps.first.flatMap { $0 }.map { Self.path($0, under: base) } ?? base] + list.steps.dropFirst()
                return .each(each(ListPath(steps: steps, text: list.text), scope: scope))
            case .value(let value):
                return .value(self.value(value, under: base, scope: scope))
            }
        })
    }

    /// Token fields, each path placed under `base` when the descriptor gives `tokens_at` or `fallback_at`.
    func tokens(_ spec: TokenSpec, under base: FieldPath?, scope: Scope) -> CompiledTokens {
        func field(_ count: CountSpec?) -> CompiledCount? { count.map { addends($0, under: base, scope: scope) } }
        return CompiledTokens(
            input: field(spec.input), output: field(spec.output), cacheRead: field(spec.cacheRead),
            cacheWrite: field(spec.cacheWrite), cacheWrite5m: field(spec.cacheWrite5m),
            cacheWrite1h: field(spec.cacheWrite1h), cacheWrite12h: field(spec.cacheWrite12h), reasoning: field(spec.reasoning),
            total: field(spec.total))
    }

    /// A token field's path below `tokens_at` (or `fallback_at`); a path from the line's root stays as written.
    static func path(_ path: FieldPath, under base: FieldPath?) -> FieldPath {
        guard let base, !path.fromRoot else { return path }
        return FieldPath(components: base.components + path.components, fromRoot: base.fromRoot, text: "\(base).\(path)")
    }

    private func slot(for pointer: JSONPointer) -> Int {
        if let slot = slots[pointer] { return slot }
        rootPointers.append(pointer)
        slots[pointer] = rootPointers.count - 1
        return rootPointers.count - 1
    }

    static func pointer(_ path: FieldPath) -> JSONPointer {
        JSONPointer(path.components.map { component in
            switch component {
            case .key(let key): .key(key)
            case .index(let index): .index(index)
            }
        })
    }
}

// The compiled rules are classes: the hot loop passes them by reference instead of copying (and
// retaining) every field of a large struct. Every field is a `let`, so they are `Sendable` as the compiler
// checks it.

final class CompiledCarry: Sendable {
    let match: [CompiledCondition]
    let set: [(String, CompiledValue)]

    init(match: [CompiledCondition], set: [(String, CompiledValue)]) {
        self.match = match
        self.set = set
    }
}

final class CompiledTime: Sendable {
    let value: CompiledValue
    let format: TimeFormat

    init(value: CompiledValue, format: TimeFormat) {
        self.value = value
        self.format = format
    }
}

final class CompiledLimit: Sendable {
    let select: (kind: Selection.Kind, pointer: JSONPointer)?
    let match: [CompiledCondition]
    let time: CompiledTime?
    let windows: [CompiledWindow]

    init(
        select: (kind: Selection.Kind, pointer: JSONPointer)?, match: [CompiledCondition], time: CompiledTime?,
        windows: [CompiledWindow]
    ) {
        self.select = select
        self.match = match
        self.time = time
        self.windows = windows
    }
}

final class CompiledWindow: Sendable {
    let name: String
    /// `names_by_minutes` as pairs: a window has a few, found by comparing, not by hashing the minutes sample by sample.
    private let namesByMinutes: [(minutes: Int64, name: String)]
    let usedPercent: CompiledValue?
    let windowMinutes: CompiledValue?
    let resetsAt: CompiledTime?
    let resetsIn: CompiledValue?

    init(
        name: String, namesByMinutes: [Int64: String], usedPercent: CompiledValue?, windowMinutes: CompiledValue?,
        resetsAt: CompiledTime?, resetsIn: CompiledValue?
    ) {
        self.name = name
        self.namesByMinutes = namesByMinutes.map { ($0.key, $0.value) }
        self.usedPercent = usedPercent
        self.windowMinutes = windowMinutes
        self.resetsAt = resetsAt
        self.resetsIn = resetsIn
    }

    /// The window's name for a length in minutes, when `names_by_minutes` gives one.
    func name(minutes: Int64) -> String? {
        namesByMinutes.first { $0.minutes == minutes }?.name
    }
}

/// One item of a count's sum: a value, or every value a path through arrays reaches.
enum CompiledAddend: Sendable {
    case value(CompiledValue)
    case each(CompiledEach)
}

/// A count field: the values whose sum it is (one value unless the descriptor wrote `sum`).
final class CompiledCount: Sendable {
    let addends: [CompiledAddend]
    /// Each addend's slot (`CompiledValue.rootSlot`) when every addend is a path read from the line's root: the
    /// usual count, read without copying its addends.
    let slots: [Int]?

    init(_ addends: [CompiledAddend]) {
        self.addends = addends
        let slots = addends.compactMap { addend -> Int? in
            guard case .value(let value) = addend else { return nil }
            return value.rootSlot
        }
        self.slots = slots.count == addends.count ? slots : nil
    }
}

/// Each count field as the values whose sum it is.
final class CompiledTokens: Sendable {
    let input, output, cacheRead, cacheWrite, cacheWrite5m, cacheWrite1h, cacheWrite12h, reasoning, total: CompiledCount?

    init(
        input: CompiledCount?, output: CompiledCount?, cacheRead: CompiledCount?, cacheWrite: CompiledCount?,
        cacheWrite5m: CompiledCount?, cacheWrite1h: CompiledCount?, cacheWrite12h: CompiledCount?,
        reasoning: CompiledCount?, total: CompiledCount?
    ) {
        self.input = input
        self.output = output
        self.cacheRead = cacheRead
        self.cacheWrite = cacheWrite
        self.cacheWrite5m = cacheWrite5m
        self.cacheWrite1h = cacheWrite1h
        self.cacheWrite12h = cacheWrite12h
        self.reasoning = reasoning
        self.total = total
    }
}

/// The `dimensions:` block, its paths under `tokens_at`.
final class CompiledDimensions: Sendable {
    /// A dimension's value, and the map from what the log writes to the dimension's case: one reference, where a
    /// pair of them would be copied and counted record by record.
    final class Mapped: Sendable {
        let value: CompiledValue
        let map: MappedValue

        init(value: CompiledValue, map: MappedValue) {
            self.value = value
            self.map = map
        }
    }

    let speed, tier, region: Mapped?
    let webSearch, webFetch: CompiledCount?

    init(_ spec: DimensionSpec, under base: FieldPath?, _ compiler: RuleCompiler, scope: RuleCompiler.Scope) {
        func mapped(_ spec: MappedValue?) -> Mapped? {
            spec.map { Mapped(value: compiler.value($0.value, under: base, scope: scope), map: $0) }
        }
        speed = mapped(spec.speed)
        tier = mapped(spec.tier)
        region = mapped(spec.region)
        webSearch = spec.webSearch.map { compiler.addends($0, under: base, scope: scope) }
        webFetch = spec.webFetch.map { compiler.addends($0, under: base, scope: scope) }
    }
}

final class CompiledRecord: Sendable {
    let name: String
    let match: [CompiledCondition]
    let select: Selection?
    let selectPointer: JSONPointer?
    let decode: [JSONPointer]
    let skip: [(reason: String, when: [CompiledCondition])]
    let time: CompiledTime
    let model: CompiledValue?
    let tokens: CompiledTokens
    /// The same token fields under `cumulative.fallback_at`.
    let fallbackTokens: CompiledTokens?
    let counting: CountingRules
    let countingConditions: (input: [CompiledCondition], reasoning: [CompiledCondition])
    let cumulative: Bool
    /// The logged cost is a running total (`cumulative.cost`).
    let cumulativeCost: Bool
    /// The record logs only a cost: no token field.
    let costOnly: Bool
    let cumulativeKey: [CompiledValue]
    let identityKey: [CompiledValue]
    let identityFallback: [CompiledValue]
    let identityScope: IdentityScope
    let formerKey: [CompiledValue]
    let formerScope: IdentityScope
    let aliasKey: [CompiledValue]
    let aliasCheck: [CompiledCondition]
    let aliasGroup: String?
    let keep: KeepRule
    let cost: CompiledValue?
    let estimated: Bool
    let dimensions: CompiledDimensions
    /// The rule's place in its input, for its `ReadDiagnostics`.
    let index: Int
    /// The token paths as written (below `tokens_at`), for the dry run's `no-usage` warning.
    let tokenPaths: [FieldPath]
    /// The same, for its `near-miss` warning.
    let nearMissPaths: NearMiss.Paths

    init(_ rule: RecordRule, index: Int, _ compiler: RuleCompiler) {
        let scope = RuleCompiler.Scope(fromLine: rule.select == nil, decode: rule.decode)
        self.index = index
        tokenPaths = Self.tokenPaths(of: rule)
        nearMissPaths = NearMiss.Paths(tokenPaths)
        name = rule.name
        match = rule.match.map { compiler.condition($0, scope: scope) }
        select = rule.select
        selectPointer = rule.select.map { RuleCompiler.pointer($0.path) }
        decode = rule.decode.map(RuleCompiler.pointer)
        skip = rule.skip.map { ($0.reason, $0.when.map { compiler.condition($0, scope: scope) }) }
        time = CompiledTime(value: compiler.value(rule.time.value, scope: scope), format: rule.time.format)
        model = rule.model.map { compiler.value($0, scope: scope) }
        tokens = compiler.tokens(rule.tokens, under: rule.tokensAt, scope: scope)
        fallbackTokens = rule.cumulative?.fallbackAt.map { compiler.tokens(rule.tokens, under: $0, scope: scope) }
        counting = rule.counting
        func conditions(_ flag: CountingFlag) -> [CompiledCondition] {
            if case .conditional(let when, _, _) = flag { return when.map { compiler.condition($0, scope: scope) } }
            return []
        }
        countingConditions = (conditions(rule.counting.inputIncludesCache), conditions(rule.counting.outputIncludesReasoning))
        cumulative = rule.cumulative != nil
        cumulativeCost = rule.cumulative?.cost ?? false
        costOnly = [tokens.input, tokens.output, tokens.cacheRead, tokens.cacheWrite, tokens.cacheWrite5m, tokens.cacheWrite1h,
            tokens.cacheWrite12h, tokens.reasoning].allSatisfy { $0 == nil }
        cumulativeKey = (rule.cumulative?.key ?? []).map { compiler.value($0, scope: scope) }
        identityKey = (rule.identity?.key ?? []).map { compiler.value($0, scope: scope) }
        identityFallback = (rule.identity?.fallback ?? []).map { compiler.value($0, scope: scope) }
        identityScope = rule.identity?.scope ?? .global
        formerKey = (rule.identity?.former?.key ?? []).map { compiler.value($0, scope: scope) }
        formerScope = rule.identity?.former?.scope ?? .global
        aliasKey = (rule.identity?.alias?.key ?? []).map { compiler.value($0, scope: scope) }
        aliasCheck = (rule.identity?.alias?.checkWhen ?? []).map { compiler.condition($0, scope: scope) }
        aliasGroup = rule.identity?.alias?.group
        keep = rule.identity?.keep ?? .first
        cost = rule.cost.map { compiler.value($0, scope: scope) }
        estimated = rule.estimated
        dimensions = CompiledDimensions(rule.dimensions, under: rule.tokensAt, compiler, scope: scope)
    }
}

extension CompiledRecord {
    /// The paths a rule's token fields are read from, in field order, as written (below `tokens_at`).
    static func tokenPaths(of rule: RecordRule) -> [FieldPath] {
        [
            rule.tokens.input, rule.tokens.output, rule.tokens.cacheRead, rule.tokens.cacheWrite, rule.tokens.cacheWrite5m,
            rule.tokens.cacheWrite1h, rule.tokens.cacheWrite12h, rule.tokens.reasoning,
        ].compactMap { $0 }.flatMap(\.addends).flatMap { addend -> [FieldPath] in
            switch addend {
            case .value(let value):
                return value.alternatives.compactMap { source in
                    guard case .path(let path) = source else { return nil }
                    return RuleCompiler.path(path, under: rule.tokensAt)
                }
            // A sum over an array: the array's own path (where its elements are looked for).
            case .each(let list):
                return [list.steps.first.flatMap { $0 }.map { RuleCompiler.path($0, under: rule.tokensAt) } ?? rule.tokensAt]
                    .compactMap { $0 }
            }
        }
    }
}
