import Foundation
import XCTest
@testable import UnpromptKit
import UnpromptTestSupport

final class YAMLLoaderTests: XCTestCase {
    // MARK: Tree and marks

    func testBuildsTreeInFileOrderWithMarks() throws {
        let root = try YAMLLoader.load("""
            name: demo
            "quoted key": [a, 'b']
            list:
              - 1
              - {x: y}
            """, file: "t.yaml")

        func scalar(_ value: String, plain: Bool = true, _ line: Int, _ column: Int) -> YAMLNode {
            // Each is written on one line, character for character: its value starts after its quote, if any.
            YAMLNode(
                kind: .scalar(value, plain: plain), mark: SourceMark(line: line, column: column),
                exactStart: SourceMark(line: line, column: column + (plain ? 0 : 1)))
        }
        func mark(_ line: Int, _ column: Int) -> SourceMark { SourceMark(line: line, column: column) }
        let expected = YAMLNode(kind: .mapping([
            YAMLEntry(key: "name", keyMark: mark(1, 1), value: scalar("demo", 1, 7), keyExactStart: mark(1, 1)),
            YAMLEntry(
                key: "quoted key", keyMark: SourceMark(line: 2, column: 1),
                value: YAMLNode(
                    kind: .sequence([scalar("a", 2, 16), scalar("b", plain: false, 2, 19)]),
                    mark: SourceMark(line: 2, column: 15)),
                keyIsPlain: false, keyExactStart: mark(2, 2)),
            YAMLEntry(key: "list", keyMark: mark(3, 1), value: YAMLNode(
                kind: .sequence([
                    scalar("1", 4, 5),
                    YAMLNode(kind: .mapping([YAMLEntry(key: "x", keyMark: mark(5, 6), value: scalar("y", 5, 9), keyExactStart: mark(5, 6))]),
                             mark: SourceMark(line: 5, column: 5)),
                ]),
                mark: SourceMark(line: 4, column: 3)), keyExactStart: mark(3, 1)),
        ]), mark: SourceMark(line: 1, column: 1))
        XCTAssertEqual(root, expected)
    }

    func testMarksAreOneBased() throws {
        let root = try YAMLLoader.load("top:\n  mid:\n    key: value\n", file: "t.yaml")
        let entry = try XCTUnwrap(entries(entries(entries(root)[0].value)[0].value).first)
        XCTAssertEqual(entry.key, "key")
        XCTAssertEqual(entry.keyMark, SourceMark(line: 3, column: 5))
        XCTAssertEqual(entry.value.mark, SourceMark(line: 3, column: 10))
    }

    func testPlainIsFalseForQuotedAndBlockScalars() throws {
        let root = try YAMLLoader.load("""
            a: true
            b: "true"
            c: 'true'
            d: |
              true
            e: >-
              true
            f: "nul\\0inside"
            """, file: "t.yaml")
        let kinds = try entries(root).map(\.value.kind)
        XCTAssertEqual(kinds, [
            .scalar("true", plain: true),
            .scalar("true", plain: false),
            .scalar("true", plain: false),
            .scalar("true\n", plain: false),
            .scalar("true", plain: false),
            .scalar("nul\u{0}inside", plain: false),
        ])
    }

    // MARK: libyaml errors

    func testSyntaxErrorReportsLibyamlProblemAtOneBasedMark() {
        let error = loadError("a: 1\nb: 2\nc: 3\nabc: d: e\n", file: "x.yaml")
        XCTAssertEqual(error?.description, "x.yaml:4:7: YAML syntax error: mapping values are not allowed in this context")
    }

    func testSyntaxErrorIncludesLibyamlContext() {
        let error = loadError("a: 1\nb: [1, 2\n")
        XCTAssertEqual(error?.mark, SourceMark(line: 3, column: 1))
        XCTAssertEqual(error?.message, "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at 2:4)")
    }

