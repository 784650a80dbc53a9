import Foundation

/// A descriptor input with every path turned into a JSON pointer and every pattern compiled, once,
/// before the first line is read.
final class CompiledInput {
    let tool: String
    let identitySpace: String
    let prefilter: [[UInt8]]
    let carry: [CompiledCarry]
    let records: [CompiledRecord]
    let limits: [CompiledLimit]

    init(_ input: Input, descriptor: Descriptor) {
        tool = descriptor.id
        identitySpace = descriptor.identitySpace
        prefilter = input.prefilter
        carry = input.carry.map { rule in
            CompiledCarry(
                match: rule.match.map { compile($0, decode: []) },
                set: rule.set.map { ($0.name, compile($0.value, decode: [])) })
        }
        records = input.records.map { CompiledRecord($0) }
        limits = input.limits.map { rule in
            CompiledLimit(
                match: rule.match.map { compile($0, decode: []) },
                time: rule.time.map { CompiledTime(value: compile($0.value, decode: []), format: $0.format) },
                windows: rule.windows.map { window in
                    CompiledWindow(
                        name: window.name,
                        usedPercent: window.usedPercent.map { compile($0, decode: []) },
                        windowMinutes: window.windowMinutes.map { compile($0, decode: []) },
                        resetsAt: window.resetsAt.map { CompiledTime(value: compile($0.value, decode: []), format: $0.format) },
                        resetsIn: window.resetsIn.map { compile($0, decode: []) })
                })
        }
    }
}

// The compiled rules are classes: the hot loop passes them by reference instead of copying (and
// retaining) every field of a large struct.

final class CompiledCarry {
    let match: [CompiledCondition]
    let set: [(String, CompiledValue)]

    init(match: [CompiledCondition], set: [(String, CompiledValue)]) {
        self.match = match
        self.set = set
    }
}

final class CompiledTime {
    let value: CompiledValue
    let format: TimeFormat

    init(value: CompiledValue, format: TimeFormat) {
        self.value = value
        self.format = format
    }
}

final class CompiledLimit {
    let match: [CompiledCondition]
    let time: CompiledTime?
    let windows: [CompiledWindow]

    init(match: [CompiledCondition], time: CompiledTime?, windows: [CompiledWindow]) {
        self.match = match
        self.time = time
        self.windows = windows
    }
}

final class CompiledWindow {
    let name: String
    let usedPercent: CompiledValue?
    let windowMinutes: CompiledValue?
    let resetsAt: CompiledTime?
    let resetsIn: CompiledValue?

    init(
        name: String, usedPercent: CompiledValue?, windowMinutes: CompiledValue?, resetsAt: CompiledTime?,
        resetsIn: CompiledValue?
    ) {
        self.name = name
        self.usedPercent = usedPercent
        self.windowMinutes = windowMinutes
        self.resetsAt = resetsAt
        self.resetsIn = resetsIn
    }
}

final class CompiledTokens {
    /// `tokens_at` (or `fallback_at`): looked up once per record; the fields are read relative to it.
    let base: CompiledPath?
    let input, output, cacheRead, cacheWrite, cacheWrite5m, cacheWrite1h, reasoning: CompiledValue?

    init(
        base: CompiledPath?, input: CompiledValue?, output: CompiledValue?, cacheRead: CompiledValue?, cacheWrite: CompiledValue?,
        cacheWrite5m: CompiledValue?, cacheWrite1h: CompiledValue?, reasoning: CompiledValue?
    ) {
        self.base = base
        self.input = input
        self.output = output
        self.cacheRead = cacheRead
        self.cacheWrite = cacheWrite
        self.cacheWrite5m = cacheWrite5m
        self.cacheWrite1h = cacheWrite1h
        self.reasoning = reasoning
    }
}

final class CompiledRecord {
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
    let cumulativeKey: [CompiledValue]
    let identityKey: [CompiledValue]
    let identityFallback: [CompiledValue]
    let identityScope: IdentityScope
    let keep: KeepRule
    let hasIdentity: Bool
    let cost: CompiledValue?
    let estimated: Bool

