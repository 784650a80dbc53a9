import Foundation
import XCTest
@testable import UnpromptKit

/// The JSONL reader and the record rules it applies, driven by small descriptors written as YAML text,
/// read directly through `LineReader` and end to end through `DryRun`.
final class LineReaderTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!
    /// 2024-01-02T03:04:05Z
    static let ts = "2024-01-02T03:04:05Z"
    static let t0: Int64 = 1_704_164_645_000
    static let plainCounting = "counting: { input_includes_cache: false, output_includes_reasoning: true }"

    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("jsonl-reader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    // MARK: Helpers

    /// A one-input jsonl descriptor. `records` and `input` are YAML written from column 1; they are indented
    /// into place (`input` holds extra input keys such as `prefilter` or `carry`).
    func descriptor(records: String, input: String = "", glob: String = "*.jsonl", id: String = "test") throws
        -> Descriptor
    {
        func indent(_ text: String, _ by: Int) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : String(repeating: " ", count: by) + $0 }.joined(separator: "\n")
        }
        var text = """
            schema: 1
            id: \(id)
            name: Test
            inputs:
              - format: jsonl
                sources:
                  - { root: /nonexistent, glob: "\(glob)" }

            """
        if !input.isEmpty { text += indent(input, 4) + "\n" }
        text += "    records:\n" + indent(records, 6) + "\n"
        do {
            return try DescriptorLoader.load(text: text, file: "test.yaml")
        } catch {
            XCTFail("descriptor did not load: \(error)\n\(text)")
            throw error
        }
    }

    /// The simplest record: `ts` is the time, `in`/`out` are input and output, `model` the model.
    func simpleDescriptor(input: String = "", extra: String = "") throws -> Descriptor {
        try descriptor(
            records: """
                - name: r
                  time: ts
                  model: model
                  tokens: { input: in, output: out }
                  \(Self.plainCounting)
                \(extra.isEmpty ? "" : "  " + extra)
                """, input: input)
    }

    @discardableResult
    func write(_ name: String, _ content: String) -> String {
        write(name, Array(content.utf8))
    }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = dir + "/" + name
        let parent = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    func reader(_ d: Descriptor) -> any SourceReader {
        SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: utc)
    }

    func read(
        _ d: Descriptor, _ path: String, from offset: Int64 = 0, state: SourceState = SourceState(),
        sourceKey: String = "source"
    ) throws -> SourceReadResult {
        try reader(d).read(path: path, sourceKey: sourceKey, from: offset, state: state)
    }

    func dryRun(_ d: Descriptor, explicitPaths: [String] = []) -> ReaderReport {
        DryRun(discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: dir), workers: 2)
            .run(d, explicitPaths: explicitPaths)
    }

    /// `{"ts":"…","in":N}` plus extra fields, with a newline.
    func line(_ input: Int, _ extra: String = "") -> String {
        #"{"ts":"\#(Self.ts)","in":\#(input)\#(extra.isEmpty ? "" : "," + extra)}"# + "\n"
    }

    func inputs(_ result: SourceReadResult) -> [Int64] { result.events.map(\.counts.input) }

    // MARK: Offsets and partial lines

    func testEmptyFile() throws {
        let d = try simpleDescriptor()
        let result = try read(d, write("a.jsonl", ""))
        XCTAssertEqual(result.lines, 0)
        XCTAssertEqual(result.records, 0)
        XCTAssertEqual(result.endOffset, 0)
        XCTAssertEqual(result.events, [])
        XCTAssertEqual(result.state, SourceState())
    }

    func testPartialLastLineIsReadOnceCompleted() throws {
        let d = try simpleDescriptor()
        let complete = line(1) + line(2)
        let partial = #"{"ts":"\#(Self.ts)","in":"#
        let path = write("a.jsonl", complete + partial)

        let first = try read(d, path)
        XCTAssertEqual(inputs(first), [1, 2])
        XCTAssertEqual(first.lines, 2)
        XCTAssertEqual(first.endOffset, Int64(complete.utf8.count), "the partial line is not consumed")
        XCTAssertEqual(first.skipped, [:], "a partial line is not malformed")

        write("a.jsonl", complete + partial + "3}\n")
        let second = try read(d, path, from: first.endOffset, state: first.state)
        XCTAssertEqual(inputs(second), [3])
        XCTAssertEqual(second.lines, 1)
        XCTAssertEqual(second.endOffset, Int64((complete + partial + "3}\n").utf8.count))
        XCTAssertEqual(second.events.first?.time, Self.t0)

        let third = try read(d, path, from: second.endOffset, state: second.state)
        XCTAssertEqual(third.events, [])
        XCTAssertEqual(third.lines, 0)
        XCTAssertEqual(third.endOffset, second.endOffset)
    }

    func testFileWithoutAnyNewlineConsumesNothing() throws {
        let d = try simpleDescriptor()
        let result = try read(d, write("a.jsonl", #"{"ts":"\#(Self.ts)","in":1}"#))
        XCTAssertEqual(result.events, [])
        XCTAssertEqual(result.lines, 0)
        XCTAssertEqual(result.endOffset, 0)
    }

    // MARK: Codex-like cumulative file, read whole and in two parts

    static let codexLines: [String] = [
        #"{"timestamp":"2025-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/x"}}"#,
        #"{"timestamp":"2025-01-01T00:00:01.000Z","type":"turn_context","payload":{"model":"gpt-5"}}"#,
        #"{"timestamp":"2025-01-01T00:00:02.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":10,"reasoning_output_tokens":5},"last_token_usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":10,"reasoning_output_tokens":5}},"rate_limits":{"primary":{"used_percent":12.5,"window_minutes":300,"resets_at":1735700000}}}}"#,
        #"{"timestamp":"2025-01-01T00:00:03.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":10,"reasoning_output_tokens":5},"last_token_usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":10,"reasoning_output_tokens":5}}}}"#,
        #"{"timestamp":"2025-01-01T00:00:04.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":250,"cached_input_tokens":100,"output_tokens":30,"reasoning_output_tokens":8},"last_token_usage":{"input_tokens":150,"cached_input_tokens":60,"output_tokens":20,"reasoning_output_tokens":3}}}}"#,
        #"{"timestamp":"2025-01-01T00:00:05.000Z","type":"response_item","payload":{"type":"message","content":"token_count"}}"#,
        #"{"timestamp":"2025-01-01T00:00:05.500Z","type":"turn_context","payload":{"model":"gpt-5-mini"}}"#,
        #"{"timestamp":"2025-01-01T00:00:06.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":400,"cached_input_tokens":150,"output_tokens":45,"reasoning_output_tokens":10},"last_token_usage":{"input_tokens":150,"cached_input_tokens":50,"output_tokens":15,"reasoning_output_tokens":2}},"rate_limits":{"primary":{"used_percent":40,"resets_in_seconds":600}}}}"#,
        #"{"timestamp":"2025-01-01T00:00:07.000Z","type":"event_msg","payload":{"type":"token_count","info":null}}"#,
    ]

    func codexDescriptor() throws -> Descriptor {
        try DescriptorLoader.load(text: try DescriptorLoaderTests.readerText("codex.yaml"), file: "codex.yaml")
    }

    /// 2025-01-01T00:00:00Z
    static let codexT0: Int64 = 1_735_689_600_000

    func testCodexFileReadWhole() throws {
        let d = try codexDescriptor()
        let path = write("rollout.jsonl", Self.codexLines.joined(separator: "\n") + "\n")
        let r = try read(d, path)
        XCTAssertEqual(r.lines, 9)
        XCTAssertEqual(r.records, 5, "the five token_count events; the text mention matches no rule")
        XCTAssertEqual(r.skipped, ["unchanged-total": 1, "no-usage": 1])
        XCTAssertEqual(r.problems, [])
        XCTAssertEqual(r.events.map(\.time), [Self.codexT0 + 2000, Self.codexT0 + 4000, Self.codexT0 + 6000])
        XCTAssertEqual(r.events.map(\.model), ["gpt-5", "gpt-5", "gpt-5-mini"])
        XCTAssertEqual(r.events.map(\.counts), [
            TokenCounts(input: 60, cacheRead: 40, output: 10, reasoning: 5),
            TokenCounts(input: 90, cacheRead: 60, output: 20, reasoning: 3),
            TokenCounts(input: 100, cacheRead: 50, output: 15, reasoning: 2),
        ])
        XCTAssertEqual(r.events.map(\.tool), ["codex", "codex", "codex"])
        XCTAssertEqual(r.events.map(\.keep), [.first, .first, .first])
        XCTAssertEqual(Set(r.events.compactMap(\.identity)).count, 3)
        XCTAssertEqual(r.limits, [
            LimitSample(
                tool: "codex", time: Self.codexT0 + 2000, window: "five_hour", usedPercent: 12.5, windowMinutes: 300,
                resetsAt: 1_735_700_000_000),
            LimitSample(
                tool: "codex", time: Self.codexT0 + 6000, window: "primary", usedPercent: 40, windowMinutes: nil,
                resetsAt: Self.codexT0 + 6000 + 600_000),
        ])
        XCTAssertEqual(r.state.variables, ["model": "gpt-5-mini"])
        var last = RawTokens()
        last.input = 400
        last.cacheRead = 150
        last.output = 45
        last.reasoning = 10
        XCTAssertEqual(r.state.baselines, ["": last])
    }

    /// A counter field that disappears is a drop to zero: the counter restarted, so the per-call figure
    /// counts, not "unchanged".
    func testCumulativeFieldThatDisappearsIsAReset() throws {
        let d = try codexDescriptor()
        let lines = [
            #"{"timestamp":"2025-01-01T00:00:02.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":10,"reasoning_output_tokens":5},"last_token_usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":10,"reasoning_output_tokens":5}}}}"#,
            #"{"timestamp":"2025-01-01T00:00:03.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"output_tokens":10,"reasoning_output_tokens":5},"last_token_usage":{"input_tokens":7,"output_tokens":1}}}}"#,
        ]
        let r = try read(d, write("rollout.jsonl", lines.joined(separator: "\n") + "\n"))
        XCTAssertEqual(r.skipped, [:])
        XCTAssertEqual(r.events.map(\.counts), [
            TokenCounts(input: 60, cacheRead: 40, output: 10, reasoning: 5),
            TokenCounts(input: 7, output: 1),
        ])
    }

    /// Cutting the file at every byte, reading the first part, then the rest from the returned offset and
    /// state, gives exactly what one read gives.
    func testCodexFileSplitAtEveryByteMatchesOneRead() throws {
        let d = try codexDescriptor()
        let full = Array((Self.codexLines.joined(separator: "\n") + "\n").utf8)
        let path = write("rollout.jsonl", full)
        let r = reader(d)
        let whole = try r.read(path: path, sourceKey: "k", from: 0, state: SourceState())
        XCTAssertEqual(whole.events.count, 3)

        for cut in 0...full.count {
            write("rollout.jsonl", Array(full[..<cut]))
            let first = try r.read(path: path, sourceKey: "k", from: 0, state: SourceState())
            write("rollout.jsonl", full)
            let second = try r.read(path: path, sourceKey: "k", from: first.endOffset, state: first.state)

            XCTAssertEqual(first.events + second.events, whole.events, "cut at \(cut)")
            XCTAssertEqual(first.limits + second.limits, whole.limits, "cut at \(cut)")
            XCTAssertEqual(first.lines + second.lines, whole.lines, "cut at \(cut)")
            XCTAssertEqual(first.records + second.records, whole.records, "cut at \(cut)")
            XCTAssertEqual(
                first.skipped.merging(second.skipped, uniquingKeysWith: +), whole.skipped, "cut at \(cut)")
            XCTAssertEqual(second.state, whole.state, "cut at \(cut)")
            XCTAssertEqual(second.endOffset, Int64(full.count), "cut at \(cut)")
            XCTAssertLessThanOrEqual(first.endOffset, Int64(cut))
            if first.events.count + second.events.count != whole.events.count { break }
        }
    }

    func testCodexSecondPartNeedsTheCarriedState() throws {
        // Without the state the second part has neither the model nor the baseline: this is what state is for.
        let d = try codexDescriptor()
        let head = Self.codexLines[0...3].joined(separator: "\n") + "\n"
        let path = write("rollout.jsonl", Self.codexLines.joined(separator: "\n") + "\n")
        let fresh = try read(d, path, from: Int64(head.utf8.count), state: SourceState())
        XCTAssertEqual(fresh.events.first?.model, "unknown")
        XCTAssertEqual(fresh.events.first?.counts, TokenCounts(input: 150, cacheRead: 100, output: 30, reasoning: 8))
    }

    // MARK: Buffering

    func testThreeMegabyteLine() throws {
        let d = try simpleDescriptor()
        let pad = String(repeating: "x", count: 3 << 20)
        let content = line(1) + line(2, #""pad":"\#(pad)","out":4"#) + line(3)
        let path = write("big.jsonl", content)
        let result = try read(d, path)
        XCTAssertEqual(inputs(result), [1, 2, 3])
        XCTAssertEqual(result.events.map(\.counts.output), [0, 4, 0])
        XCTAssertEqual(result.lines, 3)
        XCTAssertEqual(result.skipped, [:])
        XCTAssertEqual(result.endOffset, Int64(content.utf8.count))
    }

    func testThreeMegabytePartialLineIsNotConsumed() throws {
        let d = try simpleDescriptor()
        let pad = String(repeating: "y", count: 3 << 20)
        let head = line(1)
        let path = write("big.jsonl", head + #"{"ts":"\#(Self.ts)","pad":"\#(pad)","in":2"#)
        let first = try read(d, path)
        XCTAssertEqual(inputs(first), [1])
        XCTAssertEqual(first.endOffset, Int64(head.utf8.count))

        let full = head + #"{"ts":"\#(Self.ts)","pad":"\#(pad)","in":2}"# + "\n"
        write("big.jsonl", full)
        let second = try read(d, path, from: first.endOffset, state: first.state)
        XCTAssertEqual(inputs(second), [2])
        XCTAssertEqual(second.endOffset, Int64(full.utf8.count))
    }

    func testLineLongerThanTheLimitIsSkippedWithoutBeingHeldWhole() throws {
        let d = try simpleDescriptor()
        let reader = try XCTUnwrap(reader(d) as? LineReader)
        let long = #"{"ts":"\#(Self.ts)","pad":""# + String(repeating: "z", count: 20 << 20) + #"","in":9}"# + "\n"
        let content = line(1) + long + line(2)
        let result = try reader.read(path: write("long.jsonl", content), sourceKey: "s", from: 0, state: SourceState())
        XCTAssertEqual(inputs(result), [1, 2])
        XCTAssertEqual(result.skipped, [SkipReason.lineTooLong: 1])
        XCTAssertEqual(result.problems, [ReadProblem(line: 2, reason: SkipReason.lineTooLong)])
        XCTAssertEqual(result.lines, 3)
        XCTAssertEqual(result.endOffset, Int64(content.utf8.count))
        // Two workers each holding a buffer stay within a quarter of the 40 MB memory budget.
        XCTAssertLessThanOrEqual(2 * reader.bufferCapacity, 20 << 20)
    }

    func testLongFileWithoutANewlineIsNeverHeldWhole() throws {
        let d = try simpleDescriptor()
        let reader = try XCTUnwrap(reader(d) as? LineReader)
        let path = write("one-line.jsonl", line(1) + String(repeating: "q", count: 30 << 20))
        let result = try reader.read(path: path, sourceKey: "s", from: 0, state: SourceState())
        XCTAssertEqual(inputs(result), [1])
        XCTAssertEqual(result.endOffset, Int64(line(1).utf8.count), "the unfinished line is not consumed")
        XCTAssertLessThanOrEqual(2 * reader.bufferCapacity, 20 << 20)
    }

    func testByteOrderMarkIsNotPartOfTheFirstLine() throws {
        let d = try simpleDescriptor()
        let content = [0xEF, 0xBB, 0xBF] + Array((line(1) + line(2)).utf8)
        let result = try read(d, write("bom.jsonl", content))
        XCTAssertEqual(inputs(result), [1, 2])
        XCTAssertEqual(result.skipped, [:])
        XCTAssertEqual(result.endOffset, Int64(content.count))
        // Only at the start of the file: resuming there is no mark to skip, and one later in a file is not a mark.
        let later = Array(line(3).utf8) + [0xEF, 0xBB, 0xBF] + Array(line(4).utf8)
        XCTAssertEqual(try read(d, write("later.jsonl", later)).skipped, [SkipReason.malformedJSON: 1])
    }

    func testBytesThatAreNotUTF8OnlySpoilTheRecordThatReadsThem() throws {
        let d = try simpleDescriptor()
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let latin1Prompt: [UInt8] = bytes(#"{"ts":"\#(Self.ts)","in":1,"prompt":"caf"#) + [0xE9, 0xFF] + bytes("\"}\n")
        let badModel = bytes(#"{"ts":"\#(Self.ts)","in":2,"model":"gpt"#) + [0xC3, 0x28] + bytes("\"}\n")
        let content = latin1Prompt + badModel + bytes(line(3, #""model":"ok""#))
        let result = try read(d, write("latin1.jsonl", content))
        XCTAssertEqual(inputs(result), [1, 3], "the prompt is never read; the model is")
        XCTAssertEqual(result.events.map { $0.model }, ["unknown", "ok"])
        XCTAssertEqual(result.skipped, [SkipReason.malformedJSON: 1])
        XCTAssertEqual(result.problems, [ReadProblem(line: 2, reason: SkipReason.malformedJSON)])
    }

    func testManyLinesAcrossBufferRefills() throws {
        // More than 1 MiB of short lines, so lines straddle the buffer boundary.
        let d = try simpleDescriptor()
        var content = ""
        for i in 1...30_000 { content += line(i, #""pad":"abcdefghij""#) }
        XCTAssertGreaterThan(content.utf8.count, LineReader.initialCapacity)
        let result = try read(d, write("many.jsonl", content))
        XCTAssertEqual(result.lines, 30_000)
        XCTAssertEqual(result.events.count, 30_000)
        XCTAssertEqual(inputs(result), (1...30_000).map(Int64.init))
        XCTAssertEqual(result.endOffset, Int64(content.utf8.count))
    }

    // MARK: Line handling

    func testCRLFLineEndings() throws {
        let d = try simpleDescriptor()
        let content = #"{"ts":"\#(Self.ts)","in":1,"model":"m"}"# + "\r\n" + "\r\n"
            + #"{"ts":"\#(Self.ts)","in":2,"model":"m"}"# + "\r\n"
        let result = try read(d, write("crlf.jsonl", content))
        XCTAssertEqual(inputs(result), [1, 2])
        XCTAssertEqual(result.events.map(\.model), ["m", "m"])
        XCTAssertEqual(result.lines, 3)
        XCTAssertEqual(result.skipped, [:])
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.endOffset, Int64(content.utf8.count))
    }

    func testBlankLinesAreNotMalformed() throws {
        let d = try simpleDescriptor()
        let content = "\n" + line(1) + "   \n\t\n" + line(2) + "\n"
        let result = try read(d, write("blank.jsonl", content))
        XCTAssertEqual(inputs(result), [1, 2])
        XCTAssertEqual(result.lines, 6)
        XCTAssertEqual(result.skipped, [:])
        XCTAssertEqual(result.problems, [])
    }

    func testMalformedLinesAreCountedWithTheFirstFiveLineNumbers() throws {
        let d = try simpleDescriptor()
        let lines = [
            line(1), "{bad\n", line(3), "not json\n", "{\"a\":\n", "[1,\n", line(7), "}\n", "{\"ts\"}\n", "xx\n",
            line(11),
        ]
        let result = try read(d, write("bad.jsonl", lines.joined()))
        XCTAssertEqual(inputs(result), [1, 3, 7, 11])
        XCTAssertEqual(result.lines, 11)
        XCTAssertEqual(result.skipped, ["malformed-json": 7])
        XCTAssertEqual(result.problems, [2, 4, 5, 6, 8].map { ReadProblem(line: $0, reason: "malformed-json") })
    }

    func testValidJSONThatIsNotAnObject() throws {
        // A rule without `match` takes every parsed line; these have no time, so they are bad-time, not malformed.
        let d = try simpleDescriptor()
        let result = try read(d, write("a.jsonl", "[1,2]\n42\n\"text\"\nnull\n" + line(5)))
        XCTAssertEqual(inputs(result), [5])
        XCTAssertEqual(result.lines, 5)
        XCTAssertEqual(result.records, 5)
        XCTAssertEqual(result.skipped, ["bad-time": 4])
    }

    // MARK: Prefilter

    func testPrefilterWithTwoNeedlesVisitsLinesInOrderOnce() throws {
        let d = try simpleDescriptor(input: #"prefilter: ['"alpha"', '"beta"']"#)
        let lines = [
            line(1, #""k":"beta""#),
            line(2, #""k":"gamma""#),
            line(3, #""k":"alpha","j":"beta""#),
            line(4, #""k":"beta","j":"alpha""#),
            line(5, #""k":"alpha""#),
            line(6, #""k":"alphabet""#),
            line(7, #""k":"alpha","k2":"alpha","k3":"beta","k4":"beta""#),
            line(8, #""k":"beta""#),
        ]
        let result = try read(d, write("p.jsonl", lines.joined()))
        XCTAssertEqual(inputs(result), [1, 3, 4, 5, 7, 8])
        XCTAssertEqual(result.records, 6)
        XCTAssertEqual(result.lines, 8)
        XCTAssertEqual(result.endOffset, Int64(lines.joined().utf8.count))
    }

    func testLinesWithoutANeedleAreNeverParsed() throws {
        let d = try descriptor(
            records: """
                - name: r
                  time: ts
                  tokens: { input: usage.in }
                  \(Self.plainCounting)
                """, input: #"prefilter: '"usage"'"#)
        let lines = [
            "garbage without the needle\n",                         // 1: malformed, but never parsed
            #"{"ts":"\#(Self.ts)","in":9}"# + "\n",                  // 2: would be a no-usage record
            #"{"ts":"\#(Self.ts)","usage":{"in":3}}"# + "\n",        // 3
            #"{"usage": broken"# + "\n",                             // 4: malformed, parsed
            #"{"ts":"\#(Self.ts)","usage":null}"# + "\n",            // 5: parsed, no usage
        ]
        let result = try read(d, write("p.jsonl", lines.joined()))
        XCTAssertEqual(inputs(result), [3])
        XCTAssertEqual(result.lines, 5)
        XCTAssertEqual(result.records, 2, "lines 3 and 5; line 2 was never parsed")
        XCTAssertEqual(result.skipped, ["malformed-json": 1, "no-usage": 1])
        XCTAssertEqual(result.problems, [ReadProblem(line: 4, reason: "malformed-json")])
    }

    // MARK: Record shapes

    func testSelectArrayElements() throws {
        let d = try descriptor(records: """
            - name: msg
              select: messages[]
              match: { role: assistant }
              time: ^ts
              model: model
              tokens: { input: in }
              \(Self.plainCounting)
            """)
        let content = #"{"ts":"\#(Self.ts)","messages":[{"role":"assistant","model":"m1","in":1},{"role":"user","in":100},{"role":"assistant","model":"m2","in":2}]}"#
            + "\n" + #"{"ts":"\#(Self.ts)","messages":{"role":"assistant","in":5}}"# + "\n"
            + #"{"ts":"\#(Self.ts)","other":[]}"# + "\n"
        let result = try read(d, write("s.jsonl", content))
        XCTAssertEqual(inputs(result), [1, 2])
        XCTAssertEqual(result.events.map(\.model), ["m1", "m2"])
        XCTAssertEqual(result.events.map(\.time), [Self.t0, Self.t0])
        XCTAssertEqual(result.records, 2)
    }

    func testSelectObjectEntriesWithKeyAsModel() throws {
        let d = try descriptor(records: """
            - name: metrics
              select: modelMetrics.*
              time: ^ts
              model: "@key"
              tokens: { input: inputTokens, output: outputTokens }
              \(Self.plainCounting)
            """)
        let content = #"{"ts":"\#(Self.ts)","modelMetrics":{"claude-a":{"inputTokens":5,"outputTokens":1},"claude-b":{"inputTokens":7,"outputTokens":2}}}"# + "\n"
        let result = try read(d, write("m.jsonl", content))
        XCTAssertEqual(result.events.map(\.model), ["claude-a", "claude-b"])
        XCTAssertEqual(result.events.map(\.counts), [TokenCounts(input: 5, output: 1), TokenCounts(input: 7, output: 2)])
    }

    func testLookupReadsAFieldOfTheElementTheRecordNames() throws {
        let d = try descriptor(records: """
            - name: event
              select: events[]
              time: ^ts
              tokens:
                input: in
                cache_read: { in: ^messages, where: { messageId: to }, path: usage.cr }
              \(Self.plainCounting)
            """)
        // e1 names message 2; e2 names "7", which matches 7 as text but holds null; e3 names none; e4 names a
        // message that is not there.
        let content = #"{"ts":"\#(Self.ts)","events":[{"to":2,"in":5},{"to":"7","in":6},{"in":1},{"to":9,"in":2}],"#
            + #""messages":[{"messageId":1,"usage":{"cr":50}},{"messageId":2,"usage":{"cr":100}},{"messageId":7,"usage":{"cr":null}}]}"#
            + "\n"
        let result = try read(d, write("l.jsonl", content))
        XCTAssertEqual(result.events.map(\.counts), [
            TokenCounts(input: 5, cacheRead: 100), TokenCounts(input: 6), TokenCounts(input: 1), TokenCounts(input: 2),
        ])
    }

    /// Equal elements are one record only within one line: the same counts for two models, or on two lines
    /// with other timestamps, are different records.
    func testSelectedElementsWithoutKeysAreNamedWithTheirLineAndEntry() throws {
        let d = try descriptor(records: """
            - name: metrics
              select: modelMetrics.*
              time: ^ts
              model: "@key"
              tokens: { input: inputTokens }
              \(Self.plainCounting)
            """)
        let first = #"{"ts":"2024-01-02T03:04:05Z","modelMetrics":{"a":{"inputTokens":5},"b":{"inputTokens":5}}}"#
        let second = #"{"ts":"2024-01-02T04:00:00Z","modelMetrics":{"a":{"inputTokens":5}}}"#
        write("m.jsonl", [first, second, first].joined(separator: "\n") + "\n")
        let report = dryRun(d)
        XCTAssertEqual(report.totals.events, 3, "a and b of the first line, a of the second; the repeated first line is a copy")
        XCTAssertEqual(report.skipped, ["duplicate": 2])
    }

    func testNullConditionMatchesANullField() throws {
        let d = try descriptor(records: """
            - name: r
              match: { info: null }
              time: ts
              tokens: { input: in }
              \(Self.plainCounting)
            """)
        write("n.jsonl", line(3, #""info":null"#) + line(4, #""info":1"#) + line(5))
        XCTAssertEqual(inputs(try read(d, dir + "/n.jsonl")), [3])
    }

    func testNotANumberIsNotAReading() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { input: in }
              \(Self.plainCounting)
            """, input: """
            limits:
              - time: ts
                windows:
                  - { name: w, used_percent: pct }
            """)
        write("p.jsonl", line(1, #""pct":"nan""#) + line(2, #""pct":"12.5""#))
        XCTAssertEqual(try read(d, dir + "/p.jsonl").limits.map(\.usedPercent), [12.5])
    }

    func testDecodeReadsJSONInsideAString() throws {
        let d = try descriptor(records: """
            - name: d
              decode: [text]
              match: { text.kind: usage }
              time: ts
              model: text.model
              tokens: { input: text.tokensIn }
              \(Self.plainCounting)
            """)
        let lines = [
            #"{"ts":"\#(Self.ts)","text":"{\"kind\":\"usage\",\"tokensIn\":12,\"model\":\"gm\"}"}"#,
            #"{"ts":"\#(Self.ts)","text":"hello"}"#,
            #"{"ts":"\#(Self.ts)","text":{"kind":"usage","tokensIn":4}}"#,
            #"{"ts":"\#(Self.ts)","text":"{\"kind\":\"other\",\"tokensIn\":5}"}"#,
        ]
        let result = try read(d, write("d.jsonl", lines.joined(separator: "\n") + "\n"))
        XCTAssertEqual(inputs(result), [12])
        XCTAssertEqual(result.events.map(\.model), ["gm"])
        XCTAssertEqual(result.records, 1, "a field that is not JSON text leaves its values absent")
    }

    /// A matched record whose `decode` field is a string that is not JSON is malformed: skipped, counted and
    /// listed, not read as a record without usage. The descriptor's own skips are tried first.
    func testEmbeddedTextThatIsNotJSONIsAMalformedRecord() throws {
        let d = try descriptor(records: """
            - name: d
              decode: [text]
              match: { type: usage }
              skip:
                empty: { text: "" }
              time: ts
              tokens: { input: text.tokensIn }
              \(Self.plainCounting)
            """)
        let lines = [
            #"{"ts":"\#(Self.ts)","type":"usage","text":"{\"tokensIn\":12}"}"#,
            #"{"ts":"\#(Self.ts)","type":"usage","text":"{\"tokensIn\":"}"#,
            #"{"ts":"\#(Self.ts)","type":"usage","text":""}"#,
            #"{"ts":"\#(Self.ts)","type":"usage"}"#,
            #"{"ts":"\#(Self.ts)","type":"other","text":"not json, and not this rule's"}"#,
        ]
        let result = try read(d, write("m.jsonl", lines.joined(separator: "\n") + "\n"))
        XCTAssertEqual(inputs(result), [12])
        XCTAssertEqual(result.records, 4)
        XCTAssertEqual(result.skipped, [SkipReason.malformedEmbeddedJSON: 1, "empty": 1, SkipReason.noUsage: 1])
        XCTAssertEqual(result.problems, [ReadProblem(line: 2, reason: SkipReason.malformedEmbeddedJSON)])
    }

    func testFirstMatchingRuleWins() throws {
        let d = try descriptor(records: """
            - name: first
              match: { kind: a }
              time: ts
              tokens: { input: in }
              \(Self.plainCounting)
            - name: second
              time: ts
              tokens: { output: in }
              \(Self.plainCounting)
            """)
        let result = try read(d, write("r.jsonl", line(1, #""kind":"a""#) + line(2, #""kind":"b""#)))
        XCTAssertEqual(result.events.map(\.counts), [TokenCounts(input: 1), TokenCounts(output: 2)])
        XCTAssertEqual(result.records, 2)
    }

    func testCostAndEstimated() throws {
        let d = try simpleDescriptor(extra: "cost: costUSD\n  estimated: true")
        let result = try read(d, write("c.jsonl", line(1, #""costUSD":0.25"#) + line(2)))
        XCTAssertEqual(result.events.map(\.loggedCost), [0.25, nil])
        XCTAssertEqual(result.events.map(\.estimated), [true, true])
    }

    // MARK: Counting rules

    func testInputIncludesCacheAuto() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { input: in, cache_read: cr, cache_write: cw }
              counting: { input_includes_cache: auto, output_includes_reasoning: true }
            """)
        let result = try read(d, write("a.jsonl", line(100, #""cr":30,"cw":20"#) + line(10, #""cr":30"#) + line(50, #""cr":30,"cw":20"#)))
        XCTAssertEqual(result.events.map(\.counts), [
            TokenCounts(input: 50, cacheRead: 30, cacheWrite5m: 20),
            TokenCounts(input: 10, cacheRead: 30),
            TokenCounts(input: 0, cacheRead: 30, cacheWrite5m: 20),
        ])
    }

    func testInputIncludesCacheConditional() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { input: in, cache_read: cr }
              counting:
                input_includes_cache: { when: { provider: openai }, then: true, else: false }
                output_includes_reasoning: true
            """)
        let result = try read(
            d, write("a.jsonl", line(100, #""cr":30,"provider":"openai""#) + line(100, #""cr":30,"provider":"anthropic""#) + line(100, #""cr":30"#)))
        XCTAssertEqual(result.events.map(\.counts), [
            TokenCounts(input: 70, cacheRead: 30),
            TokenCounts(input: 100, cacheRead: 30),
            TokenCounts(input: 100, cacheRead: 30),
        ])
    }

    func testOutputExcludingReasoningAddsIt() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { output: out, reasoning: think }
              counting: { input_includes_cache: false, output_includes_reasoning: false }
            """)
        let result = try read(d, write("a.jsonl", line(0, #""out":10,"think":4"#) + line(0, #""out":10"#)))
        XCTAssertEqual(result.events.map(\.counts), [TokenCounts(output: 14, reasoning: 4), TokenCounts(output: 10)])
    }

    func testOutputIncludingReasoningKeepsIt() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { output: out, reasoning: think }
              counting: { input_includes_cache: false, output_includes_reasoning: true }
            """)
        let result = try read(d, write("a.jsonl", line(0, #""out":10,"think":4"#)))
        XCTAssertEqual(result.events.map(\.counts), [TokenCounts(output: 10, reasoning: 4)])
        XCTAssertEqual(result.events.first?.counts.total, 10)
    }

    func testSumOfFields() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens_at: usage
              tokens: { input: { sum: [in, tool] }, output: out }
              \(Self.plainCounting)
            """)
        let result = try read(
            d, write("a.jsonl",
                line(0, #""usage":{"in":10,"tool":5}"#) + line(0, #""usage":{"in":10}"#) + line(0, #""usage":{"tool":5,"in":null}"#)
                    + line(0, #""usage":{"out":3}"#) + line(0, #""usage":{"in":10,"tool":"x"}"#) + line(0, #""usage":{}"#)))
        XCTAssertEqual(result.events.map(\.counts), [
            TokenCounts(input: 15), TokenCounts(input: 10), TokenCounts(input: 5), TokenCounts(output: 3),
        ])
        XCTAssertEqual(result.skipped, [SkipReason.badValue: 1, SkipReason.noUsage: 1])
    }

    func testCountingDecidedByTheLoggedTotal() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { input: in, output: out, cache_read: cr, reasoning: think, total: t }
              counting: { input_includes_cache: { by_total: true }, output_includes_reasoning: { by_total: false } }
            """)
        let counts = #""cr":600,"think":20"#
        let result = try read(
            d, write("a.jsonl",
                line(1000, #""out":50,"t":1070,"# + counts)  // input with cache, reasoning apart: the defaults add up
                    + line(400, #""out":50,"t":1070,"# + counts)  // input without the cache (Gemini's older files)
                    + line(1000, #""out":50,"t":1050,"# + counts)  // reasoning inside output (OpenAI-style)
                    + line(1000, #""out":50,"# + counts)  // no total: the defaults
                    + line(1000, #""out":50,"t":5,"# + counts)  // a total nothing adds up to: the defaults
                    + line(1000, #""out":50,"t":"x","# + counts)))  // a total that is no count tells nothing
        XCTAssertEqual(result.events.map(\.counts), [
            TokenCounts(input: 400, cacheRead: 600, output: 70, reasoning: 20),
            TokenCounts(input: 400, cacheRead: 600, output: 70, reasoning: 20),
            TokenCounts(input: 400, cacheRead: 600, output: 50, reasoning: 20),
            TokenCounts(input: 400, cacheRead: 600, output: 70, reasoning: 20),
            TokenCounts(input: 400, cacheRead: 600, output: 70, reasoning: 20),
            TokenCounts(input: 400, cacheRead: 600, output: 70, reasoning: 20),
        ])
        XCTAssertEqual(result.skipped, [:])
    }

    func testByTotalLeavesAFixedFlagAlone() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { input: in, output: out, cache_read: cr, cache_write: cw, total: t }
              counting: { input_includes_cache: { by_total: false }, output_includes_reasoning: true }
            """)
        // Net input: total = input + cache read + cache write + output. Gross input: total = input + output.
        let result = try read(
            d, write("a.jsonl",
                line(10, #""out":5,"cr":100,"cw":20,"t":135"#) + line(130, #""out":5,"cr":100,"cw":20,"t":135"#)))
        XCTAssertEqual(result.events.map(\.counts), [
            TokenCounts(input: 10, cacheRead: 100, cacheWrite5m: 20, output: 5),
            TokenCounts(input: 10, cacheRead: 100, cacheWrite5m: 20, output: 5),
        ])
    }

    func testCacheWriteSplitByLifetime() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens_at: usage
              tokens: { input: in, cache_write: cw, cache_write_5m: cw5, cache_write_1h: cw1 }
              \(Self.plainCounting)
            """)
        let result = try read(
            d, write("a.jsonl",
                line(0, #""usage":{"in":1,"cw":100,"cw1":30}"#) + line(0, #""usage":{"in":1,"cw":100,"cw5":60,"cw1":40}"#)))
        XCTAssertEqual(result.events.map(\.counts), [
            TokenCounts(input: 1, cacheWrite5m: 70, cacheWrite1h: 30),
            TokenCounts(input: 1, cacheWrite5m: 60, cacheWrite1h: 40),
        ])
    }

    // MARK: Cumulative totals

    func testCumulativeKeyedTotalsAndReset() throws {
        let d = try descriptor(records: """
            - name: r
              time: ts
              tokens: { input: in }
              tokens_at: total
              cumulative: { key: [session], fallback_at: last }
              \(Self.plainCounting)
            """)
        let lines = [
            line(0, #""session":"a","total":{"in":10}"#),
            line(0, #""session":"b","total":{"in":100}"#),
            line(0, #""session":"a","total":{"in":15}"#),
            line(0, #""session":"b","total":{"in":130}"#),
            line(0, #""session":"a","total":{"in":4},"last":{"in":4}"#),    // reset: the per-call figure counts
            line(0, #""session":"a","total":{"in":9}"#),
            line(0, #""session":"a","total":{"in":0}"#),                    // a zeroed total is not a reset
            line(0, #""session":"a","total":{"in":12}"#),
            line(0, #""session":"a","last":{"in":7}"#),                     // no total: the fallback counts
        ]
        let result = try read(d, write("c.jsonl", lines.joined()))
        XCTAssertEqual(inputs(result), [10, 100, 5, 30, 4, 5, 3, 7])
        XCTAssertEqual(result.skipped, ["zero-usage": 1])
        XCTAssertEqual(result.state.baselines.keys.sorted(), ["a", "b"])
        XCTAssertEqual(result.state.baselines["a"]?.input, 12)
        XCTAssertEqual(result.state.baselines["b"]?.input, 130)
    }

    // MARK: Skips and bad values

    func testSkipReasonsNamedByTheDescriptor() throws {
        let d = try simpleDescriptor(extra: #"skip: { synthetic: { model: "<synthetic>" }, empty-turn: { in: 0 } }"#)
        let lines = [line(1, #""model":"<synthetic>""#), line(0, #""out":3"#), line(2, #""model":"m""#)]
        let result = try read(d, write("s.jsonl", lines.joined()))
        XCTAssertEqual(inputs(result), [2])
        XCTAssertEqual(result.records, 3)
        XCTAssertEqual(result.skipped, ["synthetic": 1, "empty-turn": 1])
        XCTAssertEqual(result.problems, [], "a descriptor's skip is not a problem")
    }

    func testBadValues() throws {
        let d = try simpleDescriptor()
        let lines = [
            #"{"ts":"\#(Self.ts)","in":-5}"#,        // 1 negative
            #"{"ts":"\#(Self.ts)","in":"abc"}"#,     // 2 not a number
            #"{"ts":"\#(Self.ts)","in":"12"}"#,      // 3 a decimal string counts
            #"{"ts":"\#(Self.ts)","in":1.5}"#,       // 4 not whole
            #"{"ts":"\#(Self.ts)","in":2.0}"#,       // 5 a whole float counts
            #"{"ts":"\#(Self.ts)","in":true}"#,      // 6 not a number
            #"{"ts":"\#(Self.ts)","in":null}"#,      // 7 null is absent
            #"{"ts":"\#(Self.ts)","in":3,"out":-1}"#, // 8 one bad field spoils the record
            #"{"ts":"\#(Self.ts)","in":0}"#,         // 9 zero
        ]
        let result = try read(d, write("v.jsonl", lines.joined(separator: "\n") + "\n"))
        XCTAssertEqual(inputs(result), [12, 2])
        XCTAssertEqual(result.records, 9)
        XCTAssertEqual(result.skipped, ["bad-value": 5, "no-usage": 1, "zero-usage": 1])
        XCTAssertEqual(result.problems, [1, 2, 4, 6, 8].map { ReadProblem(line: $0, reason: "bad-value") })
    }

    func testBadTime() throws {
        let d = try simpleDescriptor()
        let lines = [
            #"{"ts":"yesterday","in":1}"#,
            #"{"in":2}"#,
            #"{"ts":1704164645,"in":3}"#,
            #"{"ts":"2024-01-02T03:04:05","in":4}"#,
            #"{"ts":"2024-01-02T03:04:05+01:00","in":5}"#,
        ]
        let result = try read(d, write("t.jsonl", lines.joined(separator: "\n") + "\n"))
        XCTAssertEqual(inputs(result), [5])
        XCTAssertEqual(result.events.first?.time, Self.t0 - 3_600_000)
        XCTAssertEqual(result.skipped, ["bad-time": 4])
        XCTAssertEqual(result.problems, [1, 2, 3, 4].map { ReadProblem(line: $0, reason: "bad-time") })
    }

    func testEpochTimeFormats() throws {
        let d = try descriptor(records: """
            - name: r
              time: { path: [t_ms, t_s], as: epoch_ms }
              tokens: { input: in }
              \(Self.plainCounting)
            """)
        let result = try read(d, write("e.jsonl", #"{"t_ms":1704164645123,"in":1}"# + "\n"))
        XCTAssertEqual(result.events.map(\.time), [Self.t0 + 123])
    }

    func testLocalTimeUsesTheReadersZone() throws {
        let d = try descriptor(records: """
            - name: r
              time: { path: ts, as: local }
              tokens: { input: in }
              \(Self.plainCounting)
            """)
        let path = write("l.jsonl", #"{"ts":"2024-01-01 22:04:05","in":1}"# + "\n")
        let zoned = SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: "America/New_York")!)
        let result = try zoned.read(path: path, sourceKey: "k", from: 0, state: SourceState())
        XCTAssertEqual(result.events.map(\.time), [Self.t0])
    }

    func testModelSanitizing() throws {
        let d = try simpleDescriptor()
        let models: [(json: String, expected: String)] = [
            (#""gpt 4""#, "unknown"),
            (#""/etc/passwd""#, "passwd"),
            (#""a//b""#, "b"),
            (#""""#, "unknown"),
            (#""gpt-4\n""#, "unknown"),
            (#""m\u00e9""#, "unknown"),
            ("\"" + String(repeating: "m", count: 65) + "\"", "unknown"),
            ("\"" + String(repeating: "m", count: 64) + "\"", String(repeating: "m", count: 64)),
            (#"" claude-x ""#, "claude-x"),
            (#""anthropic/claude-3.5:y_z""#, "anthropic/claude-3.5:y_z"),
            (#""anthropic/claude-3.5@2024""#, "unknown"),
            (#""/models/llama.gguf""#, "llama.gguf"),
            ("42", "42"),
            ("null", "unknown"),
        ]
        let content = models.enumerated().map { line($0.offset + 1, #""model":\#($0.element.json)"#) }.joined()
            + line(99)
        let result = try read(d, write("m.jsonl", content))
        XCTAssertEqual(result.events.map(\.model), models.map(\.expected) + ["unknown"])
    }

    // MARK: Identities and dry runs

    func identityDescriptor(scope: String, keep: String) throws -> Descriptor {
        try simpleDescriptor(extra: "identity: { key: [id, req], fallback: [id], scope: \(scope), keep: \(keep) }")
    }

    func testIdentityScopeGlobalCountsACopyInAnotherFileOnce() throws {
        let d = try identityDescriptor(scope: "global", keep: "first")
        write("a.jsonl", line(5, #""id":"x","req":"r""#))
        write("b.jsonl", line(5, #""id":"x","req":"r""#) + line(2, #""id":"y","req":"r""#))
        let report = dryRun(d)
        XCTAssertEqual(report.id, "test")
        XCTAssertEqual(report.sources, 2)
        XCTAssertEqual(report.lines, 3)
        XCTAssertEqual(report.records, 3)
        XCTAssertEqual(report.totals.events, 2)
        XCTAssertEqual(report.totals.total, TokenCounts(input: 7))
        XCTAssertEqual(report.skipped, ["duplicate": 1])
    }

    func testIdentityScopeSourceCountsEachFile() throws {
        let d = try identityDescriptor(scope: "source", keep: "first")
        write("a.jsonl", line(5, #""id":"x","req":"r""#) + line(5, #""id":"x","req":"r""#))
        write("b.jsonl", line(5, #""id":"x","req":"r""#))
        let report = dryRun(d)
        XCTAssertEqual(report.totals.events, 2, "one per file; the copy inside a.jsonl is a duplicate")
        XCTAssertEqual(report.totals.total, TokenCounts(input: 10))
        XCTAssertEqual(report.skipped, ["duplicate": 1])
    }

    func testSourceScopedIdentitiesDependOnTheSourceKey() throws {
        let d = try identityDescriptor(scope: "source", keep: "first")
        let path = write("a.jsonl", line(5, #""id":"x","req":"r""#))
        let one = try read(d, path, sourceKey: "k1").events.first?.identity
        let again = try read(d, path, sourceKey: "k1").events.first?.identity
        let other = try read(d, path, sourceKey: "k2").events.first?.identity
        XCTAssertNotNil(one)
        XCTAssertEqual(one, again)
        XCTAssertNotEqual(one, other)
        let global = try identityDescriptor(scope: "global", keep: "first")
        XCTAssertEqual(
            try read(global, path, sourceKey: "k1").events.first?.identity,
            try read(global, path, sourceKey: "k2").events.first?.identity)
    }

    func testKeepRulesAcrossCopies() throws {
        let copies = line(5, #""id":"x","req":"r""#) + line(9, #""id":"x","req":"r""#) + line(3, #""id":"x","req":"r""#)
        for (keep, expected) in [("first", Int64(5)), ("last", 3), ("largest", 9)] {
            let d = try identityDescriptor(scope: "global", keep: keep)
            write("a.jsonl", copies)
            let report = dryRun(d)
            XCTAssertEqual(report.totals.total, TokenCounts(input: expected), keep)
            XCTAssertEqual(report.totals.events, 1, keep)
            XCTAssertEqual(report.totals.byModel, ["unknown": TokenCounts(input: expected)], keep)
            XCTAssertEqual(report.skipped, ["duplicate": 2], keep)
        }
    }

    /// A record with neither key nor fallback is named by its content: a byte-identical copy counts once
    /// (so a file read again from the start cannot count it twice), a different record counts.
    func testIdentityFallbackAndContentIdentity() throws {
        let d = try identityDescriptor(scope: "global", keep: "first")
        let lines = [
            line(1, #""id":"x""#),             // fallback key [id]
            line(2, #""id":"x""#),             // same fallback: duplicate
            line(4, #""id":"x","req":"r""#),   // full key: a different identity
            line(8),                           // no key: named by its content
            line(8),                           // the same bytes again: duplicate
            line(16),                          // other content: counted
        ]
        write("a.jsonl", lines.joined())
        let direct = try read(d, dir + "/a.jsonl")
        XCTAssertEqual(direct.events.map { $0.identity == nil }, [false, false, false, false, false, false])
        XCTAssertEqual(direct.events[0].identity, direct.events[1].identity)
        XCTAssertNotEqual(direct.events[0].identity, direct.events[2].identity)
        XCTAssertEqual(direct.events[3].identity, direct.events[4].identity)
        XCTAssertNotEqual(direct.events[3].identity, direct.events[5].identity)
        let report = dryRun(d)
        XCTAssertEqual(report.totals.total, TokenCounts(input: 29))
        XCTAssertEqual(report.totals.events, 4)
        XCTAssertEqual(report.skipped, ["duplicate": 2])
    }

    func testDryRunDiscoversByGlobAndReportsProblemsBySourceNumber() throws {
        let d = try descriptor(
            records: """
                - name: r
                  time: ts
                  tokens: { input: in }
                  \(Self.plainCounting)
                """, glob: "projects/**/*.jsonl")
        write("projects/a.jsonl", line(1))
        write("projects/p/b.jsonl", "oops\n" + line(2))
        write("projects/p/q/c.jsonl", line(3))
        write("projects/p/c.json", line(100))
        write("other/d.jsonl", line(100))
        let report = dryRun(d)
        XCTAssertEqual(report.sources, 3)
        XCTAssertEqual(report.failedSources, 0)
        XCTAssertEqual(report.totals.total, TokenCounts(input: 6))
        XCTAssertEqual(report.totals.byDay, [19_724: TokenCounts(input: 6)])
        XCTAssertEqual(report.skipped, ["malformed-json": 1])
        // Sorted paths: projects/a.jsonl, projects/p/b.jsonl, projects/p/q/c.jsonl.
        XCTAssertEqual(report.problems.map { "\($0.source):\($0.line):\($0.reason)" }, ["2:1:malformed-json"])
    }

    func testDryRunUnreadableExplicitPath() throws {
        let d = try simpleDescriptor()
        let good = write("good.jsonl", line(4))
        let report = dryRun(d, explicitPaths: [dir + "/missing.jsonl", good])
        XCTAssertEqual(report.sources, 2)
        XCTAssertEqual(report.failedSources, 1)
        XCTAssertEqual(report.skipped, ["unreadable-source": 1])
        XCTAssertEqual(report.totals.total, TokenCounts(input: 4))
        XCTAssertEqual(report.problems.count, 1)
        XCTAssertEqual(report.problems.first?.source, 1)
        XCTAssertEqual(report.problems.first?.line, 0)
        XCTAssertEqual(report.problems.first?.reason, "open failed: \(String(cString: strerror(ENOENT)))")
    }

    func testDryRunLatestLimitPerWindow() throws {
        let d = try codexDescriptor()
        write("sessions/2025/01/01/rollout.jsonl", Self.codexLines.joined(separator: "\n") + "\n")
        let report = dryRun(d)
        XCTAssertEqual(report.sources, 1)
        XCTAssertEqual(report.limitSamples, 2)
        // The first reading logs a 5-hour length (so it is `five_hour`), the later one none: two windows.
        XCTAssertEqual(report.latestLimits, [
            LimitSample(
                tool: "codex", time: Self.codexT0 + 2000, window: "five_hour", usedPercent: 12.5, windowMinutes: 300,
                resetsAt: 1_735_700_000_000),
            LimitSample(
                tool: "codex", time: Self.codexT0 + 6000, window: "primary", usedPercent: 40, windowMinutes: nil,
                resetsAt: Self.codexT0 + 606_000),
        ])
        XCTAssertEqual(report.totals.total, TokenCounts(input: 250, cacheRead: 150, output: 45, reasoning: 10))
        XCTAssertEqual(report.totals.byModel.keys.sorted(), ["gpt-5", "gpt-5-mini"])
    }

    // MARK: Unreadable sources

    func testNonexistentPathThrows() throws {
        let d = try simpleDescriptor()
        XCTAssertThrowsError(try read(d, dir + "/missing.jsonl")) { error in
            guard let error = error as? SourceReadError else { return XCTFail("not a SourceReadError: \(error)") }
            XCTAssertEqual(error.errno, ENOENT)
            XCTAssertEqual(error.operation, "open")
            XCTAssertEqual(error.description, "open failed: \(String(cString: strerror(ENOENT)))")
        }
    }

    /// A directory, like a FIFO or a device, is refused before any read (it is not a regular file).
    func testDirectoryThrows() throws {
        let d = try simpleDescriptor()
        XCTAssertThrowsError(try read(d, dir)) { error in
            guard let error = error as? SourceReadError else { return XCTFail("not a SourceReadError: \(error)") }
            XCTAssertNil(error.errno)
            XCTAssertEqual(error.description, "open failed: not a regular file")
        }
    }
}
