import Foundation

/// The price keys a logged model id may stand for, most specific first.
///
/// Tools log the same model many ways: with a date (`claude-sonnet-4-5-20250929`, `gpt-5-2025-08-07`), a
/// provider path (`anthropic/claude-sonnet-4.5`, `openrouter/openai/gpt-5`), a Bedrock region and version
/// (`us.anthropic.claude-sonnet-4-20250514-v1:0`), a Vertex version (`claude-sonnet-4-5@20250929`), a context
/// or speed marker (`[1m]`, `-fast`), a thinking variant (`-thinking`), Cursor's order (`claude-4.5-sonnet`)
/// or Droid's decoration (`custom:Claude-Opus-4.5-Thinking-[Anthropic]-0`). Each rule that applies yields one
/// more candidate; a price table takes the first candidate it has a row for. There is no loose prefix or
/// substring match, which prices a new version with an old one's row: an id no rule reaches is unpriced.
public enum ModelNormalizer: Sendable {
    /// One candidate key; `fast` when a speed suffix was removed on the way to it.
    public struct Candidate: Sendable, Equatable {
        public let key: String
        public let fast: Bool
    }

    /// Model families whose own provider's rows carry a prefix in LiteLLM's table (`gemini/…`, `xai/…`):
    /// a bare id from such a family is looked up with the prefix first.
    static let homeProviders: [(family: String, prefix: String)] = [
        ("gemini-", "gemini/"), ("grok-", "xai/"), ("qwen", "dashscope/"), ("qwq-", "dashscope/"),
        ("kimi-", "moonshot/"), ("moonshot-", "moonshot/"), ("glm-", "zai/"), ("deepseek-", "deepseek/"),
    ]

    /// Every candidate, most specific first, without repeats. `aliases` maps an id (lower case) to a key.
    public static func candidates(_ raw: String, aliases: [String: String] = [:]) -> [Candidate] {
        var result: [Candidate] = []
        var seen: Set<String> = []
        func add(_ key: String, fast: Bool) {
            guard !key.isEmpty else { return }
            if let home = homeProviders.first(where: { key.hasPrefix($0.family) }), !key.contains("/"),
                seen.insert(home.prefix + key).inserted
            {
                result.append(Candidate(key: home.prefix + key, fast: fast))
            }
            if seen.insert(key).inserted { result.append(Candidate(key: key, fast: fast)) }
        }
        add(raw, fast: false)
        var id = raw.trimmingCharacters(in: .whitespaces).lowercased()
        add(id, fast: false)
        if id.hasPrefix("custom:") { id.removeFirst("custom:".count) }
        // A provider path: the last segment is the model (`openrouter/anthropic/claude-…`).
        if let slash = id.lastIndex(of: "/") {
            add(id, fast: false)
            id = String(id[id.index(after: slash)...])
        }
        // Bedrock: an optional region, then `anthropic.`. (Each pattern is tried only where it can match: the
        // first regular expression of a process costs milliseconds, and most ids need none.)
        if id.contains("anthropic."), let range = id.range(of: #"^([a-z]{2,6}(-[a-z]+)?\.)?anthropic\."#, options: .regularExpression) {
            add(id, fast: false)
            id.removeSubrange(range)
        }
        var fast = false
        var changed = true
        while changed {
            add(id, fast: fast)
            changed = false
            for rule in suffixRules {
                guard let range = rule.match(id) else { continue }
                id.removeSubrange(range)
                if rule.speed { fast = true }
                changed = true
                break
            }
        }
        // Cursor writes the version before the family from Claude 4 on (`claude-4.5-sonnet`).
        if id.hasPrefix("claude-"), let digit = id.dropFirst("claude-".count).first, ("4"..."9").contains(digit),
            let match = id.range(of: #"^claude-[4-9]([.-][0-9])?-(opus|sonnet|haiku)"#, options: .regularExpression)
        {
            let parts = id[match].split(separator: "-")
            let version = parts[1...].dropLast().joined(separator: "-")
            id = "claude-\(parts.last!)-\(version)" + id[match.upperBound...]
            add(id, fast: fast)
        }
        // Claude keys spell versions with dashes (`claude-sonnet-4-5`); other families keep their dots.
        if id.hasPrefix("claude-"), id.contains(".") { add(id.replacingOccurrences(of: ".", with: "-"), fast: fast) }
        for candidate in result {
            if let target = aliases[candidate.key] {
                add(target, fast: candidate.fast)
                break
            }
        }
        return result
    }

    /// Suffixes removed one at a time, the outermost first: context marker (`[1m]`), Vertex version
    /// (`@[a-z0-9._-]+`), Bedrock version (`-v[0-9]+(:[0-9]+)?`), Droid's `-[Provider]-N`, thinking and speed
    /// variants, dates (`-20[0-9]{6}`, `-20[0-9]{2}-[0-9]{2}-[0-9]{2}`); each matches at the end of the id.
    static let suffixRules: [(match: @Sendable (String) -> Range<String.Index>?, speed: Bool)] = [
        ({ suffix($0, "[1m]") }, false),
        ({ id in
            // Only the last `@` can start the suffix: `@` is not among the characters after it.
            guard let at = id.lastIndex(of: "@") else { return nil }
            let rest = id[id.index(after: at)...]
            return !rest.isEmpty && rest.utf8.allSatisfy { isLowerAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
                ? at..<id.endIndex : nil
        }, false),
        ({ id in
            // Only the last `-v` can: neither `-` nor `v` is a digit or `:`.
            guard let dash = id.ranges(of: "-v").last else { return nil }
            let parts = id[dash.upperBound...].split(separator: ":", omittingEmptySubsequences: false)
            return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isDigit) }
                ? dash.lowerBound..<id.endIndex : nil
        }, false),
        ({ id in id.contains("-[") ? id.range(of: #"-\[[a-z0-9 ._-]+\](-[0-9]+)?$"#, options: .regularExpression) : nil }, false),
        ({ suffix($0, "-thinking") }, false),
        ({ suffix($0, "-fast") }, true),
        ({ date($0, "-20dddddd") }, false),
        ({ date($0, "-20dd-dd-dd") }, false),
    ]

    private static func suffix(_ id: String, _ text: String) -> Range<String.Index>? {
        id.hasSuffix(text) ? id.index(id.endIndex, offsetBy: -text.count)..<id.endIndex : nil
    }

    /// The end of `id` as `shape` writes it, `d` standing for an ASCII digit.
    private static func date(_ id: String, _ shape: String) -> Range<String.Index>? {
        let tail = id.utf8.suffix(shape.utf8.count)
        guard tail.count == shape.utf8.count,
            zip(tail, shape.utf8).allSatisfy({ byte, expected in expected == 0x64 ? isDigit(byte) : byte == expected })
        else { return nil }
        return id.index(id.endIndex, offsetBy: -shape.count)..<id.endIndex
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || (byte >= 0x61 && byte <= 0x7A) }

    /// The id as the water method classifies it: lower case, with the rules above applied.
    public static func normalized(_ raw: String) -> String { candidates(raw).last?.key ?? raw.lowercased() }
}
