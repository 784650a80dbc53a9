import Foundation

/// One JSON text per JSON value, whatever bytes the tool wrote it with: the form an identity key that holds an
/// object or an array is hashed in, so a copy that writes the same values in another key order (or `7300.0` for
/// `7300`, or `\u0041` for `A`) names the same record.
///
/// Objects: keys sorted by their UTF-8 bytes, the first of a repeated key kept (as every path lookup does).
/// Arrays: in order. Strings: escaped only where JSON requires (`"`, `\` and control characters, as `\uXXXX`
/// except the five short escapes). Numbers: integers in decimal; a float with no fraction below 2^53 as the
/// integer; any other float as Swift's shortest round-trip text. No whitespace.
enum CanonicalJSON {
    /// Calls `body` with the canonical text of `ref` and its minified text, valid only during `body`: written by
    /// the JSON shim, or the canonical text here when `ref` holds a number with a fraction.
    static func withTexts<R>(
        of ref: JSONRef, _ parser: JSONParser,
        _ body: (_ canonical: UnsafeRawBufferPointer, _ minified: UnsafeRawBufferPointer) -> R
    ) -> R {
        if let result = parser.withCanonicalJSON(of: ref, body) { return result }
        var text: [UInt8] = []
        write(ref, parser, into: &text)
        return text.withUnsafeBytes { canonical in parser.withMinifiedJSON(of: ref) { body(canonical, $0) } }
    }

    /// Appends the canonical text of `ref` to `out`.
    static func write(_ ref: JSONRef, _ parser: JSONParser, into out: inout [UInt8]) {
        switch parser.value(of: ref) {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): DecimalDigits.append(i.magnitude, negative: i < 0, to: &out)
        case .uint(let u): DecimalDigits.append(u, to: &out)
        case .double(let d): out += number(d).utf8
        case .string(let bytes): string(bytes, into: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in parser.elements(of: array).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, parser, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            // By key bytes, equal keys in document order: the first of a repeated key comes first, and is kept.
            let entries = parser.entriesByBytes(of: object).enumerated().sorted { a, b in
                let order = compare(a.element.key, b.element.key)
                return order != 0 ? order < 0 : a.offset < b.offset
            }
            out.append(UInt8(ascii: "{"))
            var previous: UnsafeRawBufferPointer?
            for (_, entry) in entries {
                if let previous {
                    if compare(previous, entry.key) == 0 { continue }
                    out.append(UInt8(ascii: ","))
                }
                previous = entry.key
                string(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(entry.value, parser, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The order of two keys' UTF-8 bytes: negative, zero or positive, as `memcmp`, a prefix first.
    private static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 9_007_199_254_740_992 { return String(Int64(d)) }
        return String(d)
    }

    static func string(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// An identity key's hash, and the hash older versions gave the same key, which hashed an object or array as the
/// bytes of its minified text. Both are kept, so a store that holds identities hashed the old way still knows the
/// records it counted (`TokenEvent.legacyIdentity`).
struct KeyHasher {
    private var canonical = IdentityHasher()
    /// The old hash, from the first part of the key whose minified text is not its canonical text on; nil until
    /// then, when it would be `canonical` (usually to the end: the old hash is then not another).
    private var asWritten: IdentityHasher?

    mutating func combine(_ string: String) {
        canonical.combine(string)
        asWritten?.combine(string)
    }

    mutating func combine(_ value: FieldValue) {
        guard case .composite(let ref, let reference) = value else {
            value.hash(into: &canonical)
            if asWritten != nil { value.hash(into: &asWritten!) }
            return
        }
        CanonicalJSON.withTexts(of: ref, reference.parser) { text, minified in
            let same =
                minified.count == text.count
                && (text.isEmpty || memcmp(minified.baseAddress!, text.baseAddress!, text.count) == 0)
            if asWritten == nil, !same { asWritten = canonical }
            if asWritten == nil {
                canonical.combine(text)
            } else {
                canonical.combine(text, alongside: &asWritten!, minified)
            }
        }
    }

    /// The identity, and the old one when it is another.
    func finalize() -> (identity: Identity, legacy: Identity?) {
        (canonical.finalize(), asWritten?.finalize())
    }
}
