import Foundation

/// A `text` input's line patterns, compiled. A line matched by a pattern becomes a JSON record, so every rule
/// of the language applies to it as to a JSON line:
///
///     {"pattern": "<pattern name>", "offset": <byte offset of the line>, "<capture>": <value>, …}
///
/// - Patterns are tried in the order written; the first that matches names the line. A line no pattern
///   matches is not a record (like a JSON line that no rule matches).
/// - Each named capture that took part in the match becomes a field. A capture that reads as a number —
///   digits with optional `,` thousands separators, an optional decimal part, and an optional `k` (×1000)
///   or `M` (×1,000,000) suffix — becomes a JSON number, as written: `1.2k` is 1200, never "un-rounded".
///   Any other capture is a string.
/// - `offset` names the line by its place in an appended file, so identical lines stay distinct records.
/// - Matching is bounded (`BoundedMatch`): a line on which a pattern uses up its work is no record, and says so.
final class TextPatterns {
    private let patterns: [(name: String, regex: NSRegularExpression, captures: [String])]

    init(_ patterns: [TextPattern]) {
        self.patterns = patterns.map { pattern in
            (pattern.name, pattern.regex.regex, TextPatterns.captureNames(in: pattern.regex.text))
        }
    }

    enum LineRecord {
        case record([UInt8])
        /// No pattern matches the line.
        case none
        /// A pattern used up its matching work on the line (`SkipReason.patternTooSlow`).
        case tooSlow
    }

    /// The record for one line (without its newline).
    func record(for line: UnsafeRawBufferPointer, offset: Int64) -> LineRecord {
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        for pattern in patterns {
            let match: NSTextCheckingResult
            switch BoundedMatch.first(pattern.regex, in: text) {
            case .match(let found): match = found
            case .none: continue
            case .tooSlow: return .tooSlow
            }
            var json = JSONText()
            json.open()
            json.field("pattern", string: pattern.name)
            json.field("offset", number: String(offset))
            for name in pattern.captures {
                guard let captured = Range(match.range(withName: name), in: text) else { continue }
                let value = String(text[captured])
                if let number = TextPatterns.number(value) {
                    json.field(name, number: number)
                } else {
                    json.field(name, string: value)
                }
            }
            json.close()
            return .record(json.bytes)
        }
        return .none
    }

    /// The names of a regular expression's named groups, `(?<name>…)`, in order.
    static func captureNames(in regex: String) -> [String] {
        var names: [String] = []
        var rest = Substring(regex)
        while let start = rest.range(of: "(?<") {
            rest = rest[start.upperBound...]
            // `(?<=` and `(?<!` are lookbehinds, not groups.
            guard let first = rest.first, first.isLetter else { continue }
            guard let end = rest.firstIndex(of: ">") else { break }
            names.append(String(rest[..<end]))
            rest = rest[end...]
        }
        return names
    }

    /// A captured number as JSON number text, or nil when the text is not one.
    static func number(_ text: String) -> String? {
        var digits = Substring(text)
        var scale: Decimal = 1
        if digits.hasSuffix("k") {
            scale = 1000
            digits = digits.dropLast()
        } else if digits.hasSuffix("M") {
            scale = 1_000_000
            digits = digits.dropLast()
        }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty,
            whole.first != ",", whole.last != ",", whole.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ",") }),
            parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isNumber })
        else { return nil }
        let plain = digits.replacingOccurrences(of: ",", with: "")
        guard let value = Decimal(string: plain, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        return NSDecimalNumber(decimal: value * scale).stringValue
    }
}

/// A JSON object written field by field, with strings escaped.
struct JSONText {
    private(set) var bytes: [UInt8] = []
    private var first = true

    mutating func open() { bytes.append(UInt8(ascii: "{")) }
    mutating func close() { bytes.append(UInt8(ascii: "}")) }

    mutating func field(_ name: String, string: String) {
        key(name)
        append(string: string)
    }

    /// `number` must be valid JSON number text.
    mutating func field(_ name: String, number: String) {
        key(name)
        bytes += number.utf8
    }

    /// `text` must be valid JSON text.
    mutating func raw(_ text: String) { bytes += text.utf8 }
    mutating func raw(_ json: [UInt8]) { bytes += json }

    mutating func key(_ name: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        append(string: name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func append(string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += "\\\"".utf8
            case UInt8(ascii: "\\"): bytes += "\\\\".utf8
            case 0..<0x20: bytes += String(format: "\\u%04x", byte).utf8
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
