/// Lines of text that fit a width: broken at spaces, or between the parts of a `·`-separated line, each
/// continuation indented two more than the line it continues; a word wider than the width (a long model id)
/// is shortened in the middle, as in tables. Without a width, lines stay as they are.
enum Prose {
    static let separator = " · "

    /// `line` broken at spaces so that no piece is wider than `width`.
    static func wrap(_ line: String, width: Int?) -> [String] {
        guard let width, line.visibleWidth > width else { return [line] }
        let indent = String(line.prefix { $0 == " " })
        return pieces(line.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false).map(String.init), joiner: " ", indent: indent, width: width)
    }

    static func wrap(_ lines: [String], width: Int?) -> [String] { lines.flatMap { wrap($0, width: width) } }

    /// `parts` joined by `joiner` (` · `), broken between parts to fit `width`; a part wider than that is broken
    /// at spaces.
    static func parts(_ parts: [String], joiner: String = separator, indent: String = "", width: Int?) -> [String] {
        let line = indent + parts.joined(separator: joiner)
        guard let width, line.visibleWidth > width else { return [line] }
        return pieces(parts, joiner: joiner, indent: indent, width: width).flatMap { wrap($0, width: width) }
    }

    private static func pieces(_ words: [String], joiner: String, indent: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = indent
        var empty = true
        for word in words {
            if !empty, line.visibleWidth + joiner.count + word.visibleWidth > width {
                lines.append(line)
                line = indent + "  "
                empty = true
            }
            let room = width - line.visibleWidth - (empty ? 0 : joiner.count)
            line += (empty ? "" : joiner) + (word.visibleWidth > room ? Table.shorten(word, to: max(1, room)) : word)
            empty = false
        }
        return lines + [line]
    }
}

extension String {
    /// The columns it takes on a terminal: its characters, less the escape sequences that set colors.
    var visibleWidth: Int {
        var width = 0
        var inEscape = false
        for character in self {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}
