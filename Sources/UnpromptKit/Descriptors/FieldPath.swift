/// A path to a value inside a record: `message.usage.input_tokens`, `messages[0].id`, `uiEvent["event.name"]`.
///
/// Dots separate object keys, `[N]` indexes an array and `["…"]` quotes a key that holds dots or brackets.
/// A leading `^` reads from the whole line or document instead of the selected element (see `select`).
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public let components: [Component]
    /// True for `^path`: resolved against the root, not the selected element.
    public let fromRoot: Bool
    public let text: String

    public var description: String { text }

    /// Parses `text`; on failure returns the 0-based character offset of the problem and what was expected.
    public static func parse(_ text: String) -> Result<FieldPath, FieldPathError> {
        var components: [Component] = []
        let chars = Array(text)
        var i = 0
        var fromRoot = false
        if chars.first == "^" {
            fromRoot = true
            i = 1
        }
        var expectKey = true
        while i < chars.count {
            let c = chars[i]
            if c == "[" {
                // A quoted key ends at `"]`, so it may hold `]`, dots and brackets.
                var close: Int?
                if i + 1 < chars.count, chars[i + 1] == "\"" {
                    var j = i + 2
                    while j + 1 < chars.count, !(chars[j] == "\"" && chars[j + 1] == "]") { j += 1 }
                    if j + 1 < chars.count { close = j + 1 }
                } else {
                    close = chars[i...].firstIndex(of: "]")
                }
                guard let close else {
                    return .failure(FieldPathError(offset: i, message: "unclosed '['"))
                }
                let inner = String(chars[(i + 1)..<close])
                if inner.hasPrefix("\""), inner.hasSuffix("\""), inner.count >= 2 {
                    let key = String(inner.dropFirst().dropLast())
                    if key.isEmpty { return .failure(FieldPathError(offset: i, message: "empty quoted key")) }
                    components.append(.key(key))
                } else if let index = Int(inner), index >= 0 {
                    components.append(.index(index))
                } else {
                    return .failure(
                        FieldPathError(offset: i + 1, message: "expected an array index or a quoted key inside [ ]"))
                }
                i = close + 1
                expectKey = false
                if i < chars.count, chars[i] == "." {
                    i += 1
                    expectKey = true
                    if i == chars.count { return .failure(FieldPathError(offset: i - 1, message: "path ends with '.'")) }
                }
                continue
            }
            var j = i
            while j < chars.count, chars[j] != ".", chars[j] != "[" { j += 1 }
            let key = String(chars[i..<j])
            if key.isEmpty {
                return .failure(FieldPathError(offset: i, message: "empty key in path"))
            }
            if let bad = key.firstIndex(where: { $0 == "]" || $0 == "\"" || $0 == " " }) {
                return .failure(
                    FieldPathError(offset: i + key.distance(from: key.startIndex, to: bad), message: "unexpected character in key '\(key)'"))
            }
            if !expectKey { return .failure(FieldPathError(offset: i, message: "expected '.' or '[' after ']'")) }
            components.append(.key(key))
            i = j
            if i < chars.count, chars[i] == "." {
                i += 1
                if i == chars.count { return .failure(FieldPathError(offset: i - 1, message: "path ends with '.'")) }
                expectKey = true
            } else {
                expectKey = false
            }
        }
        if components.isEmpty { return .failure(FieldPathError(offset: 0, message: "empty path")) }
        return .success(FieldPath(components: components, fromRoot: fromRoot, text: text))
    }
}

public struct FieldPathError: Error, Sendable, Equatable {
    public let offset: Int
    public let message: String
}
