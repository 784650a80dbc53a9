import Foundation
import XCTest
@testable import UnpromptKit

/// Text lines becoming JSON records: which pattern names a line, captures, numbers as written.
final class TextPatternsTests: XCTestCase {
    func patterns(_ list: [(String, String)]) throws -> TextPatterns {
        TextPatterns(try list.map { TextPattern(name: $0.0, regex: try pattern($0.1), mark: SourceMark(line: 1, column: 1)) })
    }

    func record(_ patterns: TextPatterns, _ line: String, offset: Int64 = 0) -> [String: Any]? {
        var text = line
        guard case .record(let bytes) = text.withUTF8({ patterns.record(for: UnsafeRawBufferPointer($0), offset: offset) })
        else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    }

    func testNumbersAreReadAsWritten() {
        XCTAssertEqual(TextPatterns.number("0"), "0")
        XCTAssertEqual(TextPatterns.number("189"), "189")
        XCTAssertEqual(TextPatterns.number("12,345"), "12345")
        XCTAssertEqual(TextPatterns.number("1,234,567"), "1234567")
        XCTAssertEqual(TextPatterns.number("1.2k"), "1200")
        XCTAssertEqual(TextPatterns.number("15k"), "15000")
        XCTAssertEqual(TextPatterns.number("1234k"), "1234000")
        XCTAssertEqual(TextPatterns.number("2.5M"), "2500000")
        XCTAssertEqual(TextPatterns.number("0.0089"), "0.0089")
        // Rounded values stay rounded: nothing is "un-rounded" or guessed.
        XCTAssertEqual(TextPatterns.number("9.8k"), "9800")
    }

    func testTextThatIsNotANumberStaysText() {
        for text in ["", "k", "M", ",1", "1,", "1.", ".5", "1.2.3", "1e3", "12K", "4o", "-3", "1 000", "١٢"] {
            XCTAssertNil(TextPatterns.number(text), text)
        }
    }

    func testCaptureNamesSkipLookbehinds() {
        XCTAssertEqual(
            TextPatterns.captureNames(in: #"(?<=x)(?<sent>\d+) (?<!y)(?<received>\d+)(?:z)(a)"#), ["sent", "received"])
    }

    func testFirstMatchingPatternNamesTheLine() throws {
        let p = try patterns([
            ("usage", #"^> Tokens: (?<sent>[\d.,]+k?) sent, (?<received>[\d.,]+k?) received"#),
            ("any", #"^> (?<rest>.*)$"#),
        ])
        let usage = try XCTUnwrap(record(p, "> Tokens: 2.4k sent, 189 received.", offset: 77))
        XCTAssertEqual(usage["pattern"] as? String, "usage")
        XCTAssertEqual(usage["offset"] as? Int, 77)
        XCTAssertEqual(usage["sent"] as? Int, 2400)
        XCTAssertEqual(usage["received"] as? Int, 189)
        let other = try XCTUnwrap(record(p, #"> Model: a"b\c"#))
        XCTAssertEqual(other["pattern"] as? String, "any")
        XCTAssertEqual(other["rest"] as? String, #"Model: a"b\c"#)
        XCTAssertNil(record(p, "#### a prompt"))
    }

    func testOptionalCapturesThatDidNotTakePartAreAbsent() throws {
        let p = try patterns([("usage", #"^(?<sent>\d+) sent(?:, (?<hit>\d+) hit)?"#)])
        let r = try XCTUnwrap(record(p, "12 sent\r"))
        XCTAssertEqual(r["sent"] as? Int, 12)
        XCTAssertNil(r["hit"])
    }

    // MARK: Through the line reader

    static let descriptor = """
        schema: 1
        id: notes
        name: Notes
        inputs:
          - format: text
            sources: [{ root: /nonexistent, glob: "*.md" }]
            prefilter: ["# chat started", "Model:", "Tokens:"]
            patterns:
              header: '^# chat started at (?<started>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d)'
              model: '^> Model: (?<model>\\S+)'
              usage: '^> Tokens: (?<sent>[\\d.,]+k?) sent(?:, (?<hit>[\\d.,]+k?) cache hit)?, (?<received>[\\d.,]+k?) received\\.'
            carry:
              - match: { pattern: header }
                set: { started: started }
              - match: { pattern: model }
                set: { model: model }
            records:
              - name: reply
                match: { pattern: usage }
                time: { path: "@started", as: local }
                model: "@model"
                tokens: { input: sent, output: received, cache_read: hit }
                counting: { input_includes_cache: true, output_includes_reasoning: true }
                identity: { key: [offset], scope: source, keep: first }
        """

    static let session = """

        # chat started at 2025-03-01 14:05:09

        > Model: example/large with diff edit format
        #### a prompt CANARY
        > Tokens: 2.4k sent, 189 received. Cost: $0.01 message.
        > Tokens: 2.4k sent, 189 received. Cost: $0.01 message.
        > Warmed 12k cached tokens.
        > Tokens: 15k sent, 9.8k cache hit, 1,412 received.

        """

    func readSession(zone: String, text: String = session, from offset: Int64 = 0, state: SourceState = SourceState()) throws
        -> SourceReadResult
    {
        let d = try DescriptorLoader.load(text: Self.descriptor, file: "notes.yaml")
        let path = NSTemporaryDirectory() + "text-\(UUID().uuidString).md"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: zone)!)
        return try reader.read(path: path, sourceKey: "s", from: offset, state: state)
    }

    func testHeadersSetTimeAndModelForTheLinesThatFollow() throws {
        let result = try readSession(zone: "Asia/Kolkata")
        XCTAssertEqual(result.events.map(\.counts.input), [2400, 2400, 5200])
        XCTAssertEqual(result.events.map(\.counts.cacheRead), [0, 0, 9800])
        XCTAssertEqual(result.events.map(\.counts.output), [189, 189, 1412])
        XCTAssertEqual(Set(result.events.map(\.model)), ["example/large"])
        // 14:05:09 in Kolkata (+05:30) is 08:35:09Z.
        XCTAssertEqual(Set(result.events.map(\.time)), [1_740_818_109_000])
    }

    func testTwoIdenticalLinesAreTwoRecordsByTheirOffset() throws {
        let result = try readSession(zone: "UTC")
        XCTAssertEqual(result.events.count, 3)
        XCTAssertEqual(Set(result.events.compactMap(\.identity)).count, 3)
    }

    func testAResumedReadKeepsTheHeaderValues() throws {
        let first = try readSession(zone: "UTC", text: Self.session + "> Tokens: 1k sent, 1 received.\n")
        let cut = Int64(Self.session.utf8.count)
        let whole = try readSession(zone: "UTC", text: Self.session)
        let resumed = try readSession(
            zone: "UTC", text: Self.session + "> Tokens: 1k sent, 1 received.\n", from: cut, state: whole.state)
        XCTAssertEqual(resumed.events.count, 1)
        XCTAssertEqual(resumed.events.first, first.events.last)
    }
}
