import Foundation

/// A source root as written in a descriptor: `~/.codex`, `${CODEX_HOME:-~/.codex}`, `${CLAUDE_CONFIG_DIR}`.
///
/// `~` at the start means the home directory. `${VAR}` is the variable's value, and a root naming an unset or
/// empty variable is skipped. `${VAR:-default}` falls back to the default. After expansion a comma splits
/// the value into several roots, as tools that accept lists (`CLAUDE_CONFIG_DIR=a,b`) do.
public enum RootTemplate: Sendable {
    /// What is wrong with a template, or nil.
    public static func problem(in template: String) -> String? {
        var rest = Substring(template)
        while let start = rest.range(of: "${") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { return "unclosed '${'" }
            let body = rest[start.upperBound..<end]
            let name = body.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            if name.isEmpty || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                return "'${\(body)}' must name a variable: letters, digits and '_'"
            }
            if body.count > name.count, !body.dropFirst(name.count).hasPrefix(":-") {
                return "'${\(body)}': only ${VAR} and ${VAR:-default} are supported"
            }
            if body.contains("$") || body.contains("{") {
                return "a default cannot hold another ${...}"
            }
            rest = rest[rest.index(after: end)...]
        }
        // A walk from there reads every disk of the machine: nothing below it could bound it.
        for part in template.split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("/"), trimmed.split(separator: "/").allSatisfy({ $0 == "." }) {
                return "'\(trimmed)' is the file system's root, not a tool's folder: name the folder its files are in"
            }
        }
        return nil
    }

    /// The roots a template names in this environment, `~` and variables expanded; empty when a variable
    /// without default is unset. Read by bytes (the markers are ASCII), with no Foundation search: every scan expands
    /// every root of every descriptor.
    public static func expand(_ template: String, environment: [String: String], home: String) -> [String] {
        let bytes = template.utf8
        var output = ""
        var copied = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let next = bytes.index(after: index)
            guard bytes[index] == UInt8(ascii: "$"), next < bytes.endIndex, bytes[next] == UInt8(ascii: "{") else {
                index = next
                continue
            }
            output += template[copied..<index]
            let bodyStart = bytes.index(after: next)
            guard let end = bytes[bodyStart...].firstIndex(of: UInt8(ascii: "}")) else { return [] }
            let colon = bytes[bodyStart..<end].firstIndex(of: UInt8(ascii: ":"))
            let name = String(template[bodyStart..<(colon ?? end)])
            if let value = environment[name], !value.isEmpty {
                output += value
            } else if let colon {
                // `:-default`: the default starts after the `-`.
                output += template[(bytes.index(colon, offsetBy: 2, limitedBy: end) ?? end)..<end]
            } else {
                return []
            }
            index = bytes.index(after: end)
            copied = index
        }
        output += template[copied...]
        return output.split(separator: ",").map { root in
            let trimmed = trimmingWhitespace(root)
            if trimmed == "~" { return home }
            if trimmed.hasPrefix("~/") { return home + trimmed.dropFirst(1) }
            return String(trimmed)
        }.filter { !$0.isEmpty }
    }

    /// `text` without the spaces and tabs around it (`CharacterSet.whitespaces`: tab and Unicode's space separators).
    private static func trimmingWhitespace(_ text: Substring) -> Substring {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else {
            return text[text.endIndex...]
        }
        return Substring(scalars[first...last])
    }
}
