import Foundation
import XCTest
@testable import UnpromptKit
import UnpromptTestSupport

/// The descriptor language: real descriptors load, and every kind of mistake is reported at the exact
/// `file:line:col` with a message that says what is wrong.
final class DescriptorLoaderTests: XCTestCase {
    /// The repository root, found from this file's path (Tests/UnpromptKitTests/<this file>).
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func readerText(_ name: String) throws -> String {
        try String(contentsOf: repoRoot.appendingPathComponent("readers/\(name)"), encoding: .utf8)
    }

    /// A minimal valid descriptor. Line numbers are referred to by the tests below:
    ///  1 schema          5 input item (`-` at col 3, `format` at col 5)    10 record item (`name` at col 9)
    ///  7 source `root`   8 source `glob`   11 `time`   13 `input` (col 11, value col 18)   14-16 counting
    static let minimal = """
        schema: 1
        id: demo
        name: Demo
        inputs:
          - format: jsonl
            sources:
              - root: /tmp/demo
                glob: "*.jsonl"
            records:
              - name: usage
                time: ts
                tokens:
                  input: in
                counting:
                  input_includes_cache: false
                  output_includes_reasoning: true
        """

    // MARK: Helpers

    /// `minimal` with line `number` (1-based) replaced by `lines` (which may be several, or none).
    func replacing(_ number: Int, with lines: [String], in text: String = minimal) -> String {
        var all = text.components(separatedBy: "\n")
        all.replaceSubrange((number - 1)..<number, with: lines)
        return all.joined(separator: "\n")
    }

    func replacing(_ range: ClosedRange<Int>, with lines: [String], in text: String = minimal) -> String {
        var all = text.components(separatedBy: "\n")
        all.replaceSubrange((range.lowerBound - 1)..<range.upperBound, with: lines)
        return all.joined(separator: "\n")
    }

    func inserting(_ lines: [String], after number: Int, in text: String = minimal) -> String {
        var all = text.components(separatedBy: "\n")
        all.insert(contentsOf: lines, at: number)
        return all.joined(separator: "\n")
    }

