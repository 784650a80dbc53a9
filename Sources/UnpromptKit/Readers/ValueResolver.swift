import Foundation

/// A field path compiled for the parser: the JSON pointer to look up, and where to start.
struct CompiledPath: Sendable {
    let pointer: JSONPointer
    let fromRoot: Bool
    /// When the path runs through a `decode` field: the index of that field, and the pointer inside it.
    let decoded: (index: Int, inner: JSONPointer)?
    /// For paths read from the line's root: the slot of the input's path set, already looked up.
    let slot: Int?
}

/// A value read from a record, before it is turned into a number, a time or a string.
enum FieldValue {
    case bytes(UnsafeRawBufferPointer)
    case text(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case composite(JSONRef, JSONParser)
    case null
}

/// Reads values out of one record: the element being read, the line or document it came from, carried
/// values and the key of a selected object entry. It borrows the parsers, and is only valid until they parse again.
struct RecordContext {
    let parser: JSONParser
    let root: JSONRef
    let element: JSONRef
    let entryKey: String?
    /// The element's position in the array `select: path[]` expands (`@index`).
    var elementIndex: Int? = nil
    var variables: [String: String]
    /// Parsed `decode` fields, by index; nil where the field is absent or not JSON.
    var decoded: [(JSONParser, JSONRef)?]
    /// A `decode` field holds a string that is not JSON.
    var malformedDecode = false
    /// Told when a pattern of a value or condition used up its work (`BoundedMatch`).
    var overrun: PatternOverrun?

    func lookup(_ path: CompiledPath) -> FieldValue? {
        if let decodedPath = path.decoded {
            guard let (inner, ref) = decoded[decodedPath.index] else { return nil }
            return inner.value(at: decodedPath.inner, in: ref).map { FieldValue($0, inner) }
        }
        if let slot = path.slot { return parser.extractedValue(slot).map { FieldValue($0, parser) } }
        return parser.value(at: path.pointer, in: path.fromRoot ? root : element).map { FieldValue($0, parser) }
    }
}

extension FieldValue {
    init(_ value: JSONValue, _ parser: JSONParser) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .integer(i)
        case .uint(let u): self = u <= UInt64(Int64.max) ? .integer(Int64(u)) : .number(Double(u))
        case .double(let d): self = .number(d)
        case .string(let bytes): self = .bytes(bytes)
        case .array(let ref), .object(let ref): self = .composite(ref, parser)
        }
    }

    var isNull: Bool { if case .null = self { true } else { false } }

    /// The value as text: strings as they are, numbers in decimal, objects and arrays as minified JSON.
    var text: String {
        switch self {
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .text(let text): return text
        case .integer(let i): return String(i)
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .composite(let ref, let parser):
            return parser.withMinifiedJSON(of: ref) { String(decoding: $0, as: UTF8.self) }
        case .null: return "null"
        }
    }

    /// Feeds the value to an identity hash without building a String for plain strings.
    func hash(into hasher: inout IdentityHasher) {
        switch self {
        case .bytes(let bytes): hasher.combine(bytes)
        case .composite(let ref, let parser): parser.withMinifiedJSON(of: ref) { hasher.combine($0) }
        default: hasher.combine(text)
        }
    }

    /// A non-negative whole count: integers, integral floats and decimal strings. Nil for anything else.
    var count: Int64? {
        switch self {
        case .integer(let i): return i >= 0 ? i : nil
        case .number(let d): return d >= 0 && d == d.rounded() && d < 9e18 ? Int64(d) : nil
        case .bytes, .text: return Int64(text).flatMap { $0 >= 0 ? $0 : nil }
        default: return nil
        }
    }

    /// A finite number: numbers, and decimal strings. NaN and infinities are not numbers here.
    var double: Double? {
        let value: Double?
        switch self {
        case .integer(let i): value = Double(i)
        case .number(let d): value = d
        case .bytes, .text: value = Double(text)
        default: value = nil
        }
        return value.flatMap { $0.isFinite ? $0 : nil }
    }

    func equals(_ literal: Condition.Literal) -> Bool {
        switch (self, literal) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer(let a), .number(let b)): return Double(a) == b
        case (.number(let a), .integer(let b)): return a == Double(b)
        case (.number(let a), .number(let b)): return a == b
        case (.bytes(let bytes), .string(let s)):
            var expected = s
            return expected.withUTF8 { $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        case (.text(let t), .string(let s)): return t == s
        // Text that is not a string of the log (a carried value) equals a literal written as its text.
        case (.text(let t), .integer(let i)): return t == String(i)
        case (.text(let t), .bool(let b)): return t == (b ? "true" : "false")
        default: return false
        }
    }
}

/// A value spec compiled: alternatives tried in order, then the first pattern that matches keeps its capture.
final class CompiledValue: Sendable {
    enum Source: Sendable {
        case path(CompiledPath)
        case variable(String)
        case entryKey
        case elementIndex
        case constant(String)
        case lookup(CompiledLookup)
    }

    let alternatives: [Source]
    let patterns: [NSRegularExpression]

    init(alternatives: [Source], patterns: [NSRegularExpression]) {
        self.alternatives = alternatives
        self.patterns = patterns
    }

