/// Patterns that can take exponential time: a group repeated without bound (`+`, `*`, `{n,}`) whose body itself
/// repeats without bound, as in `(\d+)+y` or `(a*)*`. Against a line that almost matches, a backtracking engine
/// tries every way of splitting the run between the two quantifiers. Matching is bounded anyway
/// (`BoundedMatch`: such a line is skipped as `pattern-too-slow`), so this is a warning, given by
/// `readers validate`, never an error. Atomic groups `(?>…)` and possessive quantifiers (`++`, `*+`) do not
/// backtrack, and are not warned about.
public enum PatternRisk: Sendable {
    /// Whether `text` nests an unbounded quantifier inside an unbounded quantified group.
    public static func nestsQuantifiers(_ text: String) -> Bool {
        let chars = Array(text.unicodeScalars)
        // Per open group: whether it is atomic, and whether its body holds an unbounded quantifier.
        var groups: [(atomic: Bool, repeats: Bool)] = []
        var i = 0
        func unbounded(at index: Int) -> (Bool, next: Int) {
            guard index < chars.count else { return (false, index) }
            var end = index + 1
            var isUnbounded = false
            switch chars[index] {
            case "+", "*": isUnbounded = true
            case "{":
                guard let close = chars[index...].firstIndex(of: "}") else { return (false, index) }
                let body = String(String.UnicodeScalarView(chars[(index + 1)..<close]))
                isUnbounded = body.hasSuffix(",")
                end = close + 1
            case "?": end = index + 1
            default: return (false, index)
            }
            // A possessive quantifier never gives back what it took.
            if end < chars.count, chars[end] == "+" { return (false, end + 1) }
            if end < chars.count, chars[end] == "?" { end += 1 }
            return (isUnbounded, end)
        }
        func markRepeat() { if !groups.isEmpty { groups[groups.count - 1].repeats = true } }
        while i < chars.count {
            switch chars[i] {
            case "\\":
                i += 2
                let (isUnbounded, next) = unbounded(at: i)
                if isUnbounded { markRepeat() }
                i = next
            case "[":
                // A class is one atom: skip to its closing bracket (a `]` first in it is literal).
                var j = i + 1
                if j < chars.count, chars[j] == "^" { j += 1 }
                if j < chars.count, chars[j] == "]" { j += 1 }
                while j < chars.count, chars[j] != "]" { j += chars[j] == "\\" ? 2 : 1 }
                let (isUnbounded, next) = unbounded(at: j + 1)
                if isUnbounded { markRepeat() }
                i = next
            case "(":
                let atomic = i + 2 < chars.count && chars[i + 1] == "?" && chars[i + 2] == ">"
                groups.append((atomic, false))
                i += 1
            case ")":
                guard let group = groups.popLast() else { i += 1; continue }
                let (isUnbounded, next) = unbounded(at: i + 1)
                if isUnbounded, group.repeats, !group.atomic { return true }
                if (isUnbounded || group.repeats) && !group.atomic { markRepeat() }
                i = next
            default:
                let (isUnbounded, next) = unbounded(at: i + 1)
                if isUnbounded { markRepeat() }
                i = next
            }
        }
        return false
    }
}

extension Descriptor {
    /// Every regular expression of the descriptor, wherever the language allows one (conditions, values, a text
    /// input's line patterns), found by walking the descriptor's values, so a new place for a pattern is never
    /// missed here.
    public var patterns: [Pattern] {
        var found: [Pattern] = []
        func walk(_ value: Any) {
            if let pattern = value as? Pattern {
                found.append(pattern)
                return
            }
            for child in Mirror(reflecting: value).children { walk(child.value) }
        }
        walk(self)
        return found
    }
}