    func testControlCharacterIsReportedAtItsCharacterPosition() {
        // "é" is two bytes but one column, as in libyaml's own marks.
        let error = loadError("a: 1\né: x\u{7}y\n")
        XCTAssertEqual(error?.mark, SourceMark(line: 2, column: 5))
        XCTAssertEqual(error?.message, "YAML syntax error: control characters are not allowed")
    }

    func testInvalidUTF8DoesNotCrash() throws {
        // A Swift String cannot hold invalid UTF-8: decoding repairs it to U+FFFD, which libyaml accepts.
        let bytes: [UInt8] = Array("a: x".utf8) + [0xFF, 0xC3, 0x0A] + Array("b: y".utf8) + [0xE2, 0x82]
        let root = try YAMLLoader.load(String(decoding: bytes, as: UTF8.self), file: "t.yaml")
        XCTAssertEqual(try entries(root).map(\.value.kind), [.scalar("x\u{FFFD}\u{FFFD}", plain: true), .scalar("y\u{FFFD}", plain: true)])
    }

    // MARK: Descriptor restrictions

    func testMappingKeysMustBeScalars() {
        XCTAssertEqual(loadError("a: 1\n? [x, y]\n: 2\n"), expected(2, 3, "mapping keys must be plain strings"))
        XCTAssertEqual(loadError("a: 1\n{k: v}: 2\n"), expected(2, 1, "mapping keys must be plain strings"))
    }

    func testDuplicateKeyIsReportedAtSecondOccurrence() throws {
        XCTAssertEqual(loadError("kind: x\nname: a\nlist: []\nname: b\n"), expected(4, 1, "duplicate key 'name' (first at 2:1)"))
        XCTAssertEqual(loadError("a:\n  k: 1\n  'k': 2\n"), expected(3, 3, "duplicate key 'k' (first at 2:3)"))
        // The same key in different mappings is fine.
        XCTAssertNoThrow(try YAMLLoader.load("a: {k: 1}\nb: {k: 2}\n", file: "t.yaml"))
    }

    func testAnchorsAliasesAndMergeKeysAreRejected() {
        let message = "anchors and aliases are not supported in descriptors"
        XCTAssertEqual(loadError("base: &b {x: 1}\n"), expected(1, 7, message))
        XCTAssertEqual(loadError("a: 1\nb: [1, *a]\n"), expected(2, 8, message))
        XCTAssertEqual(loadError("&k a: 1\n"), expected(1, 1, message))
        XCTAssertEqual(loadError("a: 1\n<<: {x: 1}\n"), expected(2, 1, message + " (merge key '<<')"))
        // Quoted, "<<" is an ordinary key.
        XCTAssertNoThrow(try YAMLLoader.load("'<<': 1\n", file: "t.yaml"))
    }

    func testTagsAreRejected() {
        XCTAssertEqual(loadError("a: !!str 1\n"), expected(1, 4, "tags are not supported"))
        XCTAssertEqual(loadError("a: 1\nb: !custom\n  x: y\n"), expected(2, 4, "tags are not supported"))
        XCTAssertEqual(loadError("a: ! [1]\n"), expected(1, 4, "tags are not supported"))
    }

    func testEmptyDocumentIsRejected() {
        for text in ["", "# only a comment\n\n# and another\n", "\n   \n"] {
            XCTAssertEqual(loadError(text), expected(1, 1, "empty document, expected a mapping"), "for \(text.debugDescription)")
        }
    }

    func testOnlyOneDocumentIsAllowed() throws {
        XCTAssertEqual(loadError("a: 1\n---\nb: 2\n"), expected(2, 1, "only one YAML document is allowed"))
        XCTAssertEqual(loadError("---\na: 1\n...\n# gap\n\n--- b: 2\n"), expected(6, 1, "only one YAML document is allowed"))
        // Explicit markers around a single document are fine.
        XCTAssertNoThrow(try YAMLLoader.load("---\na: 1\n...\n# trailing comment\n", file: "t.yaml"))
    }

