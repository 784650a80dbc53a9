import Foundation

/// A descriptor input with every path turned into a JSON pointer and every pattern compiled, once,
/// before the first line is read.
struct CompiledInput {
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

struct CompiledCarry {
    let match: [CompiledCondition]
    let set: [(String, CompiledValue)]
}

struct CompiledTime {
    let value: CompiledValue
    let format: TimeFormat
}

struct CompiledLimit {
    let match: [CompiledCondition]
    let time: CompiledTime?
    let windows: [CompiledWindow]
}

struct CompiledWindow {
    let name: String
    let usedPercent: CompiledValue?
    let windowMinutes: CompiledValue?
    let resetsAt: CompiledTime?
    let resetsIn: CompiledValue?
}

struct CompiledTokens {
    let input, output, cacheRead, cacheWrite, cacheWrite5m, cacheWrite1h, reasoning: CompiledValue?
}

struct CompiledRecord {
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

/// Token fields, each path placed under `base` when the descriptor gives `tokens_at` or `fallback_at`.
private func compileTokens(_ spec: TokenSpec, under base: FieldPath?, decode: [FieldPath]) -> CompiledTokens {
    func field(_ value: ValueSpec?) -> CompiledValue? {
        guard let value else { return nil }
        guard let base else { return compile(value, decode: decode) }
        let rebased = ValueSpec(
            alternatives: value.alternatives.map { source in
                guard case .path(let path) = source, !path.fromRoot else { return source }
                return .path(
                    FieldPath(components: base.components + path.components, fromRoot: base.fromRoot, text: "\(base).\(path)"))
            }, pattern: value.pattern, mark: value.mark)
        return compile(rebased, decode: decode)
    }
    return CompiledTokens(
        input: field(spec.input), output: field(spec.output), cacheRead: field(spec.cacheRead),
        cacheWrite: field(spec.cacheWrite), cacheWrite5m: field(spec.cacheWrite5m),
        cacheWrite1h: field(spec.cacheWrite1h), reasoning: field(spec.reasoning))
}
