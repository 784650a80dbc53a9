import Foundation
import UnpromptTestSupport
import XCTest
@testable import UnpromptKit

/// The `dimensions:` block of a record rule, as the Claude-format and Codex descriptors use it, and the store
/// keeping each dimension apart (schema 9).
final class PriceDimensionReadingTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("dimensions-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func read(_ reader: String, _ lines: [String]) throws -> SourceReadResult {
        let d = try DescriptorLoader.load(path: Repository.readers + "/" + reader + ".yaml", directories: [Repository.readers])
        let path = dir + "/a.jsonl"
        try lines.map { $0 + "\n" }.joined().write(toFile: path, atomically: false, encoding: .utf8)
        return try SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: "UTC")!)
            .read(path: path, sourceKey: "s", from: 0, state: SourceState())
    }

    static func claudeLine(_ id: String, usage: String) -> String {
        #"{"type":"assistant","timestamp":"2026-11-02T10:00:00Z","requestId":"r\#(id)","message":{"id":"m\#(id)","model":"claude-opus-4-8","usage":{"input_tokens":10,"output_tokens":5\#(usage)}}}"#
    }

    /// Each Claude-format reader maps the same fields: speed, service tier, region (with "not_available" as
    /// global, "" and unknown strings as not stated) and the server-tool counts.
    func testClaudeFormatReadersMapEveryDimension() throws {
        let lines = [
            Self.claudeLine("1", usage: #","speed":"fast","service_tier":"priority","inference_geo":"us","server_tool_use":{"web_search_requests":3,"web_fetch_requests":1}"#),
            Self.claudeLine("2", usage: #","speed":"standard","service_tier":"batch","inference_geo":"not_available""#),
            Self.claudeLine("3", usage: #","speed":"warp","service_tier":"standard","inference_geo":"""#),
            Self.claudeLine("4", usage: ""),
        ]
        for reader in ["claude-code", "claude-cowork", "openclaude", "cherry-studio"] {
            let events = try read(reader, lines).events
            XCTAssertEqual(events.map(\.dimensions), [
                PriceDimensions(speed: .fast, tier: .priority, region: .us),
                PriceDimensions(speed: .standard, tier: .batch, region: .global),
                PriceDimensions(speed: nil, tier: .standard, region: nil),
                PriceDimensions.unrecorded,
            ], reader)
            XCTAssertEqual(events.map(\.serverTools), [ServerToolCounts(webSearch: 3, webFetch: 1), .zero, .zero, .zero], reader)
        }
    }

    /// A server-tool count that is not a count makes the record malformed (skipped and counted), never 0.
    func testABadServerToolCountSkipsTheRecord() throws {
        let result = try read("claude-code", [
            Self.claudeLine("1", usage: #","server_tool_use":{"web_search_requests":"many"}"#),
            Self.claudeLine("2", usage: #","server_tool_use":{"web_search_requests":-1}"#),
        ])
        XCTAssertEqual(result.events.count, 0)
        XCTAssertEqual(result.skipped[SkipReason.badValue], 2)
    }

    /// A map target that is not a case of the dimension is refused at its place in the file.
    func testAMapToAnUnknownCaseIsRefused() {
        let text = """
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
                    tokens: { input: in }
                    counting: { input_includes_cache: false, output_includes_reasoning: true }
                    dimensions:
                      service_tier: { value: tier, map: { turbo: ludicrous } }
            """
        XCTAssertThrowsError(try DescriptorLoader.load(text: text, file: "test.yaml")) { error in
            XCTAssertTrue("\(error)".contains("test.yaml:14:"), "\(error)")
            XCTAssertTrue("\(error)".contains("standard, priority, flex, batch"), "\(error)")
        }
    }

    /// Codex: the tier is a thread setting carried to the token counts after it ("fast" is priority; "auto"
    /// states nothing); cache writes (CLIs since 0.145) are inside input_tokens.
    func testCodexCarriesTheThreadTierAndReadsCacheWrites() throws {
        func settings(_ tier: String) -> String {
            #"{"timestamp":"2026-09-01T10:00:00.000Z","type":"event_msg","payload":{"type":"thread_settings_applied","thread_settings":{"model":"gpt-5.6","service_tier":"\#(tier)"}}}"#
        }
        func count(_ input: Int, _ cached: Int, _ written: Int, _ output: Int) -> String {
            #"{"timestamp":"2026-09-01T10:00:01.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":\#(input),"cached_input_tokens":\#(cached),"cache_write_input_tokens":\#(written),"output_tokens":\#(output),"reasoning_output_tokens":0,"total_tokens":\#(input + output)}}}}"#
        }
        let result = try read("codex", [
            #"{"timestamp":"2026-09-01T09:59:00.000Z","type":"turn_context","payload":{"model":"gpt-5.6"}}"#,
            count(1_000, 200, 300, 10),
            settings("fast"),
            count(2_000, 400, 600, 20),
            settings("auto"),
            count(3_000, 600, 900, 30),
            settings("flex"),
            count(4_000, 800, 1_200, 40),
        ])
        XCTAssertEqual(result.events.map(\.dimensions.tier), [nil, .priority, nil, .flex])
        // Each event is the growth of the totals: 1,000 input − 200 read − 300 written = 500 uncached.
        XCTAssertEqual(result.events.map(\.counts.input), [500, 500, 500, 500])
        XCTAssertEqual(result.events.map(\.counts.cacheWrite5m), [300, 300, 300, 300])
        XCTAssertEqual(result.events.map(\.counts.cacheRead), [200, 200, 200, 200])
    }

    // MARK: the store

    func checkpoint(_ offset: Int64) throws -> Checkpoint {
        try Checkpoint(
            device: 1, inode: 2, size: offset, modifiedNanoseconds: 3, offset: offset, headLength: 0, headHash: "",
            tailHash: "t", state: SourceState())
    }

    /// Records with different dimensions stay in different buckets; server-tool calls sum; a streamed partial
    /// copy (no speed) replaced by its final copy (fast, with searches) leaves nothing behind.
    func testTheStoreKeepsDimensionsApartAndMovesReplacementsExactly() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        let fast = PriceDimensions(speed: .fast, tier: .standard, region: .us)
        func event(_ id: UInt64, _ output: Int64, _ dimensions: PriceDimensions, searches: Int64) -> TokenEvent {
            TokenEvent(
                tool: "t", time: 0, model: "m", counts: TokenCounts(input: 10, output: output),
                identity: Identity(high: id, low: id), keep: .largest, dimensions: dimensions,
                serverTools: ServerToolCounts(webSearch: searches))
        }
        _ = try store.commit(
            sourceKey: "s", expected: nil,
            events: [event(1, 1, PriceDimensions(tier: .standard), searches: 0), event(2, 7, fast, searches: 2)],
            limits: [], checkpoint: try checkpoint(1))
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1).map(\.dimensions), [PriceDimensions(tier: .standard), fast])
        _ = try store.commit(
            sourceKey: "s", expected: try store.checkpoint(for: "s"), events: [event(1, 9, fast, searches: 3)],
            limits: [], checkpoint: try checkpoint(2))
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1), [
            BucketRow(
                quarter: 0, tool: "t", model: "m", counts: TokenCounts(input: 20, output: 16), events: 2,
                dimensions: fast, serverTools: ServerToolCounts(webSearch: 5))
        ])
    }

    /// A schema-4 store (upgraded through 5 and 6) keeps every count, as "not stated" with no server-tool calls, and its replaceable
    /// identities can still be replaced exactly.
    func testASchemaFourStoreIsUpgradedWithNothingLost() throws {
        let path = dir + "/u.sqlite"
        let old = try Database(path: path, options: [.readWrite, .create])
        try old.execute(Self.schemaFour + """
            INSERT INTO buckets VALUES (0, 't', 'm', 0, 0, 10, 0, 0, 0, 1, 0, 1, 0, 0);
            INSERT INTO identities VALUES (5, 5, 1, 0, 't', 'm', 10, 0, 0, 0, 1, 0, 0, 0, 0, 0);
            PRAGMA user_version = 4;
            """)
        let store = try UsageStore(path: path)
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1), [
            BucketRow(quarter: 0, tool: "t", model: "m", counts: TokenCounts(input: 10, output: 1), events: 1)
        ])
        let final = TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: 10, output: 4), identity: Identity(high: 5, low: 5),
            keep: .largest, dimensions: PriceDimensions(speed: .fast), serverTools: ServerToolCounts(webFetch: 1))
        _ = try store.commit(sourceKey: "s", expected: nil, events: [final], limits: [], checkpoint: try checkpoint(1))
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1), [
            BucketRow(
                quarter: 0, tool: "t", model: "m", counts: TokenCounts(input: 10, output: 4), events: 1,
                dimensions: PriceDimensions(speed: .fast), serverTools: ServerToolCounts(webFetch: 1))
        ])
    }

    /// The tables as schema 4 created them.
    static let schemaFour = """
        CREATE TABLE checkpoints (
            source_key TEXT PRIMARY KEY, device INTEGER NOT NULL, inode INTEGER NOT NULL,
            size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, offset INTEGER NOT NULL,
            head_length INTEGER NOT NULL, head_hash TEXT NOT NULL, tail_hash TEXT NOT NULL, state BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE identities (
            high INTEGER NOT NULL, low INTEGER NOT NULL, keep INTEGER NOT NULL, quarter INTEGER, tool TEXT, model TEXT,
            input INTEGER, cache_read INTEGER, cache_write_5m INTEGER, cache_write_1h INTEGER, output INTEGER,
            reasoning INTEGER, context_above INTEGER, cost_logged INTEGER, logged_cost_nanos INTEGER, estimated INTEGER,
            PRIMARY KEY (high, low)
        ) WITHOUT ROWID;
        CREATE TABLE buckets (
            quarter INTEGER NOT NULL, tool TEXT NOT NULL, model TEXT NOT NULL,
            context_above INTEGER NOT NULL, cost_logged INTEGER NOT NULL,
            input INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_write_5m INTEGER NOT NULL,
            cache_write_1h INTEGER NOT NULL, output INTEGER NOT NULL, reasoning INTEGER NOT NULL,
            events INTEGER NOT NULL, logged_cost_nanos INTEGER NOT NULL, estimated_events INTEGER NOT NULL,
            PRIMARY KEY (quarter, tool, model, context_above, cost_logged)
        ) WITHOUT ROWID;
        CREATE TABLE limit_samples (
            tool TEXT NOT NULL, window TEXT NOT NULL, time INTEGER NOT NULL, used_percent REAL, window_minutes INTEGER,
            resets_at INTEGER, PRIMARY KEY (tool, window, time)
        ) WITHOUT ROWID;
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE aliases (
            high INTEGER NOT NULL, low INTEGER NOT NULL, owner_high INTEGER, owner_low INTEGER, PRIMARY KEY (high, low)
        ) WITHOUT ROWID;
        CREATE TABLE activity (
            quarter INTEGER PRIMARY KEY, first INTEGER NOT NULL, last INTEGER NOT NULL, exact INTEGER NOT NULL
        ) WITHOUT ROWID;

        """
}