    func testNestingIsCappedInsteadOfExhaustingTheStack() throws {
        let limit = YAMLLoader.maxDepth
        XCTAssertNoThrow(try YAMLLoader.load(nested(limit), file: "t.yaml"))
        XCTAssertEqual(loadError(nested(limit + 1)),
                       expected(1, limit + 1, "collections nested deeper than \(limit) levels are not supported"))
        XCTAssertNotNil(loadError(nested(100_000)))
    }

    // MARK: Robustness

    func testMutatedDocumentsNeverCrash() {
        let valid = """
            # descriptor
            name: "demo tool"
            version: 2
            paths: [~/.demo/logs, '/var/log/demo']
            fields:
              - {key: tokens.input, type: int}
              - key: model
                type: string
                note: |
                  multi-line
                  text
            """
        var inputs = (0...valid.utf8.count).map { String(decoding: valid.utf8.prefix($0), as: UTF8.self) }
        var random = SeededRandom(seed: 0x5EED)
        let alphabet = Array("-:?[]{},&*!|>'\"#%@` \t\n\r\u{0}\u{85}\u{FEFF}é".utf8)
        for _ in 0..<3_000 {
            var bytes = Array(valid.utf8)
            for _ in 0...random.below(4) {
                let value = random.below(2) == 0 ? alphabet[random.below(alphabet.count)] : UInt8(random.below(256))
                bytes[random.below(bytes.count)] = value
            }
            inputs.append(String(decoding: bytes, as: UTF8.self))
        }
        for _ in 0..<1_000 {
            let bytes = (0..<random.below(200)).map { _ in alphabet[random.below(alphabet.count)] }
            inputs.append(String(decoding: bytes, as: UTF8.self))
        }

        for text in inputs {
            do {
                _ = try YAMLLoader.load(text, file: "fuzz.yaml")
            } catch {
                // Typed throws already guarantees a DescriptorError; its mark must still point into the text.
                let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
                XCTAssert(error.mark.line >= 1 && error.mark.line <= lines + 1 && error.mark.column >= 1,
                          "\(error) for \(text.debugDescription)")
            }
        }
    }

    #if os(Linux)
    func testRepeatedLoadsFreeLibyamlMemory() throws {
        // Each leaked parser would keep tens of kilobytes of buffers, each leaked event its scalar copies.
        let texts = ["a: 1\nb: [s, t, u, v, w, x, y, z]\nc: {d: e, f: g, h: i}\n", "a: 1\nb: [x, y\n", "a: 1\nb: *x\n", "a: 1\n---\nb: 2\n"]
        func loadAll() { for text in texts { _ = try? YAMLLoader.load(text, file: "t.yaml") } }
        for _ in 0..<1_000 { loadAll() }
        let before = try residentBytes()
        for _ in 0..<20_000 { loadAll() }
        let grown = try residentBytes() - before
        XCTAssertLessThan(grown, 8 << 20, "resident memory grew by \(grown) bytes")
    }

    private func residentBytes() throws -> Int {
        // statm's second field is the resident page count.
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try XCTUnwrap(Int(statm[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
    #endif

    // MARK: Helpers

    private func loadError(_ text: String, file: String = "t.yaml") -> DescriptorError? {
        do {
            _ = try YAMLLoader.load(text, file: file)
            return nil
        } catch {
            return error
        }
    }

    private func expected(_ line: Int, _ column: Int, _ message: String) -> DescriptorError {
        DescriptorError(file: "t.yaml", mark: SourceMark(line: line, column: column), message: message)
    }

    private func entries(_ node: YAMLNode) throws -> [YAMLEntry] {
        guard case .mapping(let entries) = node.kind else { throw NotAMapping(mark: node.mark) }
        return entries
    }

    /// `depth` nested flow sequences around a scalar, all on line 1.
    private func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + "x" + String(repeating: "]", count: depth)
    }
}

private struct NotAMapping: Error {
    let mark: SourceMark
}