    /// The first present, non-null alternative, then the first matching pattern's capture (nil when none matches).
    func resolve(in context: RecordContext) -> FieldValue? {
        var found: FieldValue?
        for source in alternatives {
            switch source {
            case .path(let path):
                if let value = context.lookup(path), !value.isNull { found = value }
            case .variable(let name):
                if let value = context.variables[name] { found = .text(value) }
            case .entryKey:
                if let key = context.entryKey { found = .text(key) }
            case .elementIndex:
                if let index = context.elementIndex { found = .integer(Int64(index)) }
            case .constant(let text):
                found = .text(text)
            case .lookup(let lookup):
                if let value = lookup.resolve(in: context), !value.isNull { found = value }
            }
            if found != nil { break }
        }
        guard let value = found, !patterns.isEmpty else { return found }
        let text = value.text
        for pattern in patterns {
            switch BoundedMatch.first(pattern, in: text) {
            case .match(let match):
                guard match.numberOfRanges > 1, let capture = Range(match.range(at: 1), in: text) else { return nil }
                return .text(String(text[capture]))
            case .none:
                continue
            case .tooSlow:
                context.overrun?.happened = true
                return nil
            }
        }
        return nil
    }
}

/// A lookup compiled: the array, the element fields and the record values they must equal, and the field read.
final class CompiledLookup: Sendable {
    let array: CompiledPath
    let match: [(field: JSONPointer, value: CompiledValue)]
    let path: JSONPointer

    init(array: CompiledPath, match: [(field: JSONPointer, value: CompiledValue)], path: JSONPointer) {
        self.array = array
        self.match = match
        self.path = path
    }

    /// `path` in the first element whose fields equal the record's values, compared as text (so `3` equals
    /// `"3"`); nil when a value is absent or no element matches.
    func resolve(in context: RecordContext) -> FieldValue? {
        guard case .composite(let ref, let parser)? = context.lookup(array) else { return nil }
        var wanted: [String] = []
        for key in match {
            guard let value = key.value.resolve(in: context), !value.isNull else { return nil }
            wanted.append(value.text)
        }
        for element in parser.elements(of: ref) {
            let found = zip(match, wanted).allSatisfy { key, text in
                guard let value = parser.value(at: key.field, in: element), case let field = FieldValue(value, parser),
                    !field.isNull
                else { return false }
                return field.text == text
            }
            if found { return parser.value(at: path, in: element).map { FieldValue($0, parser) } }
        }
        return nil
    }
}

/// A condition compiled. The descriptor's `Condition.Test` is a sum type; here its parts are kept apart, beside a
/// kind without a payload, because this runs for every line: switching over the test itself copies its payload
/// (a string and a regex, or an array) each time, which measurably slowed a dry run.
final class CompiledCondition: Sendable {
    private enum Kind {
        case equals
        case present
        case absent
        case matches
        case lessThan
    }

    /// The field tested, or (nil) the carried value `variable`.
    let path: CompiledPath?
    let variable: String?
    private let kind: Kind
    private let literals: [Condition.Literal]
    private let regex: NSRegularExpression?
    private let bound: Double

    init(path: CompiledPath?, variable: String?, test: Condition.Test) {
        self.path = path
        self.variable = variable
        var literals: [Condition.Literal] = []
        var regex: NSRegularExpression?
        var bound = 0.0
        switch test {
        case .equals(let values):
            kind = .equals
            literals = values
        case .present(let present):
            kind = present ? .present : .absent
        case .matches(let pattern):
            kind = .matches
            regex = pattern.regex
        case .lessThan(let number):
            kind = .lessThan
            bound = number
        }
        self.literals = literals
        self.regex = regex
        self.bound = bound
    }

    func holds(in context: RecordContext) -> Bool {
        let value = path.map { context.lookup($0) } ?? variable.flatMap { context.variables[$0] }.map { FieldValue.text($0) }
        switch kind {
        case .present:
            return value.map { !$0.isNull } ?? false
        case .absent:
            return !(value.map { !$0.isNull } ?? false)
        case .lessThan:
            guard let number = value?.double else { return false }
            return number < bound
        case .matches:
            guard let value, !value.isNull, let regex else { return false }
            switch BoundedMatch.first(regex, in: value.text) {
            case .match: return true
            case .none: return false
            case .tooSlow:
                context.overrun?.happened = true
                return false
            }
        case .equals:
            guard let value else { return false }
            return literals.contains { value.equals($0) }
        }
    }
}

extension Array where Element == CompiledCondition {
    func allHold(in context: RecordContext) -> Bool {
        allSatisfy { $0.holds(in: context) }
    }
}

/// A path through arrays compiled (`rounds[].thinking.tokens`): the first step from the record, then each
/// element's rest, nil where two `[]` meet or at the end (the element itself).
final class CompiledEach: Sendable {
    let first: CompiledPath?
    let rest: [JSONPointer?]

    init(first: CompiledPath?, rest: [JSONPointer?]) {
        self.first = first
        self.rest = rest
    }

    /// Every present, non-null value the path reaches, in order; none when an array along it is absent.
    func values(in context: RecordContext, _ body: (FieldValue) -> Bool) {
        let start: FieldValue? = first.map { context.lookup($0) } ?? .composite(context.element, context.parser)
        guard let start else { return }
        _ = walk(start, rest[...], body)
    }

    /// Feeds the values below `value` to `body`; false once `body` asked to stop.
    private func walk(_ value: FieldValue, _ steps: ArraySlice<JSONPointer?>, _ body: (FieldValue) -> Bool) -> Bool {
        guard let step = steps.first else { return value.isNull || body(value) }
        guard case .composite(let ref, let parser) = value else { return true }
        // `elements(of:)` is empty for an object: only arrays add their elements.
        for element in parser.elements(of: ref) {
            let next: FieldValue? = step.map { pointer in parser.value(at: pointer, in: element).map { FieldValue($0, parser) } }
                ?? FieldValue.composite(element, parser)
            if let next, !walk(next, steps.dropFirst(), body) { return false }
        }
        return true
    }
}