    func loadError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> DescriptorError? {
        do {
            _ = try DescriptorLoader.load(text: text, file: "test.yaml")
            XCTFail("expected a DescriptorError, but the descriptor loaded", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// Asserts that loading fails exactly at `line:column` with a message containing `message`.
    func assertError(
        _ text: String, line expectedLine: Int, column expectedColumn: Int, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error = loadError(text, file: file, line: line) else { return }
        XCTAssertEqual(error.file, "test.yaml", file: file, line: line)
        XCTAssertEqual(
            error.mark, SourceMark(line: expectedLine, column: expectedColumn), "\(error)", file: file, line: line)
        XCTAssertTrue(
            error.message.contains(message), "message \"\(error.message)\" lacks \"\(message)\"", file: file,
            line: line)
        XCTAssertEqual(
            error.description, "test.yaml:\(expectedLine):\(expectedColumn): \(error.message)", file: file, line: line)
    }

    // MARK: Valid descriptors

    func testMinimalDescriptorLoads() throws {
        let d = try DescriptorLoader.load(text: Self.minimal, file: "m.yaml")
        XCTAssertEqual(d.id, "demo")
        XCTAssertEqual(d.name, "Demo")
        XCTAssertEqual(d.identitySpace, "demo", "identity_space defaults to the id")
        XCTAssertEqual(d.file, "m.yaml")
        XCTAssertEqual(d.inputs.count, 1)
        let input = d.inputs[0]
        XCTAssertEqual(input.format, .jsonl)
        XCTAssertEqual(input.prefilter, [])
        XCTAssertEqual(input.sources.count, 1)
        XCTAssertEqual(input.sources[0].root, "/tmp/demo")
        XCTAssertEqual(input.sources[0].glob.text, "*.jsonl")
        XCTAssertNil(input.sources[0].maxDepth)
        XCTAssertEqual(input.sources[0].mark, SourceMark(line: 7, column: 9))
        XCTAssertEqual(input.records.count, 1)
        let record = input.records[0]
        XCTAssertEqual(record.name, "usage")
        XCTAssertEqual(record.time.format, .iso8601)
        guard case .path(let timePath) = record.time.value.alternatives.first else { return XCTFail("time is a path") }
        XCTAssertEqual(timePath.components, [.key("ts")])
        XCTAssertEqual(record.time.value.mark, SourceMark(line: 11, column: 15))
        XCTAssertNotNil(record.tokens.input)
        XCTAssertNil(record.tokens.output)
        XCTAssertNil(record.identity)
        XCTAssertNil(record.cumulative)
        XCTAssertFalse(record.estimated)
        guard case .always(false) = record.counting.inputIncludesCache else { return XCTFail("input_includes_cache") }
        guard case .always(true) = record.counting.outputIncludesReasoning else { return XCTFail("output_includes_reasoning") }
    }

    /// An input of limit readings only has no records; its limit rule may select array elements. Without
    /// limits, records stay required.
    func testAnInputWithLimitsNeedsNoRecords() throws {
        let text = replacing(9...16, with: [
            "    limits:",
            "      - select: \"samples[]\"",
            "        time: { path: t, as: epoch_ms }",
            "        windows:",
            "          - { name: five_hour, used_percent: u.fh }",
        ])
        let input = try DescriptorLoader.load(text: text, file: "l.yaml").inputs[0]
        XCTAssertTrue(input.records.isEmpty)
        XCTAssertEqual(input.limits.first?.select?.kind, .arrayElements)
        XCTAssertEqual(input.limits.first?.select?.path.components, [.key("samples")])
        assertError(replacing(9...16, with: []), line: 5, column: 5, "records")
    }

    func testCodexDescriptorLoads() throws {
        let d = try DescriptorLoader.load(text: try Self.readerText("codex.yaml"), file: "codex.yaml")
        XCTAssertEqual(d.id, "codex")
        XCTAssertEqual(d.name, "Codex CLI")
        XCTAssertEqual(d.identitySpace, "codex")
        XCTAssertEqual(d.inputs.count, 1)
        let input = d.inputs[0]
        XCTAssertEqual(input.format, .jsonl)
        XCTAssertEqual(input.sources.map(\.root), ["${CODEX_HOME:-~/.codex}", "${CODEX_HOME:-~/.codex}"])
        XCTAssertEqual(input.sources.map(\.glob.text), ["sessions/**/*.jsonl", "archived_sessions/*.jsonl"])
        XCTAssertEqual(
            input.prefilter,
            [Array("\"token_count\"".utf8), Array("\"turn_context\"".utf8), Array("\"thread_settings_applied\"".utf8)])
        XCTAssertEqual(input.carry.map { $0.set.map(\.name) }, [["model"], ["service_tier"]])
        XCTAssertEqual(input.records.map(\.name), ["token-count"])
        let record = input.records[0]
        XCTAssertEqual(record.tokensAt?.text, "payload.info.total_token_usage")
        XCTAssertEqual(record.cumulative?.fallbackAt?.text, "payload.info.last_token_usage")
        XCTAssertEqual(record.cumulative?.key.count, 0)
        XCTAssertEqual(record.identity?.keep, .first)
        XCTAssertEqual(record.identity?.scope, .global)
        XCTAssertEqual(input.limits.count, 1)
        XCTAssertEqual(input.limits[0].windows.map(\.name), ["primary", "secondary"])
        XCTAssertEqual(input.limits[0].windows[0].resetsAt?.format, .epochSeconds)
        XCTAssertEqual(input.limits[0].windows[0].usedPercent?.alternatives.count, 2)
    }

    func testClaudeCodeDescriptorLoads() throws {
        let d = try DescriptorLoader.load(text: try Self.readerText("claude-code.yaml"), file: "claude-code.yaml")
        XCTAssertEqual(d.id, "claude-code")
        XCTAssertEqual(d.name, "Claude Code")
        let input = try XCTUnwrap(d.inputs.first)
        XCTAssertEqual(
            input.sources.map(\.root), ["${CLAUDE_CONFIG_DIR}", "~/.claude", "${XDG_CONFIG_HOME:-~/.config}/claude"])
        XCTAssertEqual(input.sources.map(\.glob.text), Array(repeating: "projects/**/*.jsonl", count: 3))
        XCTAssertEqual(input.prefilter, [Array("\"usage\"".utf8), Array("\"isApiErrorMessage\"".utf8)])
        XCTAssertEqual(input.limits.first?.windows.map(\.name), ["limit_reached"])
        XCTAssertEqual(input.limits.first?.match.last?.test, .matches(try pattern(#"usage limit reached\|\d{9,11}\s*$"#)))
        let record = try XCTUnwrap(input.records.first)
        XCTAssertEqual(record.name, "assistant-message")
        XCTAssertEqual(record.skip.map(\.reason), ["synthetic"])
        XCTAssertEqual(record.skip[0].when.first?.test, .equals([.string("<synthetic>")]))
        XCTAssertEqual(record.identity?.keep, .largest)
        XCTAssertEqual(record.identity?.key.count, 2)
        XCTAssertEqual(record.identity?.fallback.count, 1)
        XCTAssertNotNil(record.cost)
        XCTAssertNotNil(record.tokens.cacheWrite5m)
        XCTAssertNotNil(record.tokens.cacheWrite1h)
    }

    func testBuiltInSkipReasonsCannotBeReused() {
        assertError(
            inserting(["        skip: { duplicate: { a: 1 } }"], after: 11), line: 12, column: 17,
            "'duplicate' is a built-in skip reason")
    }

    func testFileNameMustBeTheID() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrong = directory.appendingPathComponent("other.yaml").path
        try Self.minimal.write(toFile: wrong, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try DescriptorLoader.load(path: wrong)) { error in
            XCTAssertEqual((error as? DescriptorError)?.description, "\(wrong):2:5: id 'demo' must match the file name 'other.yaml' (id: lowercase ASCII letters, digits and `-`, starting with a letter, at most 64 characters; the file name without `.yaml`; stored as the tool id)")
        }
        let right = directory.appendingPathComponent("demo.yaml").path
        try Self.minimal.write(toFile: right, atomically: true, encoding: .utf8)
        XCTAssertEqual(try DescriptorLoader.load(path: right).id, "demo")
    }

    func testMatchesConditionTakesARegularExpression() throws {
        let d = try DescriptorLoader.load(
            text: inserting(["        match: { text: { matches: 'limit reached\\|\\d+' } }"], after: 11), file: "test.yaml")
        XCTAssertEqual(d.inputs[0].records[0].match.first?.test, .matches(try pattern("limit reached\\|\\d+")))
        assertError(
            inserting(["        match: { text: { matches: '([' } }"], after: 11), line: 12, column: 38,
            "bad regular expression in matches: '([': a '[' set is not closed (ICU U_REGEX_MISSING_CLOSE_BRACKET) at character 3")
        assertError(
            inserting(["        match: { text: { matches: 'x', present: true } }"], after: 11), line: 12, column: 35,
            "a condition takes one of present, matches or less_than")
        assertError(
            inserting(["        match: { text: { } }"], after: 11), line: 12, column: 24,
            "needs present: true|false, matches: REGEX or less_than: NUMBER")
    }

    /// A quoted key without escapes is its characters, so its error points inside it; one with escapes may differ
    /// from its characters, so its error points at the key's start.
    func testBadQuotedConditionKeyPointsAtTheKey() {
        assertError(
            inserting(["        match: { \"a..b\": 1 }"], after: 11), line: 12, column: 21, "bad field path 'a..b'")
        assertError(
            inserting(["        match: { \"a\\u002e.b\": 1 }"], after: 11), line: 12, column: 18, "bad field path 'a..b'")
        assertError(
            inserting(["        match: { a..b: 1 }"], after: 11), line: 12, column: 20, "bad field path 'a..b'")
    }

    func testLoadByPathReportsUnreadableFile() {
        XCTAssertThrowsError(try DescriptorLoader.load(path: "/nonexistent/readers/x.yaml")) { error in
            let error = error as? DescriptorError
            XCTAssertEqual(error?.mark, SourceMark(line: 1, column: 1))
            XCTAssertEqual(error?.file, "/nonexistent/readers/x.yaml")
        }
    }

    func testConditionLiteralsAreTyped() throws {
        let text = inserting(
            ["        match: { a: 1, b: 2.5, c: true, d: null, e: \"1\", f: [x, 2], g: { present: false } }"],
            after: 10)
        let d = try DescriptorLoader.load(text: text, file: "t.yaml")
        let match = d.inputs[0].records[0].match
        XCTAssertEqual(match.map(\.subject.text), ["a", "b", "c", "d", "e", "f", "g"])
        XCTAssertEqual(match[0].test, .equals([.integer(1)]))
        XCTAssertEqual(match[1].test, .equals([.number(2.5)]))
        XCTAssertEqual(match[2].test, .equals([.bool(true)]))
        XCTAssertEqual(match[3].test, .equals([.null]))
        XCTAssertEqual(match[4].test, .equals([.string("1")]), "a quoted number is a string")
        XCTAssertEqual(match[5].test, .equals([.string("x"), .integer(2)]))
        XCTAssertEqual(match[6].test, .present(false))
    }

    func testConditionOnACarriedValueLoads() throws {
        let text = inserting(["        match: { \"@model\": x, ok: 1 }"], after: 11)
        let match = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].records[0].match
        XCTAssertEqual(match.map(\.subject), [.variable("model"), .path(try FieldPath.parse("ok").get())])
    }

    func testConditionOnAnEntryKeyIsRefused() {
        assertError(
            inserting(["        match: { \"@key\": x }"], after: 11), line: 12, column: 18,
            "a condition tests a field or a carried value")
    }

    func testCarriedValueNamedIndexIsRefused() {
        assertError(replacing(11, with: ["        time: \"@index\""]), line: 11, column: 15, "@index is the position of the element select expands")
        assertError(replacing(11, with: ["        time: \"@Index\""]), line: 11, column: 15, "a carried value is @ followed by its name")
    }

    func testElementIndexNeedsAnArraySelect() throws {
        assertError(
            replacing(13, with: ["          input: in", "        identity: { key: [\"^id\", \"@index\"], keep: first }"]),
            line: 14, column: 34, "record 'usage' has no select: path[]")
        let text = replacing(
            13, with: ["          input: in", "        select: rounds[]", "        identity: { key: [\"^id\", \"@index\"], keep: first }"])
        let record = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].records[0]
        guard case .elementIndex? = record.identity?.key.last?.alternatives.first else { return XCTFail("@index is the element's index") }
    }

    func testPatternListLoadsInOrder() throws {
        let text = replacing(11, with: ["        time: { path: ts, pattern: [\"^a(.+)$\", \"(.+)\"] }"])
        let record = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].records[0]
        XCTAssertEqual(record.time.value.patterns.map(\.text), ["^a(.+)$", "(.+)"])
        assertError(replacing(11, with: ["        time: { path: ts, pattern: [] }"]), line: 11, column: 36, "time.pattern must not be an empty list")
        assertError(
            replacing(11, with: ["        time: { path: ts, pattern: [\"(a)\", \"b\"] }"]), line: 11, column: 44,
            "time.pattern must have exactly 1 capture group")
    }

    func testSumOverAnArrayLoads() throws {
        let text = replacing(13, with: ["          input: rounds[].n", "          output: { sum: [out, \"parts[][].n\"] }"])
        let tokens = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].records[0].tokens
        guard case .each(let rounds)? = tokens.input?.addends.first, case .each(let parts)? = tokens.output?.addends.last else {
            return XCTFail("paths with [] are sums over arrays")
        }
        XCTAssertEqual(rounds.steps.map { $0?.text }, ["rounds", "n"])
        XCTAssertEqual(parts.steps.map { $0?.text }, ["parts", nil, "n"])
        assertError(replacing(13, with: ["          input: ^rounds[].n"]), line: 13, column: 18, "is read from the record")
        assertError(replacing(13, with: ["          input: rounds[]n"]), line: 13, column: 26, "expected '.' or '[]' after '[]'")
    }

    // MARK: Unknown keys

    func testUnknownKeyAtTopLevel() {
        assertError(Self.minimal + "\nbogus: 1", line: 17, column: 1, "unknown key 'bogus' in the descriptor")
    }

    func testUnknownKeyInSource() {
        assertError(
            inserting(["        depth: 3"], after: 8), line: 9, column: 9, "unknown key 'depth' in a source")
    }

    func testUnknownKeyInRecord() {
        assertError(
            inserting(["        colour: red"], after: 11), line: 12, column: 9, "unknown key 'colour' in a record")
    }

    func testUnknownKeyInTokens() {
        assertError(
            inserting(["          inputs: x"], after: 13), line: 14, column: 11, "unknown key 'inputs' in tokens")
    }

    func testUnknownKeyInInput() {
        assertError(
            inserting(["    filter: x"], after: 5), line: 6, column: 5, "unknown key 'filter' in an input")
    }

    // MARK: Wrong types

    func testRecordsNotAList() {
        assertError(replacing(9...16, with: ["    records: 5"]), line: 9, column: 14, "records must be a list")
    }

    func testMaxDepthNotANumber() {
        assertError(
            inserting(["        max_depth: abc"], after: 8), line: 9, column: 20,
            "max_depth must be a whole number from 1 to 64")
    }

    func testMaxDepthOutOfRange() {
        assertError(
            inserting(["        max_depth: 0"], after: 8), line: 9, column: 20,
            "max_depth must be a whole number from 1 to 64")
    }

    // MARK: Source lists

    func testSourceListLoads() throws {
        let text = inserting(["        list: { file: data/projects.json, paths: 'projects[].data_dir' }"], after: 8)
        let list = try XCTUnwrap(DescriptorLoader.load(text: text, file: "m.yaml").inputs[0].sources[0].list)
        XCTAssertEqual(list.file, ["data", "projects.json"])
        XCTAssertEqual(list.paths.steps.map { $0?.text }, ["projects", "data_dir"])
        XCTAssertNil(try DescriptorLoader.load(text: Self.minimal, file: "m.yaml").inputs[0].sources[0].list)
    }

    func testListPathShapes() throws {
        func steps(_ text: String) throws -> [String?] { try ListPath.parse(text).get().steps.map { $0?.text } }
        XCTAssertEqual(try steps("[]"), [nil, nil], "the document is an array of names")
        XCTAssertEqual(try steps("dirs[]"), ["dirs", nil])
        XCTAssertEqual(try steps("a[].b[].c"), ["a", "b", "c"])
        XCTAssertEqual(try steps("one.dir"), ["one.dir"], "a single name")
        XCTAssertEqual(try steps("[][]"), [nil, nil, nil])
    }

    func testBadListPathPointsAtTheCharacter() {
        assertError(
            inserting(["        list:", "          file: p.json", "          paths: projects[]data_dir"], after: 8),
            line: 11, column: 28, "bad list path 'projects[]data_dir': expected '.' or '[]' after '[]'")
        assertError(
            inserting(["        list: { file: p.json, paths: 'a[].' }"], after: 8), line: 9, column: 42,
            "path ends with '.'")
        assertError(
            inserting(["        list: { file: p.json, paths: '' }"], after: 8), line: 9, column: 39, "empty path")
        assertError(
            inserting(["        list: { file: p.json, paths: a..b }"], after: 8), line: 9, column: 40, "empty key in path")
    }

    func testBadListFile() {
        for file in ["/etc/p.json", "a/../p.json", "a//p.json", "./p.json"] {
            assertError(
                inserting(["        list: { file: \(file), paths: 'dirs[]' }"], after: 8), line: 9, column: 23,
                "list.file must be a path below the root")
        }
        assertError(
            inserting(["        list: { file: p.json, path: 'dirs[]' }"], after: 8), line: 9, column: 31,
            "unknown key 'path' in list; expected one of: file, paths")
        assertError(
            inserting(["        list: { paths: 'dirs[]' }"], after: 8), line: 9, column: 15,
            "list is missing the required key 'file'")
    }

    func testQuotedBooleanIsNotABoolean() {
        assertError(
            inserting(["        estimated: \"yes\""], after: 11), line: 12, column: 20, "estimated must be true or false")
        assertError(
            inserting(["        estimated: \"true\""], after: 11), line: 12, column: 20, "estimated must be true or false")
    }

    func testPlainBooleanIsABoolean() throws {
        let d = try DescriptorLoader.load(text: inserting(["        estimated: true"], after: 11), file: "t.yaml")
        XCTAssertTrue(d.inputs[0].records[0].estimated)
    }

    func testQuotedSchemaIsNotANumber() {
        assertError(replacing(1, with: ["schema: \"1\""]), line: 1, column: 9, "schema must be a whole number")
    }

    func testUnknownFormat() {
        assertError(
            replacing(5, with: ["  - format: csv"]), line: 5, column: 13, "format must be one of: jsonl, json, sqlite, text; found 'csv'")
    }

    func testBadIdentifier() {
        assertError(replacing(2, with: ["id: Demo"]), line: 2, column: 5, "id must be lowercase letters")
    }

    func testCountingFlagAsList() {
        assertError(
            replacing(15, with: ["          input_includes_cache: [true]"]), line: 15, column: 33,
            "input_includes_cache must be true, false, auto, { when, then, else } or { by_total }")
    }

    func testByTotalNeedsTokensTotal() {
        assertError(
            replacing(15, with: ["          input_includes_cache: { by_total: true }"]), line: 15, column: 11,
            "a by_total counting flag needs tokens.total")
    }

    func testTokensTotalWithoutByTotal() {
        assertError(
            replacing(13, with: ["          input: in", "          total: sum"]), line: 16, column: 11,
            "tokens.total is read only by by_total counting flags; none is given")
    }

    func testByTotalCannotBeCumulative() {
        let text = replacing(
            13...16,
            with: [
                "          input: in", "          total: sum", "        counting:",
                "          input_includes_cache: { by_total: true }", "          output_includes_reasoning: true",
                "        cumulative: {}",
            ])
        assertError(text, line: 18, column: 21, "by_total counting flags compare one record's counts with its total")
    }

    func testByTotalTakesOnlyItsDefault() {
        assertError(
            replacing(15, with: ["          input_includes_cache: { by_total: true, else: false }"]), line: 15, column: 51,
            "unknown key 'else'")
    }

    func testSumNeedsValues() {
        assertError(
            replacing(13, with: ["          input: { sum: [] }"]), line: 13, column: 25, "tokens.input.sum must not be empty")
    }

    func testSumItemIsOneValue() {
        assertError(
            replacing(13, with: ["          input: { sum: [a, [b, c]] }"]), line: 13, column: 29,
            "each item of tokens.input.sum must be one value, not a list")
    }

    func testLookupNeedsWhere() {
        assertError(
            replacing(13, with: ["          input: { in: ^messages, path: usage.in }"]), line: 13, column: 18,
            "tokens.input.where must map fields of the element to values of the record")
    }

    func testWhereNeedsIn() {
        assertError(
            replacing(13, with: ["          input: { path: in, where: { id: to } }"]), line: 13, column: 37,
            "tokens.input.where needs in")
    }

    func testLookupNeedsPath() {
        assertError(
            replacing(13, with: ["          input: { in: ^messages, where: { id: to } }"]), line: 13, column: 18,
            "tokens.input with in needs a path")
    }

    func testLookupWhereNamesElementFields() {
        assertError(
            replacing(13, with: ["          input: { in: ^messages, where: { ^id: to }, path: n }"]), line: 13, column: 44,
            "tokens.input.where names fields of the element")
    }

    func testLookupLoads() throws {
        let text = replacing(13, with: ["          input: { in: ^messages, where: { messageId: to, kind: { const: a } }, path: usage.n }"])
        let record = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].records[0]
        guard case .value(let value)? = record.tokens.input?.addends.first, case .lookup(let lookup)? = value.alternatives.first else {
            return XCTFail("input is a lookup")
        }
        XCTAssertEqual(lookup.array.text, "^messages")
        XCTAssertEqual(lookup.match.map(\.field.text), ["messageId", "kind"])
        XCTAssertEqual(lookup.path.text, "usage.n")
    }

