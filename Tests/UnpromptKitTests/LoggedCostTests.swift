import Foundation
import XCTest
@testable import UnpromptKit

/// Records of tools that log only a cost (no usable tokens), and costs that are running totals: read through
/// `LineReader` (the rules do not depend on the format) and summed by the dry run.
final class LoggedCostTests: XCTestCase {
    var dir = ""
    let utc = TimeZone(identifier: "UTC")!
    static let counting = "counting: { input_includes_cache: false, output_includes_reasoning: true }"

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("cost-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func descriptor(_ record: String) throws -> Descriptor {
        try DescriptorLoader.load(
            text: """
                schema: 1
                id: t
                name: T
                inputs:
                  - format: jsonl
                    sources: [{ root: /nonexistent, glob: "*.jsonl" }]
                    records:
                      - name: r
                        time: { path: t, as: epoch_s }
                        \(Self.counting)
                \(record.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
                """, file: "t.yaml")
    }

    func read(_ d: Descriptor, _ lines: [String], state: SourceState = SourceState()) throws -> SourceReadResult {
        let path = dir + "/s.jsonl"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        return try SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: utc)
            .read(path: path, sourceKey: "k", from: 0, state: state)
    }

    /// No `tokens`, a `cost`: each record is an event with no tokens and its cost; a cost of 0 is
    /// `zero-usage`, none is `no-usage`, and one that is not an amount is `bad-value`.
    func testCostOnlyRecords() throws {
        let d = try descriptor("cost: usd")
        let r = try read(d, [
            #"{"t": 100, "usd": 0.25}"#, #"{"t": 101, "usd": 0}"#, #"{"t": 102}"#, #"{"t": 103, "usd": null}"#,
            #"{"t": 104, "usd": "0.5"}"#, #"{"t": 105, "usd": -1}"#, #"{"t": 106, "usd": "lots"}"#,
        ])
        XCTAssertEqual(r.events.map(\.loggedCost), [0.25, 0.5])
        XCTAssertEqual(r.events.map(\.counts), [.zero, .zero])
        XCTAssertEqual(r.events.map(\.time), [100_000, 104_000])
        XCTAssertEqual(r.skipped, ["zero-usage": 1, "no-usage": 2, "bad-value": 2])
        XCTAssertEqual(r.problems.map(\.line), [6, 7])
    }

    /// A record with tokens keeps its old rules: a cost does not make zero tokens usage.
    func testACostBesideZeroTokensIsStillZeroUsage() throws {
        let d = try descriptor("tokens: { input: in }\ncost: usd")
        let r = try read(d, [#"{"t": 1, "in": 0, "usd": 0.5}"#, #"{"t": 2, "in": 3, "usd": "n/a"}"#])
        XCTAssertEqual(r.skipped, ["zero-usage": 1])
        XCTAssertEqual(r.events.map(\.loggedCost), [nil])
    }

    /// A running cost per key counts its growth: unchanged is `unchanged-total`, a drop is a restart counted
    /// in full, and the baseline survives a resumed read through the state.
    func testRunningCostCountsItsGrowth() throws {
        let d = try descriptor("cost: cost\ncumulative: { key: id, cost: true }")
        let r = try read(d, [
            #"{"t": 1, "id": "a", "cost": 0.25}"#, #"{"t": 2, "id": "b", "cost": 1}"#,
            #"{"t": 3, "id": "a", "cost": 0.25}"#, #"{"t": 4, "id": "a", "cost": 0.75}"#,
            #"{"t": 5, "id": "b", "cost": 0.5}"#, #"{"t": 6, "id": "a", "cost": 0}"#,
        ])
        XCTAssertEqual(r.events.map(\.loggedCost), [0.25, 1, 0.5, 0.5])
        XCTAssertEqual(r.events.map(\.time), [1000, 2000, 4000, 5000])
        XCTAssertEqual(r.skipped, ["unchanged-total": 1, "zero-usage": 1])
        let next = try read(d, [#"{"t": 7, "id": "a", "cost": 1.5}"#], state: r.state)
        XCTAssertEqual(next.events.map(\.loggedCost), [0.75])
    }

    /// A baseline saved before running costs existed decodes, with no cost.
    func testStateWithoutACostDecodes() throws {
        let saved = Data(#"{"variables":{},"baselines":{"a":{"input":5}}}"#.utf8)
        let state = try JSONDecoder().decode(SourceState.self, from: saved)
        XCTAssertEqual(state.baselines["a"]?.input, 5)
        XCTAssertNil(state.baselines["a"]?.cost)
    }

    func testLoaderRules() throws {
        XCTAssertThrowsError(try descriptor("model: m")) { error in
            XCTAssertTrue("\(error)".contains("a record is missing the required key 'tokens'"), "\(error)")
        }
        XCTAssertThrowsError(try descriptor("tokens: { input: in }\ncumulative: { cost: true }")) { error in
            XCTAssertTrue("\(error)".contains("cumulative.cost says the record's cost is a running total"), "\(error)")
        }
        XCTAssertThrowsError(try descriptor("cost: c\ncumulative: { cost: yes }")) { error in
            XCTAssertTrue("\(error)".contains("cumulative.cost must be true or false"), "\(error)")
        }
    }

    /// The dry run sums logged costs of counted events only: a replaced copy's cost is taken away.
    func testDryRunSumsLoggedCostsOfCountedEvents() throws {
        let d = try descriptor("cost: usd\nidentity: { key: id, keep: last }")
        let path = dir + "/s.jsonl"
        let lines = [#"{"t": 1, "id": "x", "usd": 0.1}"#, #"{"t": 2, "id": "x", "usd": 0.3}"#, #"{"t": 3, "id": "y", "usd": 0.2}"#]
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        let report = DryRun(discovery: SourceDiscovery(environment: [:], home: "/nonexistent"), workers: 1)
            .run(d, explicitPaths: [path])
        XCTAssertEqual(report.totals.events, 2)
        XCTAssertEqual(report.totals.loggedCost, 0.5, accuracy: 1e-12)
        XCTAssertEqual(report.skipped, ["duplicate": 1])
    }
}
