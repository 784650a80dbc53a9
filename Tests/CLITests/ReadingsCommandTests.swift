import Foundation
import Testing
import UnpromptTestSupport

/// Cost and water as a person sees them: the generated corpora priced to the generator's own figures, a
/// price override re-pricing history after the logs are gone, unpriced models, cost modes, and `prices`.
struct ReadingsCommandTests {
    /// A temporary Claude home, config directory and store.
    final class Home {
        let root: String
        var store: String { root + "/store/usage.sqlite" }
        var claude: String { root + "/claude" }
        var config: String { root + "/config" }

        init(claude: String? = nil) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-readings-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/claude/projects/-p", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/config/unprompt", withIntermediateDirectories: true)
            if let claude { try FileManager.default.createSymbolicLink(atPath: root + "/corpus", withDestinationPath: claude) }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func run(_ arguments: [String], claudeHome: String? = nil) throws -> Binary.Output {
            try Binary.run(
                (ReportCommandTests.Home.takesStore(arguments) ? ["--store", store] : []) + arguments,
                environment: ["CLAUDE_CONFIG_DIR": claudeHome ?? claude, "XDG_CONFIG_HOME": config])
        }

        func json(_ arguments: [String], claudeHome: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONTree {
            let output = try run(arguments + ["--json"], claudeHome: claudeHome)
            #expect(output.status == 0, "\(arguments): \(output.stderr)", sourceLocation: sourceLocation)
            return (try? JSONTree(parsing: output.stdout)) ?? .null
        }

        /// Claude assistant lines (the shape of Fixtures/claude-code), one per record.
        func writeClaude(_ records: [(id: String, model: String, input: Int, cacheRead: Int, output: Int, cost: Double?)]) throws {
            let lines = records.map { r in
                let cost = r.cost.map { #","costUSD":\#($0)"# } ?? ""
                return #"{"parentUuid":null,"isSidechain":false,"cwd":"/home/CANARY/p","sessionId":"s","version":"1.0.3","gitBranch":"CANARY","message":{"model":"\#(r.model)","id":"msg_\#(r.id)","type":"message","role":"assistant","content":[{"type":"text","text":"CANARY"}],"usage":{"input_tokens":\#(r.input),"cache_creation_input_tokens":0,"cache_read_input_tokens":\#(r.cacheRead),"output_tokens":\#(r.output)}},"requestId":"req_\#(r.id)","type":"assistant","uuid":"u\#(r.id)","timestamp":"2026-03-02T10:00:00.000Z"\#(cost)}"#
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: claude + "/projects/-p/s.jsonl", atomically: true, encoding: .utf8)
        }
    }

    func number(_ tree: JSONTree?) -> Double? {
        if case .number(let value)? = tree { return value }
        return nil
    }

    /// Cost per model summed over a monthly view's months.
    func costByModel(_ view: JSONTree) -> [String: Double] {
        var result: [String: Double] = [:]
        guard case .array(let months)? = view["monthly"] else { return [:] }
        for month in months {
            guard case .object(let models)? = month["costByModel"] else { continue }
            for (model, cost) in models { result[model, default: 0] += number(cost["usd"]) ?? .nan }
        }
        return result
    }

    /// The generator prices each request at the list prices, 1-hour writes at their own rate (`cost.listUSD`);
    /// the store and the dry run give the same per model within $0.000001.
    @Test(arguments: [1, 2])
    func generatedClaudeCorpusCostsWhatTheGeneratorSays(seed: Int) throws {
        let (corpus, expected) = try Generator.run("claude", ["--size-mb", "2", "--days", "6", "--seed", "\(seed)", "--dense"])
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        guard case .object(let split)? = expected["cost"]?["listUSD"]?["byModel"], split.count >= 3,
            let flatTotal = number(expected["cost"]?["cacheWritesAt5mUSD"]?["total"])
        else {
            Issue.record("expected_totals.json lacks cost.listUSD for three models or more")
            return
        }
        let home = try Home()
        let stored = costByModel(try home.json(["monthly", "--tz", "UTC"], claudeHome: corpus))
        let dryRun = try home.json(["--dry-run", "--reader", "claude-code", "--root", corpus])
        guard case .array(let readers)? = dryRun["readers"], readers.count == 1 else {
            Issue.record("no reader in the dry run")
            return
        }
        for (model, cost) in split {
            let want = number(cost) ?? .nan
            #expect(abs((stored[model] ?? .nan) - want) <= 0.000001, "\(model): store \(stored[model] ?? .nan), generator \(want)")
            let dry = number(readers[0]["costByModel"]?[model]?["usd"]) ?? .nan
            #expect(abs(dry - want) <= 0.000001, "\(model): dry run \(dry), generator \(want)")
        }
        #expect(abs(stored.values.reduce(0, +) - flatTotal) > 0.01, "the corpus has 1-hour writes, priced at their own rate")
    }

    /// Changing the price table re-prices what the store holds, with the logs deleted and no rescan.
    @Test func anOverrideRepricesHistoryWithoutTheLogs() throws {
        let home = try Home()
        try home.writeClaude([
            (id: "1", model: "claude-sonnet-4-5-20250929", input: 1_000, cacheRead: 0, output: 1_000, cost: nil),
            (id: "2", model: "claude-sonnet-4-5-20250929", input: 250_000, cacheRead: 0, output: 1_000, cost: nil),
        ])
        // 1,000 × 3 + 1,000 × 15 = 18,000 µUSD; above 200k: 250,000 × 6 + 1,000 × 22.50 = 1,522,500 µUSD.
        let before = try home.json(["monthly", "--tz", "UTC"])
        #expect(costByModel(before)["claude-sonnet-4-5-20250929"].map { abs($0 - 1.5405) < 1e-9 } == true, "\(before)")
        try FileManager.default.removeItem(atPath: home.claude)
        try #"{"claude-sonnet-4-5": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6, "input_cost_per_token_above_200k_tokens": 4e-6}}"#
            .write(toFile: home.config + "/unprompt/prices.json", atomically: true, encoding: .utf8)
        // 1,000 × 1 + 1,000 × 2 = 3,000 µUSD; the long request: 250,000 × 4 + 1,000 × 2 (no long output rate:
        // base, marked approximate) = 1,002,000 µUSD.
        let after = try home.json(["monthly", "--tz", "UTC", "--no-scan"])
        #expect(costByModel(after)["claude-sonnet-4-5-20250929"].map { abs($0 - 1.005) < 1e-9 } == true, "\(after)")
        #expect(after["readings"]?["priceOverride"] == .number(1))
        guard case .array(let months)? = after["monthly"], let month = months.first else {
            Issue.record("no month")
            return
        }
        #expect(month["cost"]?["approximateTokens"] == .number(251_000))
        let prices = try home.json(["prices"])
        #expect(prices["override"]?["inForce"] == .number(1))
        guard case .array(let models)? = prices["models"], let first = models.first else {
            Issue.record("no models in prices")
            return
        }
        #expect(first["priceKey"] == .string("claude-sonnet-4-5") && first["from"] == .string("override"))
    }

    /// A model without a price: unpriced with its tokens in every view, never $0, never left out of the totals.
    @Test func anUnpricedModelIsListedWithItsTokens() throws {
        let home = try Home()
        try home.writeClaude([
            (id: "1", model: "claude-haiku-4-5-20251001", input: 100, cacheRead: 0, output: 10, cost: nil),
            (id: "2", model: "claude-nova-7", input: 4_000, cacheRead: 500, output: 200, cost: nil),
        ])
        let daily = try home.json(["daily", "--tz", "UTC"])
        guard case .array(let days)? = daily["daily"], let day = days.first else {
            Issue.record("no day: \(daily)")
            return
        }
        #expect(day["costByModel"]?["claude-nova-7"]?["usd"] == .null)
        #expect(day["costByModel"]?["claude-nova-7"]?["unpricedTokens"] == .number(4_700))
        // Haiku: 100 × 1 + 10 × 5 = 150 µUSD.
        #expect(day["cost"]?["usd"] == .number(0.00015))
        #expect(day["cost"]?["unpricedModels"] == .array([.string("claude-nova-7")]))
        #expect(day["totals"]?["input"] == .number(4_100), "unpriced tokens stay in the totals")
        let text = try home.run(["daily", "--tz", "UTC", "--no-scan"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("    claude-nova-7 ") && $0.contains(" unpriced ") }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("2026-03-02 ") && $0.contains("$0.0001 + unpriced") }, "\(text.stdout)")
        #expect(lines.contains("  claude-nova-7: 4,700 tokens"), "\(text.stdout)")
        let prices = try home.run(["prices"])
        #expect(prices.status == 0)
        #expect(prices.stdout.contains("  claude-nova-7: 4,700 tokens in 1 events"), "\(prices.stdout)")
        let json = try home.json(["prices"])
        #expect(json["unpriced"] == .array([.object(["model": .string("claude-nova-7"), "tokens": .number(4_700), "events": .number(1)])]))
        #expect(json["table"]?["sha256Matches"] == .number(1))
        #expect(!prices.stdout.contains("CANARY") && !text.stdout.contains("CANARY"))
    }

