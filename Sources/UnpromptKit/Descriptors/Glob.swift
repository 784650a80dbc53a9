import Foundation

/// A relative path pattern: `*` and `?` within one path segment, `[abc]` character sets, `{a,b}`
/// alternatives, and `**` as a whole segment for any number of directories (including none). Names are matched
/// scalar by scalar as the walk spells them (`SystemPath`): a byte of a name that is not UTF-8 is one scalar, so
/// `*` and `?` match it and no literal does.
public struct Glob: Sendable, CustomStringConvertible {
    enum Segment: Sendable {
        case anyDepth
        case pattern([Token])
    }

    // Tokens are Unicode scalars: matching runs for every directory entry of a walk, and comparing
    // scalars is much cheaper than comparing grapheme clusters.
    enum Token: Sendable {
        case literal(Unicode.Scalar)
        case anyRun
        case anyOne
        case set([Unicode.Scalar], negated: Bool)
        case alternatives([[Token]])
    }

    public let text: String
    let segments: [Segment]
    /// Each segment's `Shortcut`, when it has one.
    private let shortcuts: [Shortcut?]

    init(text: String, segments: [Segment]) {
        self.text = text
        self.segments = segments
        shortcuts = segments.map { if case .pattern(let tokens) = $0 { Shortcut(tokens) } else { nil } }
    }

    /// A segment that is a plain name, or `*` and then a plain end (`*.jsonl`): the segments nearly every glob
    /// ends with, matched by comparing UTF-8 bytes (equal exactly when the scalars are), without the recursion
    /// `matchName` needs for the general case.
    private enum Shortcut: Sendable {
        case exactly([UInt8])
        case endsWith([UInt8])

        init?(_ tokens: [Token]) {
            var rest = tokens[...]
            let anyStart: Bool
            if case .anyRun? = rest.first {
                anyStart = true
                rest = rest.dropFirst()
            } else {
                anyStart = false
            }
            var literal = String.UnicodeScalarView()
            for token in rest {
                guard case .literal(let c) = token else { return nil }
                literal.append(c)
            }
            let bytes = Array(String(literal).utf8)
            self = anyStart ? .endsWith(bytes) : .exactly(bytes)
        }

        func matches(_ name: Substring.UTF8View) -> Bool {
            switch self {
            case .exactly(let literal): name.count == literal.count && Self.same(name, literal)
            case .endsWith(let end): name.count >= end.count && Self.same(name.suffix(end.count), end)
            }
        }

        private static func same(_ bytes: Substring.UTF8View, _ literal: [UInt8]) -> Bool {
            bytes.withContiguousStorageIfAvailable { bytes in
                literal.withUnsafeBufferPointer { literal in
                    literal.isEmpty || memcmp(bytes.baseAddress!, literal.baseAddress!, literal.count) == 0
                }
            } ?? bytes.elementsEqual(literal)
        }
    }

    /// Whether the pattern segment at `index` (its `tokens`) matches one name.
    private func segment(_ index: Int, _ tokens: [Token], matches name: Substring) -> Bool {
        if let shortcut = shortcuts[index] { return shortcut.matches(name.utf8) }
        return Glob.matchName(tokens[...], name.unicodeScalars)
    }

    public var description: String { text }

    /// The leading segments without wildcards: the directory where a walk can start.
    public var literalPrefix: [String] {
        var prefix: [String] = []
        for segment in segments {
            guard case .pattern(let tokens) = segment else { break }
            var literal = ""
            for token in tokens {
                guard case .literal(let c) = token else { return prefix }
                literal.unicodeScalars.append(c)
            }
            prefix.append(literal)
        }
        // The last segment names files, never a directory to start from.
        if prefix.count == segments.count { prefix.removeLast() }
        return prefix
    }

    /// Whether a match can have more than `literalPrefix.count + 1` segments.
    public var isRecursive: Bool { segments.contains { if case .anyDepth = $0 { true } else { false } } }

