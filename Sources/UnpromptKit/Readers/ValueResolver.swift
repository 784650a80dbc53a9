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
    case composite(JSONRef, ParserReference)
    case null
}

/// The parser a value was read from, held without a reference count: a value read from a record is only valid
/// while its parser holds that document, so counting references to the parser would only cost time, value by value.
struct ParserReference {
    unowned(unsafe) let parser: JSONParser

    @inline(__always)
    init(_ parser: __shared JSONParser) { self.parser = parser }
}

/// Reads values out of one record: the element being read, the line or document it came from, carried
/// values and the key of a selected object entry. It borrows the parsers, and is only valid until they parse again.
struct RecordContext {
    /// Not counted (`ParserReference`): a context lives within one call that holds its parser. Values are read
    /// through `withParser`, which calls into it without counting either.
    private let parserReference: Unmanaged<JSONParser>
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
    /// Told when a pattern of a value or condition used up its work (`BoundedMatch`); not counted, as `parser`.
    unowned(unsafe) var overrun: PatternOverrun?

    init(
        parser: JSONParser, root: JSONRef, element: JSONRef, entryKey: String?, variables: [String: String],
        decoded: [(JSONParser, JSONRef)?], overrun: PatternOverrun?
    ) {
        parserReference = .passUnretained(parser)
        self.root = root
        self.element = element
        self.entryKey = entryKey
        self.variables = variables
        self.decoded = decoded
        self.overrun = overrun
    }

    var parser: JSONParser { parserReference.takeUnretainedValue() }

    /// Calls `body` with the parser, counting no reference to it: what reads every value goes through this.
    @inline(__always)
    func withParser<R>(_ body: (JSONParser) -> R) -> R { parserReference._withUnsafeGuaranteedRef(body) }

    func lookup(_ path: CompiledPath) -> FieldValue? {
        if let decodedPath = path.decoded {
            guard let (inner, ref) = decoded[decodedPath.index] else { return nil }
            return inner.value(at: decodedPath.inner, in: ref).map { FieldValue($0, inner) }
        }
        if let slot = path.slot { return extracted(slot) }
        return withParser { parser in
            parser.value(at: path.pointer, in: path.fromRoot ? root : element).map { FieldValue($0, parser) }
        }
    }

    /// The value of a path read from the line's root (`CompiledPath.slot`).
    @inline(__always)
    func extracted(_ slot: Int) -> FieldValue? {
        withParser { parser in parser.extractedValue(slot).map { FieldValue($0, parser) } }
    }
}

extension FieldValue {
    @inline(__always)
    init(_ value: JSONValue, _ parser: __shared JSONParser) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .integer(i)
        case .uint(let u): self = u <= UInt64(Int64.max) ? .integer(Int64(u)) : .number(Double(u))
        case .double(let d): self = .number(d)
        case .string(let bytes): self = .bytes(bytes)
        case .array(let ref), .object(let ref): self = .composite(ref, ParserReference(parser))
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
        case .composite(let ref, let reference):
            return reference.parser.withMinifiedJSON(of: ref) { String(decoding: $0, as: UTF8.self) }
        case .null: return "null"
        }
    }

    /// Feeds the value to an identity hash without building a String for plain strings.
    func hash(into hasher: inout IdentityHasher) {
        switch self {
        case .bytes(let bytes): hasher.combine(bytes)
        case .composite(let ref, let reference): reference.parser.withMinifiedJSON(of: ref) { hasher.combine($0) }
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
    /// Per alternative, the slot of a path read from the line's root (`CompiledPath.slot`), else -1: the usual
    /// alternative, read without copying it (and counting references to what it holds) out of `alternatives`.
    private let slots: [Int]

    init(alternatives: [Source], patterns: [NSRegularExpression]) {
        self.alternatives = alternatives
        self.patterns = patterns
        slots = alternatives.map { source in
            guard case .path(let path) = source, path.decoded == nil, let slot = path.slot else { return -1 }
            return slot
        }
    }

    /// The slot when the value is one path read from the line's root, with no pattern.
    var rootSlot: Int? {
        guard slots.count == 1, slots[0] >= 0, patterns.isEmpty else { return nil }
        return slots[0]
    }

    /// The first present, non-null alternative, then the first matching pattern's capture (nil when none matches).
    func resolve(in context: RecordContext) -> FieldValue? {
        var found: FieldValue?
        for index in slots.indices {
            if slots[index] >= 0 {
                if let value = context.extracted(slots[index]), !value.isNull {
                    found = value
                    break
                }
                continue
            }
            switch alternatives[index] {
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
        guard case .composite(let ref, let reference)? = context.lookup(array) else { return nil }
        let parser = reference.parser
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
    /// The slot of `path` when it is read from the line's root (`CompiledValue`'s `slots`), else -1.
    private let slot: Int
    private let kind: Kind
    private let literals: [Condition.Literal]
    /// The string literals' UTF-8 bytes one after another, and where each ends: a string of the log is compared
    /// with them in place, without copying a literal.
    private let literalText: [UInt8]
    private let literalEnds: [Int]
    private let regex: NSRegularExpression?
    private let bound: Double

    init(path: CompiledPath?, variable: String?, test: Condition.Test) {
        self.path = path
        self.variable = variable
        slot = path.flatMap { $0.decoded == nil ? $0.slot : nil } ?? -1
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
        var text: [UInt8] = []
        var ends: [Int] = []
        for case .string(let literal) in literals {
            text += literal.utf8
            ends.append(text.count)
        }
        literalText = text
        literalEnds = ends
        self.regex = regex
        self.bound = bound
    }

    func holds(in context: RecordContext) -> Bool {
        let value =
            slot >= 0
            ? context.extracted(slot)
            : path.map { context.lookup($0) } ?? variable.flatMap { context.variables[$0] }.map { FieldValue.text($0) }
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
            // A string of the log equals only a string literal.
            if case .bytes(let bytes) = value { return equalsStringLiteral(bytes) }
            return literals.contains { value.equals($0) }
        }
    }

    private func equalsStringLiteral(_ bytes: UnsafeRawBufferPointer) -> Bool {
        literalText.withUnsafeBytes { text in
            var start = 0
            for end in literalEnds {
                if end - start == bytes.count,
                    bytes.count == 0 || memcmp(text.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
                {
                    return true
                }
                start = end
            }
            return false
        }
    }
}

extension Array where Element == CompiledCondition {
    func allHold(in context: RecordContext) -> Bool {
        for index in indices where !self[index].holds(in: context) { return false }
        return true
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
        let start: FieldValue? = first.map { context.lookup($0) } ?? .composite(context.element, ParserReference(context.parser))
        guard let start else { return }
        _ = walk(start, rest[...], body)
    }

    /// Feeds the values below `value` to `body`; false once `body` asked to stop.
    private func walk(_ value: FieldValue, _ steps: ArraySlice<JSONPointer?>, _ body: (FieldValue) -> Bool) -> Bool {
        guard let step = steps.first else { return value.isNull || body(value) }
        guard case .composite(let ref, let reference) = value else { return true }
        let parser = reference.parser
        // `elements(of:)` is empty for an object: only arrays add their elements.
        for element in parser.elements(of: ref) {
            let next: FieldValue? = step.map { pointer in parser.value(at: pointer, in: element).map { FieldValue($0, parser) } }
                ?? FieldValue.composite(element, reference)
            if let next, !walk(next, steps.dropFirst(), body) { return false }
        }
        return true
    }
}