    init(_ rule: RecordRule) {
        let decode = rule.decode
        name = rule.name
        match = rule.match.map { compile($0, decode: decode) }
        select = rule.select
        selectPointer = rule.select.map { pointer($0.path) }
        self.decode = decode.map(pointer)
        skip = rule.skip.map { ($0.reason, $0.when.map { compile($0, decode: decode) }) }
        time = CompiledTime(value: compile(rule.time.value, decode: decode), format: rule.time.format)
        model = rule.model.map { compile($0, decode: decode) }
        tokens = compileTokens(rule.tokens, under: rule.tokensAt, decode: decode)
        fallbackTokens = rule.cumulative?.fallbackAt.map { compileTokens(rule.tokens, under: $0, decode: decode) }
        counting = rule.counting
        func conditions(_ flag: CountingFlag) -> [CompiledCondition] {
            if case .conditional(let when, _, _) = flag { return when.map { compile($0, decode: decode) } }
            return []
        }
        countingConditions = (conditions(rule.counting.inputIncludesCache), conditions(rule.counting.outputIncludesReasoning))
        cumulative = rule.cumulative != nil
        cumulativeKey = (rule.cumulative?.key ?? []).map { compile($0, decode: decode) }
        identityKey = (rule.identity?.key ?? []).map { compile($0, decode: decode) }
        identityFallback = (rule.identity?.fallback ?? []).map { compile($0, decode: decode) }
        identityScope = rule.identity?.scope ?? .global
        keep = rule.identity?.keep ?? .first
        hasIdentity = rule.identity != nil
        cost = rule.cost.map { compile($0, decode: decode) }
        estimated = rule.estimated
    }
}

private func pointer(_ path: FieldPath) -> JSONPointer {
    JSONPointer(path.components.map { component in
        switch component {
        case .key(let key): .key(key)
        case .index(let index): .index(index)
        }
    })
}

/// Compiles a path, noting when it runs through one of the record's `decode` fields.
private func compile(_ path: FieldPath, decode: [FieldPath]) -> CompiledPath {
    for (index, field) in decode.enumerated()
    where !path.fromRoot && path.components.count > field.components.count
        && Array(path.components.prefix(field.components.count)) == field.components
    {
        let rest = FieldPath(
            components: Array(path.components.dropFirst(field.components.count)), fromRoot: false, text: path.text)
        return CompiledPath(pointer: pointer(path), fromRoot: false, decoded: (index, pointer(rest)))
    }
    return CompiledPath(pointer: pointer(path), fromRoot: path.fromRoot, decoded: nil)
}

private func compile(_ value: ValueSpec, decode: [FieldPath]) -> CompiledValue {
    CompiledValue(
        alternatives: value.alternatives.map { source in
            switch source {
            case .path(let path): .path(compile(path, decode: decode))
            case .variable(let name): .variable(name)
            case .entryKey: .entryKey
            case .constant(let text): .constant(text)
            }
        },
        // The loader has already compiled every pattern once, so this cannot fail.
        pattern: value.pattern.flatMap { try? NSRegularExpression(pattern: $0) })
}

private func compile(_ condition: Condition, decode: [FieldPath]) -> CompiledCondition {
    CompiledCondition(path: compile(condition.path, decode: decode), anyOf: condition.anyOf, present: condition.present)
}

/// Token fields, read relative to `base` when the descriptor gives `tokens_at` or `fallback_at`. The base
/// may run through a `decode` field; the fields below it are plain paths.
private func compileTokens(_ spec: TokenSpec, under base: FieldPath?, decode: [FieldPath]) -> CompiledTokens {
    let fieldDecode = base == nil ? decode : []
    func field(_ value: ValueSpec?) -> CompiledValue? { value.map { compile($0, decode: fieldDecode) } }
    return CompiledTokens(
        base: base.map { compile($0, decode: decode) },
        input: field(spec.input), output: field(spec.output), cacheRead: field(spec.cacheRead),
        cacheWrite: field(spec.cacheWrite), cacheWrite5m: field(spec.cacheWrite5m),
        cacheWrite1h: field(spec.cacheWrite1h), reasoning: field(spec.reasoning))
}
