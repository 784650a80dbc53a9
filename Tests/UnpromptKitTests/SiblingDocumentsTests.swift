import Foundation
import XCTest
@testable import UnpromptKit

/// `siblings`: values a `json` source's records read from other documents in its directory.
final class SiblingDocumentsTests: XCTestCase {
    var dir = ""
    var source: String { dir + "/ui.json" }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("siblings-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A json input whose records are the elements of a root array, `{ts, in}`, with `model` read as given.
    /// `siblings` is YAML written from column 1.
    static func text(siblings: String, model: String = #"[m, "@model"]"#, format: String = "json", carry: String = "")
        -> String
    {
        let indented = siblings.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
            .joined(separator: "\n")
        return """
            schema: 1
            id: test
            name: Test
            inputs:
              - format: \(format)
                sources:
                  - { root: /nonexistent, glob: "*.json" }
            \(carry)
                siblings:
            \(indented)
                records:
                  - name: r
                    select: "[]"
                    time: { path: ts, as: epoch_ms }
                    model: \(model)
                    tokens: { input: in }
                    counting: { input_includes_cache: false, output_includes_reasoning: true }
            """
    }

    func read(_ siblings: String, model: String = #"[m, "@model"]"#) throws -> SourceReadResult {
        let d = try DescriptorLoader.load(text: Self.text(siblings: siblings, model: model), file: "test.yaml")
        return try SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: "UTC")!)
            .read(path: source, sourceKey: "source", from: 0, state: SourceState())
    }