    public static func parse(_ text: String) -> Result<Glob, FieldPathError> {
        if text.isEmpty { return .failure(FieldPathError(offset: 0, message: "empty glob")) }
        if text.hasPrefix("/") {
            return .failure(FieldPathError(offset: 0, message: "a glob is relative to its root; it must not start with '/'"))
        }
        if let slash = slashInsideBraces(text) {
            return .failure(
                FieldPathError(
                    offset: slash,
                    message: "a '/' inside '{…}': alternatives choose within one path segment, so a '{…}' cannot hold a '/'; write one source per alternative"))
        }
        var segments: [Segment] = []
        var offset = 0
        // Split by bytes, with no Foundation search: every scan parses the globs of the descriptors it walks.
        for bytes in text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let part = String(Substring(bytes))
            if part.isEmpty { return .failure(FieldPathError(offset: offset, message: "empty path segment")) }
            if part == "." || part == ".." {
                return .failure(FieldPathError(offset: offset, message: "'\(part)' is not allowed in a glob"))
            }
            if part == "**" {
                segments.append(.anyDepth)
            } else if Self.holdsDoubleStar(bytes) {
                return .failure(FieldPathError(offset: offset, message: "'**' must be a whole path segment"))
            } else {
                switch parseTokens(Array(part.unicodeScalars), from: 0, inBraces: false) {
                case .success(let (tokens, _)): segments.append(.pattern(tokens))
                case .failure(let error):
                    return .failure(FieldPathError(offset: offset + error.offset, message: error.message))
                }
            }
            offset += part.count + 1
        }
        if case .anyDepth = segments.last {
            return .failure(FieldPathError(offset: text.count - 2, message: "a glob must end with a file pattern, not '**'"))
        }
        return .success(Glob(text: text, segments: segments))
    }

    /// Whether a segment holds `**`: a loop over its bytes (a `zip` of them made its generic types at run time).
    private static func holdsDoubleStar(_ bytes: Substring.UTF8View) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "*"), previous == byte { return true }
            previous = byte
        }
        return false
    }

    /// The character offset of a `/` between a `{` and the `}` that closes it, if any.
    private static func slashInsideBraces(_ text: String) -> Int? {
        let chars = Array(text.unicodeScalars)
        var opened: [Int] = []
        var slash: Int?
        for (index, c) in chars.enumerated() {
            switch c {
            case "{": opened.append(index)
            case "}" where !opened.isEmpty:
                opened.removeLast()
                if let slash { return slash }
            case "/" where !opened.isEmpty && slash == nil: slash = index
            default: break
            }
            if opened.isEmpty { slash = nil }
        }
        return nil
    }

    private static func parseTokens(_ chars: [Unicode.Scalar], from start: Int, inBraces: Bool)
        -> Result<([Token], Int), FieldPathError>
    {
        var tokens: [Token] = []
        var i = start
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "*": tokens.append(.anyRun)
            case "?": tokens.append(.anyOne)
            case "[":
                guard let close = chars[(i + 1)...].firstIndex(of: "]"), close > i + 1 else {
                    return .failure(FieldPathError(offset: i, message: "unclosed '['"))
                }
                var set = Array(chars[(i + 1)..<close])
                let negated = set.first == "!"
                if negated { set.removeFirst() }
                if set.isEmpty { return .failure(FieldPathError(offset: i, message: "empty '[]'")) }
                tokens.append(.set(set, negated: negated))
                i = close
            case "{":
                var options: [[Token]] = []
                var next = i + 1
                var closed = false
                while !closed {
                    switch parseTokens(chars, from: next, inBraces: true) {
                    case .failure(let error): return .failure(error)
                    case .success(let (option, end)):
                        guard end < chars.count else {
                            return .failure(FieldPathError(offset: i, message: "unclosed '{'"))
                        }
                        options.append(option)
                        if chars[end] == "}" {
                            closed = true
                            i = end
                        } else {
                            next = end + 1
                        }
                    }
                }
                tokens.append(.alternatives(options))
            case "," where inBraces, "}" where inBraces:
                return .success((tokens, i))
            case "}", "]":
                return .failure(FieldPathError(offset: i, message: "unexpected '\(c)'"))
            default:
                tokens.append(.literal(c))
            }
            i += 1
        }
        return .success((tokens, i))
    }

    /// Whether a relative path (segments already split) matches.
    /// The names' scalars are read in place (no copy): this runs for every entry of every walk.
    public func matches(_ pathSegments: [Substring]) -> Bool {
        match(segments[...], pathSegments[...])
    }

    /// Whether a directory at this relative depth could contain a match (to prune walks).
    public func mayDescend(into pathSegments: [Substring]) -> Bool {
        prefixMayMatch(segments[...], pathSegments[...])
    }

    private func match(_ globs: ArraySlice<Segment>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = globs.first else { return path.isEmpty }
        switch first {
        case .anyDepth:
            // `**` and then one file pattern, as nearly every recursive glob ends: only the last name can match
            // that pattern, so it is the one tried (a walk asks this of every file it finds).
            if globs.count == 2, case .pattern(let tokens) = globs[globs.startIndex + 1] {
                guard let last = path.last else { return false }
                return segment(globs.startIndex + 1, tokens, matches: last)
            }
            var rest = path
            while true {
                if match(globs.dropFirst(), rest) { return true }
                if rest.isEmpty { return false }
                rest = rest.dropFirst()
            }
        case .pattern(let tokens):
            guard let name = path.first, segment(globs.startIndex, tokens, matches: name) else { return false }
            return match(globs.dropFirst(), path.dropFirst())
        }
    }

    private func prefixMayMatch(_ globs: ArraySlice<Segment>, _ path: ArraySlice<Substring>) -> Bool {
        // A directory whose path the glob's leading segments matched may hold a match below it.
        guard let name = path.first else { return !globs.isEmpty }
        guard let first = globs.first else { return false }
        switch first {
        case .anyDepth: return true
        case .pattern(let tokens):
            return globs.count > 1 && segment(globs.startIndex, tokens, matches: name) && prefixMayMatch(globs.dropFirst(), path.dropFirst())
        }
    }

    private static func matchName(_ tokens: ArraySlice<Token>, _ name: Substring.UnicodeScalarView) -> Bool {
        guard let token = tokens.first else { return name.isEmpty }
        let rest = tokens.dropFirst()
        switch token {
        case .literal(let c):
            return name.first == c && matchName(rest, name.dropFirst())
        case .anyOne:
            return !name.isEmpty && matchName(rest, name.dropFirst())
        case .set(let set, let negated):
            guard let c = name.first, set.contains(c) != negated else { return false }
            return matchName(rest, name.dropFirst())
        case .anyRun:
            var tail = name
            while true {
                if matchName(rest, tail) { return true }
                if tail.isEmpty { return false }
                tail = tail.dropFirst()
            }
        case .alternatives(let options):
            return options.contains { matchName($0[...] + rest, name) }
        }
    }
}
