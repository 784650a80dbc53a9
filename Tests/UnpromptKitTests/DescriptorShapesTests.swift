import Foundation
import XCTest
@testable import UnpromptKit

/// The descriptor shapes of issue 12: several patterns for one value, conditions on carried values, counts summed
/// over arrays and `@index`, read through the JSONL reader (the helpers are `LineReaderTests`').
extension LineReaderTests {
    func testPatternsAreTriedInOrderAndTheFirstMatchWins() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              model: { path: model, pattern: ['^copilot/(.+)$', '^([a-z0-9.-]+) \\(preview\\)$'] }
              tokens: { input: in }
              \(Self.plainCounting)
            """)
        let models = [#""copilot/gpt-4.1""#, #""gpt-5 (preview)""#, #""no match here!""#]
        let path = write("a.jsonl", models.enumerated().map { line($0.offset + 1, #""model":\#($0.element)"#) }.joined())
        let result = try read(d, path)
        XCTAssertEqual(result.events.map(\.model), ["gpt-4.1", "gpt-5", ModelID.unknown], "no pattern matching: absent")
    }

    func testAConditionTestsACarriedValue() throws {
        let d = try descriptor(
            records: """
                - name: r
                  match: { type: usage }
                  skip: { old-header: { "@version": 1 } }
                  time: ts
                  tokens: { input: in }
                  \(Self.plainCounting)
                """,
            input: """
                carry:
                  - match: { type: header }
                    set: { version: v }
                """)
        // Before any header nothing is carried, so the skip does not hold; a carried 1 is the text "1".
        let lines = [
            line(5, #""type":"usage""#), line(0, #""type":"header","v":1"#), line(10, #""type":"usage""#),
            line(0, #""type":"header","v":2"#), line(20, #""type":"usage""#),
        ]
        let result = try read(d, write("a.jsonl", lines.joined()))
        XCTAssertEqual(inputs(result), [5, 20])
        XCTAssertEqual(result.skipped, ["old-header": 1])
    }

    func testACountSumsEveryElementOfAnArray() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { input: in, output: { sum: [out, "turns[][].n"] }, reasoning: "rounds[].thinking.tokens" }
              \(Self.plainCounting)
            """)
        let lines = [
            // 3 + absent + 4 = 7; 1 + 2 + 3 = 6 beside out 10.
            line(1, #""out":10,"rounds":[{"thinking":{"tokens":3}},{},{"thinking":{"tokens":4}}],"turns":[[{"n":1},{"n":2}],[{"n":3}]]"#),
            // No element has it, nor is the array there: absent, so 0.
            line(2, #""rounds":[{},{"thinking":null}]"#),
            line(3),
            // One element that is not a count spoils the record; so does a sum past the ceiling of one record.
            line(4, #""rounds":[{"thinking":{"tokens":1}},{"thinking":{"tokens":"many"}}]"#),
            line(5, #""rounds":[{"thinking":{"tokens":600000000000}},{"thinking":{"tokens":600000000000}}]"#),
        ]
        let result = try read(d, write("a.jsonl", lines.joined()))
        XCTAssertEqual(inputs(result), [1, 2, 3])
        XCTAssertEqual(result.events.map(\.counts.reasoning), [7, 0, 0])
        XCTAssertEqual(result.events.map(\.counts.output), [16, 0, 0])
        XCTAssertEqual(result.skipped, [SkipReason.badValue: 2])
    }

    func testIndexNamesAnElementInAnIdentity() throws {
        let d = try descriptor(records: """
            - name: item
              select: items[]
              time: ^ts
              tokens: { input: in }
              \(Self.plainCounting)
              identity: { key: [^id, "@index"], keep: first }
            """)
        // The second line is a later copy of the same document with one more item: only the index tells its first
        // two items are the same records (their content differs: the document around them grew).
        let first = #"{"ts":"\#(Self.ts)","id":"s","items":[{"in":1},{"in":2}]}"#
        let second = #"{"ts":"\#(Self.ts)","id":"s","title":"x","items":[{"in":1},{"in":2},{"in":4}]}"#
        write("a.jsonl", first + "\n" + second + "\n")
        let report = dryRun(d)
        XCTAssertEqual(report.totals.events, 3)
        XCTAssertEqual(report.totals.total, TokenCounts(input: 7))
        XCTAssertEqual(report.skipped, ["duplicate": 2])
    }
}
