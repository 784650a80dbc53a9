import Foundation
import Testing
import UnpromptTestSupport

/// Adding a tool is a descriptor and fixtures, never Swift: no string in `Sources/` (test support excepted)
/// names a reader. A reader's id is the name of its file in `readers/`; comments may name tools.
struct NoReaderInSourcesTests {
    static let exempt = ["UnpromptTestSupport"]

    static func readerIDs() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Repository.readers).filter { $0.hasSuffix(".yaml") }
            .map { String($0.dropLast(".yaml".count)) }.sorted()
    }

    static func swiftFiles() throws -> [String] {
        let sources = Repository.root + "/Sources"
        guard let walker = FileManager.default.enumerator(atPath: sources) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !exempt.contains(String($0.split(separator: "/")[0])) }
            .map { sources + "/" + $0 }.sorted()
    }

    /// The string literals of Swift source (plain, multi-line and raw), without the comments around them.
    static func literals(_ source: String) -> [String] {
        let text = Array(source.unicodeScalars)
        var literals: [String] = []
        var i = 0
        func starts(_ token: String, at index: Int) -> Bool {
            let scalars = Array(token.unicodeScalars)
            return index + scalars.count <= text.count && Array(text[index..<index + scalars.count]) == scalars
        }
        while i < text.count {
            if starts("//", at: i) {
                while i < text.count, text[i] != "\n" { i += 1 }
            } else if starts("/*", at: i) {
                var depth = 0
                repeat {
                    if starts("/*", at: i) { depth += 1; i += 2 } else if starts("*/", at: i) { depth -= 1; i += 2 } else { i += 1 }
                } while depth > 0 && i < text.count
            } else if text[i] == "#" || text[i] == "\"" {
                var hashes = 0
                var j = i
                while j < text.count, text[j] == "#" { hashes += 1; j += 1 }
                guard j < text.count, text[j] == "\"" else {
                    i = j + (hashes == 0 ? 1 : 0)
                    continue
                }
                let quotes = starts("\"\"\"", at: j) ? "\"\"\"" : "\""
                let close = quotes + String(repeating: "#", count: hashes)
                var k = j + quotes.unicodeScalars.count
                var literal = String.UnicodeScalarView()
                while k < text.count, !starts(close, at: k) {
                    // An escaped character (with as many `#` as the literal's delimiter) never closes it.
                    if text[k] == "\\" && starts(String(repeating: "#", count: hashes), at: k + 1) {
                        literal.append(text[k])
                        k += 1 + hashes
                        if k < text.count { literal.append(text[k]) }
                        k += 1
                        continue
                    }
                    literal.append(text[k])
                    k += 1
                }
                literals.append(String(literal))
                i = k + close.unicodeScalars.count
            } else {
                i += 1
            }
        }
        return literals
    }

    /// Whether `id` stands in `literal` as a word of its own (not inside a longer id or word, nor an HTML entity).
    static func names(_ literal: String, _ id: String) -> Bool {
        let isIDCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        var searchStart = literal.startIndex
        while let range = literal.range(of: id, range: searchStart..<literal.endIndex) {
            let before = range.lowerBound == literal.startIndex ? nil : literal[literal.index(before: range.lowerBound)]
            let after = range.upperBound == literal.endIndex ? nil : literal[range.upperBound]
            // An HTML character reference (`&amp;`) spells an escape, not a reader.
            let isEntity = before == "&" && after == ";"
            if !isEntity && !(before.map(isIDCharacter) ?? false) && !(after.map(isIDCharacter) ?? false) { return true }
            searchStart = range.upperBound
        }
        return false
    }

    @Test func noStringInSourcesNamesAReader() throws {
        let ids = try Self.readerIDs()
        let files = try Self.swiftFiles()
        #expect(ids.count >= 20 && ids.contains("claude-code"), "\(ids)")
        #expect(files.count > 100, "the walk found \(files.count) files")
        for file in files {
            let source = try String(contentsOfFile: file, encoding: .utf8)
            for literal in Self.literals(source) {
                for id in ids where Self.names(literal, id) {
                    Issue.record("\(file.dropFirst(Repository.root.count + 1)) names the reader '\(id)' in \"\(literal)\"")
                }
            }
        }
    }

    @Test func theCheckFindsWhatItLooksFor() {
        let source = ##"""
            // "codex" in a comment is allowed
            let a = "limits of codex"  /* "zed" */
            let b = #"claude-code: \#(x)"#
            let c = """
                pi
                """
            let d = "\"amp\" and codexes and gemini-cli-2"
            """##
        #expect(Self.literals(source) == ["limits of codex", #"claude-code: \(x)"#, "\n    pi\n    ", #"\"amp\" and codexes and gemini-cli-2"#])
        let named = ["codex", "claude-code", "pi", "amp", "gemini-cli", "zed"].filter { id in
            Self.literals(source).contains { Self.names($0, id) }
        }
        #expect(named == ["codex", "claude-code", "pi", "amp"])
    }
}
