import Foundation
import XCTest
@testable import UnpromptKit

/// The `json` format through the scanner and the store: a document rewritten in place is read whole again on
/// every change, and identities and saved baselines make each request count once.
final class JSONDocumentReaderTests: XCTestCase {
    var dir = ""
    var home: String { dir + "/home" }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("json-reader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home + "/tasks/t1", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    // MARK: Helpers

    /// A json descriptor reading `tasks/*/doc.json` with the given record rules (YAML written from column 1).
    func descriptor(_ records: String) throws -> Descriptor {
        let indented = records.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
            .joined(separator: "\n")
        let text = """
            schema: 1
            id: test
            name: Test
            inputs:
              - format: json
                sources:
                  - { root: /nonexistent, glob: "tasks/*/doc.json" }
                records:
            \(indented)
            """
        return try DescriptorLoader.load(text: text, file: "test.yaml")
    }

    /// Requests in a JSON array, each `{ts, usage}`, whose ts keys them; the last copy of a ts wins.
    func requestRules() throws -> Descriptor {
        try descriptor("""
            - name: request
              select: "[]"
              match: { say: request }
              skip:
                placeholder: { in: { present: false } }
              time: { path: ts, as: epoch_ms }
              tokens: { input: in, output: out }
              counting: { input_includes_cache: false, output_includes_reasoning: true }
              identity: { key: [ts], scope: source, keep: last }
            """)
    }

    /// Replaces the document the way tools do: a new file renamed over the old one.
    func rewrite(_ content: String) throws {
        let path = home + "/tasks/t1/doc.json"
        let temporary = path + ".tmp"
        try content.write(toFile: temporary, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(temporary, path), 0)
    }

    func request(_ ts: Int64, _ input: Int? = nil, out: Int = 1) -> String {
        guard let input else { return #"{"ts":\#(ts),"say":"request"}"# }
        return #"{"ts":\#(ts),"say":"request","in":\#(input),"out":\#(out)}"#
    }

    func scan(_ d: Descriptor, _ store: UsageStore) throws -> ScanReport {
        try Scanner(store: store, discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: home), workers: 1)
            .scan([d])
    }

    /// Input and output summed over every bucket of the store.
    func stored(_ store: UsageStore) throws -> (input: Int64, output: Int64, events: Int64) {
        let rows = try store.buckets(fromQuarter: 0, toQuarter: Int64.max / 2)
        return (rows.reduce(0) { $0 + $1.counts.input }, rows.reduce(0) { $0 + $1.counts.output }, rows.reduce(0) { $0 + $1.events })
    }

    // MARK: Re-reads

    func testAReReadAfterARewriteCountsOnlyNewRequests() throws {
        let d = try requestRules()
        let store = try UsageStore(path: dir + "/u.sqlite")
        try rewrite("[\(request(1_000, 10)),\(request(2_000))]")
        let first = try scan(d, store)
        XCTAssertEqual(first.counted, 1)
        XCTAssertEqual(first.skipped, ["placeholder": 1])
        XCTAssertEqual(try stored(store).input, 10)

        // The placeholder got its counts, the first request its final ones, and a third request came.
        try rewrite("[\(request(1_000, 12)),\(request(2_000, 20)),\(request(3_000, 30))]")
        let second = try scan(d, store)
        XCTAssertEqual(second.reread, 1)
        XCTAssertEqual(second.counted, 2, "the two new requests")
        XCTAssertEqual(second.duplicates, 1, "the first request, replaced by its rewrite")
        let total = try stored(store)
        XCTAssertEqual(total.input, 12 + 20 + 30, "the first request counts once, with its last counts")
        XCTAssertEqual(total.events, 3)

        let third = try scan(d, store)
        XCTAssertEqual(third.unchanged, 1)
        XCTAssertEqual(third.read, 0)
        XCTAssertEqual(try stored(store).input, 62)
    }

    func testATruncatedDocumentIsOneSkipWithNoEventsAndIsReadWhenComplete() throws {
        let d = try requestRules()
        let store = try UsageStore(path: dir + "/u.sqlite")
        let whole = "[\(request(1_000, 10)),\(request(2_000, 20))]"
        try rewrite(String(whole.dropLast(9)))
        let cut = try scan(d, store)
        XCTAssertEqual(cut.skipped, [SkipReason.malformedJSON: 1])
        XCTAssertEqual(cut.counted, 0)
        XCTAssertEqual(cut.problems.map(\.line), [1])
        XCTAssertEqual(try stored(store).events, 0)

        try rewrite(whole)
        let complete = try scan(d, store)
        XCTAssertEqual(complete.counted, 2)
        XCTAssertEqual(complete.skipped, [:])
        XCTAssertEqual(try stored(store).input, 30)
    }

    func testACumulativeDocumentCountsOnlyItsGrowthAcrossReReads() throws {
        let d = try descriptor("""
            - name: session
              time: { path: updated, as: epoch_ms }
              tokens_at: totals
              tokens: { input: in, output: out }
              counting: { input_includes_cache: false, output_includes_reasoning: true }
              cumulative: {}
            """)
        let store = try UsageStore(path: dir + "/u.sqlite")
        try rewrite(#"{"updated":1000,"totals":{"in":100,"out":10}}"#)
        XCTAssertEqual(try scan(d, store).counted, 1)
        try rewrite(#"{"updated":2000,"totals":{"in":250,"out":40}}"#)
        XCTAssertEqual(try scan(d, store).counted, 1)
        XCTAssertEqual(try stored(store).input, 250)
        XCTAssertEqual(try stored(store).output, 40, "the second read counts 150 and 30, not the totals again")

        // The same totals written again (a new file, a later time): nothing grew.
        try rewrite(#"{"updated":3000,"totals":{"in":250,"out":40}}"#)
        let same = try scan(d, store)
        XCTAssertEqual(same.reread, 1)
        XCTAssertEqual(same.counted, 0)
        XCTAssertEqual(same.skipped, [SkipReason.unchangedTotal: 1])
        XCTAssertEqual(try stored(store).input, 250)
    }

    // MARK: Selecting the root

    func testTheRootOfTheDocumentCanBeSelected() throws {
        let array = try descriptor("""
            - name: element
              select: "[]"
              time: { path: ts, as: epoch_ms }
              tokens: { input: in }
              counting: { input_includes_cache: false, output_includes_reasoning: true }
            """)
        let entries = try descriptor("""
            - name: entry
              select: "*"
              time: { path: ts, as: epoch_ms }
              model: "@key"
              tokens: { input: in }
              counting: { input_includes_cache: false, output_includes_reasoning: true }
            """)
        try rewrite(#"[{"ts":1000,"in":3},{"ts":2000,"in":4}]"#)
        let path = home + "/tasks/t1/doc.json"
        XCTAssertEqual(try read(array, path).events.map(\.counts.input), [3, 4])
        XCTAssertEqual(try read(entries, path).records, 0, "an array has no entries")

        try rewrite(#"{"gpt-5":{"ts":1000,"in":5},"o3":{"ts":2000,"in":6}}"#)
        let result = try read(entries, path)
        XCTAssertEqual(result.events.map(\.model), ["gpt-5", "o3"])
        XCTAssertEqual(try read(array, path).records, 0, "an object has no elements")
    }

    func read(_ d: Descriptor, _ path: String) throws -> SourceReadResult {
        try SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: "UTC")!)
            .read(path: path, sourceKey: "source", from: 0, state: SourceState())
    }
}
