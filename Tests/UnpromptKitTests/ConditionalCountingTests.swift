import Foundation
import XCTest
@testable import UnpromptKit

/// Counting rules that depend on the record (`{ when, then, else }` with `auto`), and `less_than` conditions.
final class ConditionalCountingTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("counting-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A jsonl input with one record rule; `rule` is YAML for the rule's extra keys, written from column 1.
    static func text(_ rule: String) -> String {
        let indented = rule.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        return """
            schema: 1
            id: test
            name: Test
            inputs:
              - format: jsonl
                sources:
                  - { root: /nonexistent, glob: "*.jsonl" }
                records:
                  - name: r
                    time: { path: ts, as: epoch_ms }
                    tokens: { input: in, cache_read: cr }
            \(indented)
            """
    }

    func read(_ rule: String, _ lines: [String]) throws -> SourceReadResult {
        let d = try DescriptorLoader.load(text: Self.text(rule), file: "test.yaml")
        let path = dir + "/a.jsonl"
        try lines.map { $0 + "\n" }.joined().write(toFile: path, atomically: false, encoding: .utf8)
        return try SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: "UTC")!)
            .read(path: path, sourceKey: "s", from: 0, state: SourceState())
    }

    /// Roo Code's rule: an Anthropic-protocol request before the release is the remainder; any other request
    /// includes the cache when it can (`auto`).
    func testABranchMayBeAuto() throws {
        let rule = """
            counting:
              input_includes_cache: { when: { p: anthropic, ts: { less_than: 5000 } }, then: false, else: auto }
              output_includes_reasoning: true
            """
        let result = try read(rule, [
            #"{"ts":1000,"p":"anthropic","in":900,"cr":300}"#,  // before: remainder, though larger than the cache
            #"{"ts":6000,"p":"anthropic","in":900,"cr":300}"#,  // after: the whole prompt
            #"{"ts":1000,"p":"openai","in":900,"cr":300}"#,  // another protocol: the whole prompt
            #"{"ts":6000,"p":"anthropic","in":100,"cr":300}"#,  // smaller than the cache: cannot include it
        ])
        XCTAssertEqual(result.events.map(\.counts.input), [900, 600, 600, 100])
        XCTAssertEqual(result.events.map(\.counts.cacheRead), [300, 300, 300, 300])
    }

    func testLessThanComparesNumbersAndNumericStrings() throws {
        let rule = """
            skip:
              early: { ts: { less_than: 2000 } }
              small: { in: { less_than: 1.5 } }
            counting: { input_includes_cache: false, output_includes_reasoning: true }
            """
        let result = try read(rule, [
            #"{"ts":1999,"in":5}"#,
            #"{"ts":"1500","in":5}"#,
            #"{"ts":2000,"in":5}"#,
            #"{"ts":3000,"in":1}"#,
            #"{"ts":3000,"in":"x"}"#,  // not a number: does not hold (then bad-value as a count)
        ])
        XCTAssertEqual(result.skipped, ["early": 2, "small": 1, SkipReason.badValue: 1])
        XCTAssertEqual(result.events.map(\.time), [2000])
    }

    // MARK: Loading

    func assertError(_ rule: String, line: Int, column: Int, _ message: String, at: UInt = #line) {
        do {
            _ = try DescriptorLoader.load(text: Self.text(rule), file: "test.yaml")
            XCTFail("expected an error", line: at)
        } catch {
            XCTAssertEqual(error.mark, SourceMark(line: line, column: column), "\(error)", line: at)
            XCTAssertTrue(error.message.contains(message), error.message, line: at)
        }
    }

    func testAutoIsABranchOfInputIncludesCacheOnly() {
        assertError(
            """
            counting:
              input_includes_cache: false
              output_includes_reasoning: { when: { a: 1 }, then: auto, else: true }
            """, line: 14, column: 62, "output_includes_reasoning.then must be true or false")
        assertError(
            """
            counting:
              input_includes_cache: { when: { a: 1 }, then: yes, else: auto }
              output_includes_reasoning: true
            """, line: 13, column: 57, "input_includes_cache.then must be true, false or auto")
    }

    func testLessThanTakesANumberAndStandsAlone() {
        assertError(
            """
            skip: { early: { ts: { less_than: soon } } }
            counting: { input_includes_cache: false, output_includes_reasoning: true }
            """, line: 12, column: 43, "less_than must be a number")
        assertError(
            """
            skip: { early: { ts: { present: true, less_than: 5 } } }
            counting: { input_includes_cache: false, output_includes_reasoning: true }
            """, line: 12, column: 58, "a condition takes one of present, matches or less_than")
    }
}