    func write(_ name: String, _ content: String) throws {
        try content.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8)
    }

    /// Records at ts 1000, 2000, 3000 and 4000; the one at 3000 names its own model.
    func writeSource() throws {
        try write("ui.json", #"[{"ts":1000,"in":1},{"ts":2000,"in":2},{"ts":3000,"in":3,"m":"own"},{"ts":4000,"in":4}]"#)
    }

    static let timeline = """
        - file: meta.json
          select: "usage[]"
          since: { path: ts, as: epoch_ms }
          set: { model: id }
        """

    // MARK: Reading

    func testATimedValueHoldsFromItsTimeOn() throws {
        try writeSource()
        try write("meta.json", #"{"usage":[{"ts":1500,"id":"a"},{"ts":2000,"id":"b"},{"ts":9000,"id":"later"}]}"#)
        let result = try read(Self.timeline)
        XCTAssertEqual(
            result.events.map(\.model), ["unknown", "b", "own", "b"],
            "before the first entry nothing holds; an entry holds from its own ts; a field of the record wins")
        XCTAssertEqual(result.skipped, [:])
    }

    func testWithoutSinceTheLastValueHoldsForEveryRecord() throws {
        try writeSource()
        try write("meta.json", #"[{"role":"user","tag":"a"},{"role":"bot","tag":"x"},{"role":"user","tag":"b"},{"role":"user"}]"#)
        let result = try read("""
            - file: meta.json
              select: "[]"
              match: { role: user }
              set: { model: tag }
            """)
        XCTAssertEqual(result.events.map(\.model), ["b", "b", "own", "b"], "a matching element without the field keeps the value")
    }

    func testSeveralRulesMaySetOneValueForTwoShapesOfAFile() throws {
        try writeSource()
        let rules = """
            - file: meta.json
              select: "[]"
              set: { model: tag }
            - file: meta.json
              select: "messages[]"
              set: { model: tag }
            """
        try write("meta.json", #"[{"tag":"bare"}]"#)
        XCTAssertEqual(try read(rules).events.map(\.model), ["bare", "bare", "own", "bare"])
        try write("meta.json", #"{"version":2,"messages":[{"tag":"wrapped"}]}"#)
        XCTAssertEqual(try read(rules).events.map(\.model), ["wrapped", "wrapped", "own", "wrapped"])
    }

    func testPathsFromTheSiblingsRootAndPatternsApply() throws {
        try writeSource()
        try write("meta.json", #"{"fallback":"root-model","turns":[{"text":"<env><model>tagged-1</model></env>"}]}"#)
        let result = try read(
            """
            - file: meta.json
              set: { base: fallback }
            - file: meta.json
              select: "turns[]"
              set: { model: { path: text, pattern: '<model>([^<]+)</model>' }, also: ^fallback }
            """, model: #"["@model", "@base"]"#)
        XCTAssertEqual(result.events.map(\.model), ["tagged-1", "tagged-1", "tagged-1", "tagged-1"])
    }

    func testAMissingOrEmptySiblingGivesNoValuesAndNoSkip() throws {
        try writeSource()
        let missing = try read(Self.timeline)
        XCTAssertEqual(missing.events.map(\.model), ["unknown", "unknown", "own", "unknown"])
        XCTAssertEqual(missing.skipped, [:])
        try write("meta.json", "")
        let empty = try read(Self.timeline)
        XCTAssertEqual(empty.events.count, 4)
        XCTAssertEqual(empty.skipped, [:])
    }

    func testAMalformedSiblingIsCountedAndItsRecordsStillCount() throws {
        try writeSource()
        try write("meta.json", #"{"usage":[{"ts":1500,"id":"a"}"#)
        let result = try read(Self.timeline)
        XCTAssertEqual(result.events.map(\.counts.input), [1, 2, 3, 4])
        XCTAssertEqual(result.events.map(\.model), ["unknown", "unknown", "own", "unknown"])
        XCTAssertEqual(result.skipped, [SkipReason.malformedSibling: 1])
        XCTAssertEqual(result.problems, [ReadProblem(line: 1, reason: SkipReason.malformedSibling)])
    }

    func testASiblingThatCannotBeReadMakesTheSourceUnreadable() throws {
        try writeSource()
        // A directory opens on Linux but cannot be read; elsewhere its open fails: both are read errors.
        try FileManager.default.createDirectory(atPath: dir + "/meta.json", withIntermediateDirectories: false)
        XCTAssertThrowsError(try read(Self.timeline)) { error in
            XCTAssertTrue(error is SourceReadError, "\(error)")
        }
    }

    func testASiblingIsNotReadWhenTheSourceIsNotJSON() throws {
        try write("ui.json", #"[{"ts":1000,"in":1}"#)
        try FileManager.default.createDirectory(atPath: dir + "/meta.json", withIntermediateDirectories: false)
        let result = try read(Self.timeline)
        XCTAssertEqual(result.skipped, [SkipReason.malformedJSON: 1], "the document is malformed; its sibling is never opened")
    }

    // MARK: Loading

    func assertError(_ text: String, line: Int, column: Int, _ message: String, file: StaticString = #filePath, at: UInt = #line) {
        do {
            _ = try DescriptorLoader.load(text: text, file: "test.yaml")
            XCTFail("expected an error", file: file, line: at)
        } catch {
            XCTAssertEqual(error.mark, SourceMark(line: line, column: column), "\(error)", file: file, line: at)
            XCTAssertTrue(error.message.contains(message), error.message, file: file, line: at)
        }
    }

    func testSiblingsApplyToTheJSONFormatOnly() {
        assertError(Self.text(siblings: Self.timeline, format: "jsonl"), line: 10, column: 7, "siblings apply to the json format only")
    }

    func testASiblingFileIsAFileNameInTheSourcesDirectory() {
        for name in ["../meta.json", "a/meta.json", "..", ""] {
            assertError(
                Self.text(siblings: "- file: \"\(name)\"\n  set: { model: id }"), line: 10, column: 15,
                "file must be a file name in the source's directory")
        }
    }

    func testAValueIsCarriedOrReadFromASiblingNotBoth() {
        let carry = "    carry:\n      - set: { model: x }"
        assertError(
            Self.text(siblings: Self.timeline, carry: carry), line: 14, column: 16, "'model' is already set by a carry rule")
    }

    func testUnknownKeysAndMissingSetAreRefused() {
        assertError(
            Self.text(siblings: "- file: meta.json\n  sett: { model: id }"), line: 11, column: 9,
            "unknown key 'sett' in a sibling rule; expected one of: file, select, match, since, set")
        assertError(
            Self.text(siblings: "- file: meta.json"), line: 10, column: 9, "a sibling rule is missing the required key 'set'")
    }
}