    /// `calculate` prices tokens; `auto` takes the logged cost where there is one; `logged` shows only logged
    /// costs and counts the rest as without one.
    @Test func costModes() throws {
        let home = try Home()
        try home.writeClaude([
            (id: "1", model: "claude-sonnet-4-5-20250929", input: 1_000, cacheRead: 0, output: 0, cost: 0.5),
            (id: "2", model: "claude-sonnet-4-5-20250929", input: 2_000, cacheRead: 0, output: 0, cost: nil),
        ])
        func cost(_ mode: String) throws -> JSONTree? {
            let view = try home.json(["monthly", "--tz", "UTC", "--cost-mode", mode])
            guard case .array(let months)? = view["monthly"] else { return nil }
            return months.first?["cost"]
        }
        #expect(try cost("calculate")?["usd"] == .number(0.009))  // 3,000 × 3 µUSD
        #expect(try cost("auto")?["usd"] == .number(0.506))  // 0.50 logged + 2,000 × 3 µUSD
        #expect(try cost("auto")?["loggedUSD"] == .number(0.5))
        let logged = try cost("logged")
        #expect(logged?["usd"] == .number(0.5))
        #expect(logged?["unpricedTokens"] == .number(2_000))
        let bad = try home.run(["daily", "--cost-mode", "cheapest"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--cost-mode: expected calculate, auto or logged, got 'cheapest'"))
    }

    /// A broken override is refused, naming the file, the row and the field; nothing is shown as if priced.
    @Test func aBrokenOverrideIsRefused() throws {
        let home = try Home()
        try #"{"my-model": {"input_cost_per_token": "3 dollars", "output_cost_per_token": 1e-6}}"#
            .write(toFile: home.config + "/unprompt/prices.json", atomically: true, encoding: .utf8)
        for arguments in [["daily"], ["prices"], ["--dry-run", "--reader", "claude-code", "--root", home.claude]] {
            let output = try home.run(arguments)
            #expect(output.status == 5, "\(arguments)")
            #expect(
                output.stderr.contains("unprompt/prices.json: row 'my-model', field 'input_cost_per_token': expected a number of USD per token"),
                "\(arguments): \(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
    }
}
