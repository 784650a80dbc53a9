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
    /// without default is unset.
    public static func expand(_ template: String, environment: [String: String], home: String) -> [String] {
        var output = ""
        var rest = Substring(template)
        while let start = rest.range(of: "${") {
            output += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { return [] }
            let body = rest[start.upperBound..<end]
            let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if let value = environment[name], !value.isEmpty {
                output += value
            } else if parts.count == 2 {
                output += parts[1].dropFirst()
            } else {
                return []
            }
            rest = rest[rest.index(after: end)...]
        }
        output += rest
        return output.split(separator: ",").map { root in
            let trimmed = root.trimmingCharacters(in: .whitespaces)
            if trimmed == "~" { return home }
            if trimmed.hasPrefix("~/") { return home + trimmed.dropFirst(1) }
            return trimmed
        }.filter { !$0.isEmpty }
    }
}
