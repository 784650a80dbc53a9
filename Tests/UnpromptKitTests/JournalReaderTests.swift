import Foundation
import XCTest
@testable import UnpromptKit

/// A `jsonl` input with a `journal`: the lines rebuild one document, whose records are read as a `json`
/// document's; bad lines are counted and refuse only the records they could have changed.
final class JournalReaderTests: XCTestCase {
    var dir = ""
    let utc = TimeZone(identifier: "UTC")!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/s", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    static let descriptorText = """
        schema: 1
        id: test
        name: Test
        inputs:
          - format: jsonl
            journal:
              op: kind
              path: k
              value: v
              index: i
              ops: { snapshot: 0, set: 1, append: 2, delete: "del" }
            sources:
              - { root: /nonexistent, glob: "s/*.jsonl" }
            records:
              - name: request
                select: requests[]
                time: { path: t, as: epoch_ms }
                tokens: { input: in, output: out }
                counting: { input_includes_cache: false, output_includes_reasoning: true }
                identity: { key: [^id, rid], keep: largest }
        """

    func descriptor() throws -> Descriptor { try DescriptorLoader.load(text: Self.descriptorText, file: "test.yaml") }

    @discardableResult
    func write(_ lines: [String], name: String = "a.jsonl", end: String = "\n") -> String {
        let path = dir + "/s/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + end).utf8)))
        return path
    }

    func read(_ path: String, limit: Int = JournalReader.maxDocumentBytes) throws -> SourceReadResult {
        let d = try descriptor()
        let input = CompiledInput(d.inputs[0], descriptor: d)
        guard case .jsonl(let journal?) = input.formatRules else { throw XCTSkip("not a journal") }
        return try JournalReader(input: input, journal: journal, timeZone: utc, limit: limit)
            .read(path: path, sourceKey: "k", from: 0, state: SourceState())
    }

    /// (input, output) of each event, in order.
    func counts(_ result: SourceReadResult) -> [[Int64]] { result.events.map { [$0.counts.input, $0.counts.output] } }

    static let start = #"{"kind":0,"v":{"id":"s1","requests":[],"pending":[]}}"#
    static func request(_ rid: String, _ t: Int) -> String { #"{"rid":"\#(rid)","t":\#(t)}"# }

    /// Every operation, as the tool writes a session: pushes, sets, a cut that replaces a request, a delete.
    static let journal = [
        start,
        #"{"kind":2,"k":["requests"],"v":[\#(request("r1", 1_796_029_205_000))]}"#,
        #"{"kind":1,"k":["requests",0,"in"],"v":100}"#,
        #"{"kind":1,"k":["requests",0,"in"],"v":150}"#,
        #"{"kind":1,"k":["requests",0,"out"],"v":7}"#,
        #"{"kind":2,"k":["requests"],"v":[\#(request("r2", 1_796_029_260_000))]}"#,
        #"{"kind":1,"k":["requests",1,"in"],"v":999}"#,
        #"{"kind":1,"k":["requests",1,"vote"],"v":1}"#,
        #"{"kind":"del","k":["requests",1,"vote"]}"#,
        #"{"kind":2,"k":["requests"],"v":[\#(request("r3", 1_796_029_450_000))],"i":1}"#,
        #"{"kind":1,"k":["requests",1,"in"],"v":30}"#,
        #"{"kind":1,"k":["requests",1,"out"],"v":4}"#,
    ]

    func testTheLinesRebuildTheDocumentWhoseRecordsAreRead() throws {
        let result = try read(write(Self.journal))
        XCTAssertEqual(result.lines, 12)
        XCTAssertEqual(result.skipped, [:])
        // r2 was replaced by r3 (the cut at index 1): the later sets at index 1 are r3's.
        XCTAssertEqual(counts(result), [[150, 7], [30, 4]])
        XCTAssertEqual(result.events.map(\.time), [1_796_029_205_000, 1_796_029_450_000])
    }

    func testACompactedJournalGivesTheSameEventsAsTheLinesItReplaced() throws {
        let compacted = #"{"kind":0,"v":{"id":"s1","requests":[{"rid":"r1","t":1796029205000,"in":150,"out":7},{"rid":"r3","t":1796029450000,"in":30,"out":4}],"pending":[]}}"#
        let full = try read(write(Self.journal))
        let short = try read(write([compacted], name: "b.jsonl"))
        XCTAssertEqual(short.events.map(\.identity), full.events.map(\.identity))
        XCTAssertEqual(short.events.map(\.counts), full.events.map(\.counts))
    }

    func testAnUnterminatedLastLineIsAWriteInProgressAndIsNotApplied() throws {
        let path = write(Self.journal + [#"{"kind":1,"k":["requests",1,"in"],"v":3"#], end: "")
        let result = try read(path)
        XCTAssertEqual(result.lines, 12)
        XCTAssertEqual(result.skipped, [:])
        XCTAssertEqual(counts(result), [[150, 7], [30, 4]])
        let complete = Self.journal.joined(separator: "\n").utf8.count + 1
        XCTAssertEqual(result.endOffset, Int64(complete))
    }

    func testLinesBeforeTheFirstSnapshotAreCountedAndTheSnapshotStartsTheDocument() throws {
        let result = try read(write([#"{"kind":1,"k":["x"],"v":1}"#, #"{"kind":2,"k":["requests"],"v":[]}"#] + Self.journal))
        XCTAssertEqual(result.skipped, [SkipReason.journalNoSnapshot: 2])
        XCTAssertEqual(result.problems, [ReadProblem(line: 1, reason: "journal-no-snapshot"), ReadProblem(line: 2, reason: "journal-no-snapshot")])
        XCTAssertEqual(counts(result), [[150, 7], [30, 4]])
    }

    func testAPathThatDoesNotResolveRefusesOnlyTheRecordsItCouldHaveChanged() throws {
        var lines = Self.journal
        // Inside r1 (line 13): only r1 is refused. The place is rebuilt as it was, the patch is not guessed at.
        lines.append(#"{"kind":1,"k":["requests",0,"result","metadata"],"v":{"n":1}}"#)
        // Into the pending list, where no record is read (line 14).
        lines.append(#"{"kind":1,"k":["pending",4,"in"],"v":1}"#)
        let result = try read(write(lines))
        XCTAssertEqual(result.skipped, [SkipReason.journalBadPath: 2, SkipReason.journalDamaged: 1])
        XCTAssertEqual(result.problems, [ReadProblem(line: 13, reason: "journal-bad-path"), ReadProblem(line: 14, reason: "journal-bad-path")])
        XCTAssertEqual(counts(result), [[30, 4]])
        XCTAssertEqual(result.records, 2)
    }

    func testAnIndexPastTheArraysEndRefusesEveryRecordOfThatArray() throws {
        let result = try read(write(Self.journal + [#"{"kind":1,"k":["requests",5,"in"],"v":1}"#]))
        XCTAssertEqual(result.skipped, [SkipReason.journalBadPath: 1, SkipReason.journalDamaged: 2])
        XCTAssertEqual(result.events.count, 0)
    }

    func testAnUnknownOperationAMalformedLineOrAnEmptySnapshotRefusesTheDocumentUntilTheNextSnapshot() throws {
        // An unknown code, a line cut short, a snapshot with no document.
        for bad in [#"{"kind":7,"k":["requests",0,"in"],"v":1}"#, #"{"kind":1,"k":["requests",0,"#, #"{"kind":0}"#] {
            let damaged = try read(write(Self.journal + [bad]))
            XCTAssertEqual(damaged.events.count, 0, bad)
            XCTAssertEqual(damaged.skipped[SkipReason.journalDamaged], 2, bad)
            XCTAssertEqual(damaged.problems.map(\.line), [13], bad)
            // A snapshot after it is the whole document again.
            let compacted = #"{"kind":0,"v":{"id":"s1","requests":[{"rid":"r1","t":1796029205000,"in":150,"out":7}]}}"#
            let healed = try read(write(Self.journal + [bad, compacted]))
            XCTAssertEqual(counts(healed), [[150, 7]], bad)
            XCTAssertNil(healed.skipped[SkipReason.journalDamaged], bad)
        }
        let unknown = try read(write(Self.journal + [#"{"kind":7,"k":[],"v":1}"#]))
        XCTAssertEqual(unknown.skipped[SkipReason.journalUnknownOperation], 1)
        let malformed = try read(write(Self.journal + ["{nope"]))
        XCTAssertEqual(malformed.skipped[SkipReason.malformedJSON], 1)
    }

    func testAPatchWhoseFieldsHaveTheWrongTypeIsABadValue() throws {
        let lines = Self.journal + [
            #"{"kind":2,"k":["requests",0,"parts"],"v":{"not":"an array"}}"#,  // 13: damages r1
            #"{"kind":2,"k":["requests"],"v":[],"i":-1}"#,  // 14: damages the requests
            #"{"kind":1,"k":"requests","v":1}"#,  // 15: a path that is no array: the whole document
        ]
        let result = try read(write(lines))
        XCTAssertEqual(result.skipped[SkipReason.journalBadValue], 3)
        XCTAssertEqual(result.problems.map(\.line), [13, 14, 15])
        XCTAssertEqual(result.events.count, 0)
    }

    func testBlankLinesAreIgnored() throws {
        let result = try read(write([Self.journal[0], "", "  "] + Self.journal.dropFirst()))
        XCTAssertEqual(result.skipped, [:])
        XCTAssertEqual(result.lines, 14)
        XCTAssertEqual(counts(result), [[150, 7], [30, 4]])
    }

    func testAFileLargerThanTheLimitIsOneSkipAndNoRecords() throws {
        let path = write(Self.journal)
        let size = Self.journal.joined(separator: "\n").utf8.count + 1
        XCTAssertEqual(try read(path, limit: size).events.count, 2)
        let refused = try read(path, limit: size - 1)
        XCTAssertEqual(refused.skipped, [SkipReason.documentTooLarge: 1])
        XCTAssertEqual(refused.events.count, 0)
    }

    func testWithKeepRemovedACutRequestIsReadAsItWasWhenCut() throws {
        let text = replacing("ops: { snapshot: 0, set: 1, append: 2, delete: \"del\" }", with: "ops: { snapshot: 0, set: 1, append: 2, delete: \"del\" }\n      keep_removed: true")
        let d = try DescriptorLoader.load(text: text, file: "test.yaml")
        let input = CompiledInput(d.inputs[0], descriptor: d)
        guard case .jsonl(let journal?) = input.formatRules else { return XCTFail("no journal") }
        let result = try JournalReader(input: input, journal: journal, timeZone: utc)
            .read(path: write(Self.journal), sourceKey: "k", from: 0, state: SourceState())
        // r2 (999 in, no output) was replaced by r3; it is read after the document's r1 and r3.
        XCTAssertEqual(counts(result), [[150, 7], [30, 4], [999, 0]])
        XCTAssertEqual(result.records, 3)
        // Without it, r2 is gone.
        XCTAssertEqual(try counts(read(write(Self.journal))), [[150, 7], [30, 4]])
    }

    // MARK: Through the scanner

    func scan(_ store: UsageStore) throws -> ScanReport {
        try Scanner(store: store, discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: dir), workers: 1)
            .scan([try descriptor()])
    }

    func stored(_ store: UsageStore) throws -> [Int64] {
        let rows = try store.buckets(fromQuarter: 0, toQuarter: Int64.max / 2)
        return [rows.reduce(0) { $0 + $1.counts.input }, rows.reduce(0) { $0 + $1.counts.output }]
    }

    func testAGrowingJournalThenItsCompactionCountEachRequestOnceAtItsLargest() throws {
        let store = try UsageStore(path: dir + "/store.sqlite")
        write(Array(Self.journal.prefix(4)))  // r1 at 100, then 150 in
        _ = try scan(store)
        XCTAssertEqual(try stored(store), [150, 0])
        write(Self.journal)
        _ = try scan(store)
        XCTAssertEqual(try stored(store), [180, 11])
        // Compaction: the file is rewritten shorter, as one snapshot of the same requests.
        let compacted = #"{"kind":0,"v":{"id":"s1","requests":[{"rid":"r1","t":1796029205000,"in":150,"out":7},{"rid":"r3","t":1796029450000,"in":30,"out":4}]}}"#
        write([compacted])
        _ = try scan(store)
        XCTAssertEqual(try stored(store), [180, 11])
        // Lines appended after the compaction count only what they add.
        write([compacted, #"{"kind":1,"k":["requests",1,"out"],"v":6}"#])
        _ = try scan(store)
        XCTAssertEqual(try stored(store), [180, 13])
    }

    // MARK: Descriptor errors

    func loadError(_ text: String) -> DescriptorError? {
        do {
            _ = try DescriptorLoader.load(text: text, file: "test.yaml")
            return nil
        } catch {
            return error
        }
    }

    func replacing(_ old: String, with new: String) -> String {
        let text = Self.descriptorText.replacingOccurrences(of: old, with: new)
        XCTAssertNotEqual(text, Self.descriptorText, "no '\(old)' to replace")
        return text
    }

    func testMisusedJournalKeysAreErrorsAtTheirPlace() {
        let cases: [(String, String, String, String)] = [
            ("format: jsonl", "format: json", "test.yaml:7:7:", "journal applies to the jsonl format only"),
            ("      op: kind\n", "", "test.yaml:7:7:", "missing the required key 'op'"),
            ("ops: { snapshot: 0, set: 1,", "ops: { set: 1,", "test.yaml:11:12:", "missing the required key 'snapshot'"),
            ("delete: \"del\"", "delete: 0", "test.yaml:11:54:", "code 0 is already the code of snapshot"),
            ("path: k", "path: ^k", "test.yaml:8:13:", "'^' has no meaning here"),
            ("value: v", "value: 'v..x'", "test.yaml:9:17:", "bad field path"),
            ("ops: {", "ops: { undo: 4,", "test.yaml:11:14:", "unknown key 'undo' in ops"),
            ("    sources:", "    prefilter: kind\n    sources:", "test.yaml:7:7:", "a journal input takes no prefilter"),
            ("append: 2,", "append: [2],", "test.yaml:11:43:", "ops.append must be a number or a string"),
        ]
        for (old, new, place, message) in cases {
            guard let error = loadError(replacing(old, with: new)) else {
                XCTFail("\(new) loaded")
                continue
            }
            XCTAssertTrue(error.description.hasPrefix(place), "\(error.description) is not at \(place)")
            XCTAssertTrue(error.description.contains(message), "\(error.description) lacks \(message)")
        }
    }

    func testKeepRemovedNeedsEveryRuleToSelectArrayElements() throws {
        let text = Self.descriptorText
            .replacingOccurrences(of: "\"del\" }\n", with: "\"del\" }\n      keep_removed: true\n")
            .replacingOccurrences(of: "select: requests[]", with: "select: byModel.*")
        let error = try XCTUnwrap(loadError(text))
        XCTAssertTrue(error.description.hasPrefix("test.yaml:12:21:"), error.description)
        XCTAssertTrue(error.description.contains("keep_removed needs every record rule to select array elements"), error.description)
    }

    func testCodesAreJSONIntegersOrStringsAndAQuotedNumberIsAString() throws {
        let d = try DescriptorLoader.load(text: replacing("snapshot: 0", with: "snapshot: \"0\""), file: "test.yaml")
        guard case .jsonl(let journal?) = d.inputs[0].formatRules else { return XCTFail("no journal") }
        XCTAssertEqual(journal.operations[.text("0")], .snapshot)
        XCTAssertEqual(journal.operations[.integer(1)], .set)
        XCTAssertEqual(journal.operations[.text("del")], .delete)
        XCTAssertNil(journal.operations[.integer(0)])
    }
}