    func testSumAndByTotalLoad() throws {
        let text = replacing(
            13...16,
            with: [
                "          input: { sum: [in, { path: tool }] }", "          total: { sum: [t1, t2] }",
                "        counting:", "          input_includes_cache: { by_total: true }",
                "          output_includes_reasoning: { by_total: false }",
            ])
        let record = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].records[0]
        XCTAssertEqual(record.tokens.input?.addends.count, 2)
        XCTAssertEqual(record.tokens.total?.addends.count, 2)
        guard case .byTotal(true, true) = record.counting.inputIncludesCache,
            case .byTotal(false, false) = record.counting.outputIncludesReasoning
        else { return XCTFail("by_total flags with their defaults") }
    }

    func testByTotalTakesAFlagForRecordsWithoutATotal() throws {
        let text = replacing(
            13...16,
            with: [
                "          input: in", "          total: t", "        counting:", "          input_includes_cache: { by_total: true }",
                "          output_includes_reasoning: { by_total: true, without_total: false }",
            ])
        let record = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].records[0]
        guard case .byTotal(true, true) = record.counting.inputIncludesCache,
            case .byTotal(true, false) = record.counting.outputIncludesReasoning
        else { return XCTFail("without_total is kept apart from by_total") }
    }

    func testAutoOnlyForInputIncludesCache() {
        assertError(
            replacing(16, with: ["          output_includes_reasoning: auto"]), line: 16, column: 38,
            "output_includes_reasoning must be true or false")
    }

    // MARK: Missing required keys

    func testMissingSchema() {
        assertError(replacing(1, with: []), line: 1, column: 1, "the descriptor is missing the required key 'schema'")
    }

    func testMissingID() {
        assertError(replacing(2, with: []), line: 1, column: 1, "the descriptor is missing the required key 'id'")
    }

    func testMissingInputs() {
        assertError(replacing(4...16, with: []), line: 1, column: 1, "the descriptor is missing the required key 'inputs'")
    }

    func testMissingRecords() {
        assertError(replacing(9...16, with: []), line: 5, column: 5, "an input is missing the required key 'records'")
    }

    func testMissingTime() {
        assertError(replacing(11, with: []), line: 10, column: 9, "a record is missing the required key 'time'")
    }

    func testMissingTokens() {
        assertError(replacing(12...13, with: []), line: 10, column: 9, "a record is missing the required key 'tokens'")
    }

    func testMissingCounting() {
        assertError(replacing(14...16, with: []), line: 10, column: 9, "a record is missing the required key 'counting'")
    }

    func testMissingCountingRule() {
        assertError(
            replacing(16, with: []), line: 15, column: 11,
            "counting is missing the required key 'output_includes_reasoning'")
    }

    func testMissingIdentityKeep() {
        assertError(
            inserting(["        identity:", "          key: [id]"], after: 16), line: 18, column: 11,
            "identity is missing the required key 'keep'")
    }

    func testEmptyTokens() {
        assertError(
            replacing(12...13, with: ["        tokens: {}"]), line: 12, column: 17, "tokens must name at least one of")
    }

    // MARK: Duplicate keys (YAML layer)

    func testDuplicateTopLevelKey() {
        assertError(inserting(["id: other"], after: 2), line: 3, column: 1, "duplicate key 'id' (first at 2:1)")
    }

    func testDuplicateKeyInTokens() {
        assertError(
            inserting(["          input: again"], after: 13), line: 14, column: 11, "duplicate key 'input' (first at 13:11)")
    }

    // MARK: Bad globs (plain scalars point at the bad character; quoted ones at their start)

    func testGlobUnclosedBracket() {
        assertError(
            replacing(8, with: ["        glob: projects/[ab.jsonl"]), line: 8, column: 24, "unclosed '['")
    }

    func testGlobDoubleStarInsideSegment() {
        assertError(
            replacing(8, with: ["        glob: a/b**c/x.jsonl"]), line: 8, column: 17, "'**' must be a whole path segment")
    }

    func testGlobAbsolute() {
        assertError(replacing(8, with: ["        glob: /x.jsonl"]), line: 8, column: 15, "must not start with '/'")
    }

    func testGlobDotDot() {
        assertError(
            replacing(8, with: ["        glob: a/../x.jsonl"]), line: 8, column: 17, "'..' is not allowed in a glob")
    }

    func testGlobQuotedPointsAtTheCharacterUnlessItHasEscapes() {
        assertError(replacing(8, with: ["        glob: \"a/[b\""]), line: 8, column: 18, "'a/[b': unclosed '['")
        assertError(replacing(8, with: ["        glob: \"a\\u002f[b\""]), line: 8, column: 15, "'a/[b': unclosed '['")
    }

    func testBadExcludeGlob() {
        assertError(
            inserting(["        exclude: [ok.jsonl, x/**]"], after: 8), line: 9, column: 31,
            "a glob must end with a file pattern, not '**'")
    }

    // MARK: Bad field paths

    func testFieldPathDoubleDot() {
        assertError(
            replacing(11, with: ["        time: a..b"]), line: 11, column: 17, "bad field path 'a..b' in time: empty key in path")
    }

    func testFieldPathUnclosedBracket() {
        assertError(replacing(11, with: ["        time: a["]), line: 11, column: 16, "unclosed '['")
    }

    func testFieldPathBadIndex() {
        assertError(
            replacing(11, with: ["        time: a[x]"]), line: 11, column: 17,
            "expected an array index or a quoted key inside [ ]")
    }

    func testFieldPathInTokensPointsInsideScalar() {
        assertError(
            replacing(13, with: ["          input: usage..in"]), line: 13, column: 24, "bad field path 'usage..in' in tokens.input")
    }

    func testFieldPathInConditionKey() {
        assertError(
            inserting(["        match: { a..b: 1 }"], after: 10), line: 11, column: 20, "bad field path 'a..b' in match")
    }

    func testFieldPathInListAlternative() {
        // Each alternative of a list is its own node: the error points inside the second one.
        assertError(
            replacing(11, with: ["        time: [ts, b.]"]), line: 11, column: 21, "path ends with '.'")
    }

    func testBadCarriedValueName() {
        assertError(
            replacing(13, with: ["          input: \"@Bad\""]), line: 13, column: 18, "a carried value is @ followed by its name")
    }

    // MARK: Patterns

    /// A bad pattern gets the engine's reason, and the mark points where the engine stopped, inside the pattern
    /// when its characters are its text (here the quoted pattern has no escapes).
    func testBadRegexGivesTheEnginesReasonAndColumn() {
        assertError(
            replacing(11, with: ["        time: { path: ts, pattern: \"([a-\" }"]), line: 11, column: 41,
            "bad regular expression in time.pattern: '([a-': a set range ends before it starts (ICU U_REGEX_INVALID_RANGE) at character 5")
        assertError(
            replacing(11, with: ["        time: { path: ts, pattern: '^(?:x/)?(.+$' }"]), line: 11, column: 49,
            "'^(?:x/)?(.+$': a parenthesis is not closed, or closes nothing (ICU U_REGEX_MISMATCHED_PAREN) at character 13")
        // With an escape, the pattern's characters are not its text: the mark is its start.
        assertError(
            replacing(11, with: ["        time: { path: ts, pattern: \"\\\\d(\" }"]), line: 11, column: 36,
            "a parenthesis is not closed")
        assertError(
            inserting(["        match: { m: { matches: 'a{2,1}' } }"], after: 10), line: 11, column: 39,
            "in {min,max}, max is smaller than min (ICU U_REGEX_MAX_LT_MIN)")
    }

    func testPatternNeedsExactlyOneCaptureGroup() {
        assertError(
            replacing(11, with: ["        time: { path: ts, pattern: \"x\" }"]), line: 11, column: 36,
            "time.pattern must have exactly 1 capture group")
    }

    // MARK: Roots

    func testRootEmptyVariable() {
        assertError(
            replacing(7, with: ["      - root: \"${}\""]), line: 7, column: 15, "bad root: '${}' must name a variable")
    }

    /// A glob from `/` would walk every disk of the machine (issue 18's `rootglob` case ran past two minutes).
    func testRootOfTheFileSystemIsRefused() {
        assertError(
            replacing(7, with: ["      - root: \"/\""]), line: 7, column: 15, "bad root: '/' is the file system's root, not a tool's folder")
    }

    func testRootUnsupportedSubstitution() {
        assertError(
            replacing(7, with: ["      - root: \"${A:b}\""]), line: 7, column: 15,
            "only ${VAR} and ${VAR:-default} are supported")
    }

    func testRootUnclosed() {
        assertError(replacing(7, with: ["      - root: \"${HOME\""]), line: 7, column: 15, "unclosed '${'")
    }

    // MARK: Semantic checks

    func testUnsupportedSchemaVersion() {
        assertError(
            replacing(1, with: ["schema: 2"]), line: 1, column: 9,
            "schema 2 is not supported; this version reads schema 1")
    }

    func testPrefilterOnSQLite() {
        let text = replacing(5, with: ["  - format: sqlite", "    prefilter: usage", "    query: { sql: \"SELECT 1\" }"])
        assertError(text, line: 6, column: 16, "prefilter applies to line formats (jsonl, text) only")
    }

    func testTextInputWithoutPatterns() {
        assertError(replacing(5, with: ["  - format: text"]), line: 5, column: 5, "a text input needs patterns")
    }

    func testSQLiteInputWithoutQuery() {
        assertError(replacing(5, with: ["  - format: sqlite"]), line: 5, column: 5, "a sqlite input needs a query")
    }

    func testSQLiteQueryNotSelect() {
        let text = replacing(5, with: ["  - format: sqlite", "    query: { sql: \"DELETE FROM t\" }"])
        assertError(text, line: 6, column: 19, "sql must be a read-only SELECT query")
    }

    func testSQLiteSelectAndWithAreAccepted() throws {
        for sql in ["  select 1", "WITH t AS (SELECT 1) SELECT * FROM t"] {
            let text = replacing(5, with: ["  - format: sqlite", "    query: { sql: \"\(sql)\", watermark: id }"])
            let d = try DescriptorLoader.load(text: text, file: "t.yaml")
            XCTAssertEqual(d.inputs[0].sqlQueries.first?.sql, sql)
            XCTAssertEqual(d.inputs[0].sqlQueries.first?.watermark, "id")
        }
    }

    func testSQLiteQueryVariantsKeepTheirOrder() throws {
        let text = replacing(
            5,
            with: [
                "  - format: sqlite", "    query:", "      - { sql: \"SELECT 2\", requires: [b, a], watermark: id }",
                "      - { sql: \"SELECT 1\", requires: a }",
            ])
        let queries = try DescriptorLoader.load(text: text, file: "t.yaml").inputs[0].sqlQueries
        XCTAssertEqual(queries.map(\.sql), ["SELECT 2", "SELECT 1"])
        XCTAssertEqual(queries.map(\.requires), [["b", "a"], ["a"]])
        XCTAssertEqual(queries.map(\.watermark), ["id", nil])
    }

    func testSQLiteQueryVariantsMustNotBeEmptyAndEachIsChecked() {
        assertError(
            replacing(5, with: ["  - format: sqlite", "    query: []"]), line: 6, column: 12,
            "query must list at least one variant")
        assertError(
            replacing(5, with: ["  - format: sqlite", "    query:", "      - { sql: \"SELECT 1\" }", "      - { sql: \"DROP TABLE t\" }"]),
            line: 8, column: 16, "sql must be a read-only SELECT query")
    }

    func testQueryOnJSONL() {
        assertError(
            inserting(["    query: { sql: \"SELECT 1\" }"], after: 5), line: 6, column: 12,
            "query applies to the sqlite format only")
    }

    func testDuplicateRecordName() {
        let text = Self.minimal + """

                  - name: usage
                    time: ts
                    tokens: { input: in }
                    counting: { input_includes_cache: false, output_includes_reasoning: true }
            """
        assertError(text, line: 17, column: 9, "a record named 'usage' is already declared at 10:9")
    }

    func testEmptyInputs() {
        assertError(replacing(4...16, with: ["inputs: []"]), line: 4, column: 9, "inputs must list at least one input")
    }

    func testBadSelect() {
        assertError(
            inserting(["        select: messages"], after: 10), line: 11, column: 17,
            "select must end with '[]' (array elements) or '.*' (object entries)")
    }

    func testBadSkipReasonName() {
        assertError(
            inserting(["        skip: { Synthetic: { model: x } }"], after: 10), line: 11, column: 17,
            "'Synthetic' is not a reason name")
    }

    // MARK: Never crash

    /// Every mutation of a real descriptor either loads or fails with a DescriptorError inside the file.
    func testMutationsOfCodexDescriptorNeverCrash() throws {
        let original = try Self.readerText("codex.yaml")
        let lines = original.components(separatedBy: "\n")
        var mutants: [String] = []

        // Delete each line in turn.
        for index in lines.indices {
            var copy = lines
            copy.remove(at: index)
            mutants.append(copy.joined(separator: "\n"))
        }
        // Replace each `key: value` scalar (block or flow) with other kinds of value.
        let valuePattern = try NSRegularExpression(pattern: #"(:\s+)([^\s{}\[\],#][^{}\[\],#]*?)(\s*(?:[,}\]]|$))"#)
        for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            let ns = line as NSString
            for match in valuePattern.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                let value = match.range(at: 2)
                for replacement in ["[]", "{}", "1", "\"\"", "-1", "true", "@", "~"] {
                    var copy = lines
                    copy[index] = ns.replacingCharacters(in: value, with: replacement)
                    mutants.append(copy.joined(separator: "\n"))
                }
            }
        }
        XCTAssertGreaterThan(mutants.count, lines.count + 200, "the value pattern should find many scalars")

        // Seeded random byte flips, one to three per mutant.
        var rng = SeededRandom(seed: 0x5EED_CAFE)
        let bytes = Array(original.utf8)
        for _ in 0..<1500 {
            var copy = bytes
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let position = Int(rng.next() % UInt64(copy.count))
                copy[position] ^= UInt8(truncatingIfNeeded: 1 << (rng.next() % 8))
            }
            mutants.append(String(decoding: copy, as: UTF8.self))
        }

        var loaded = 0, failed = 0
        for mutant in mutants {
            // Lines as YAML breaks them: a flipped bit can make a carriage return, a break of its own.
            let lineCount = mutant.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            do {
                _ = try DescriptorLoader.load(text: mutant, file: "codex.yaml")
                loaded += 1
            } catch {
                failed += 1
                XCTAssertEqual(error.file, "codex.yaml")
                XCTAssertTrue((1...lineCount).contains(error.mark.line), "line out of the file: \(error)")
                XCTAssertGreaterThanOrEqual(error.mark.column, 1, "\(error)")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        // Deleting a comment line or the trailing newline leaves a valid descriptor; most value swaps do not.
        XCTAssertGreaterThan(loaded, 0)
        XCTAssertGreaterThan(failed, mutants.count / 2)
    }
}
