import Foundation
import Testing
import UnpromptTestSupport

/// The dry run equals the bench generators' expected totals, to the token, on small corpora of several seeds.
struct GeneratedCorpusTests {
    static let tokenKeys: [(ours: String, claude: String)] = [
        ("input", "input_tokens"), ("output", "output_tokens"), ("cacheRead", "cache_read_input_tokens"),
        ("cacheWrite5m", "ephemeral_5m_input_tokens"), ("cacheWrite1h", "ephemeral_1h_input_tokens"),
    ]

    func generate(_ script: String, _ arguments: [String]) throws -> (root: String, expected: JSONTree) {
        try Generator.run(script, arguments)
    }

    func dryRun(_ reader: String, _ root: String) throws -> JSONTree {
        let output = try Binary.run(["--dry-run", "--reader", reader, "--root", root, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        guard case .array(let readers)? = try JSONTree(parsing: output.stdout)["readers"], readers.count == 1 else {
            Issue.record("no reader in output")
            return .null
        }
        return readers[0]
    }

    /// Claude expected counts in our key names.
    func claudeCounts(_ tree: JSONTree?) -> JSONTree {
        var counts: [String: JSONTree] = ["reasoning": .number(0)]
        for (ours, theirs) in Self.tokenKeys { counts[ours] = tree?[theirs] ?? .null }
        return .object(counts)
    }

    @Test(arguments: [1, 2, 3])
    func claudeMatchesFirstOccurrenceDedup(seed: Int) throws {
        let (root, expected) = try generate("gen_claude_logs.py", ["--total-mb", "1.5", "--days", "6", "--seed", "\(seed)"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try dryRun("claude-code", root)
        let dedup = expected["dedup"]
        #expect(report["totals"] == claudeCounts(dedup?["total"]))
        #expect(report["events"] == dedup?["total"]?["messages"])
        guard case .object(let models)? = dedup?["by_model"], case .object(let days)? = dedup?["by_day_utc"] else {
            Issue.record("expected totals lack by_model or by_day_utc")
            return
        }
        #expect(report["byModel"] == .object(models.mapValues(claudeCounts)))
        #expect(report["byDay"] == .object(days.mapValues(claudeCounts)))
    }

    @Test(arguments: [4, 5])
    func claudeKeepsTheLargestStreamingSnapshot(seed: Int) throws {
        let (root, expected) = try generate(
            "gen_claude_logs.py", ["--total-mb", "1.5", "--days", "6", "--seed", "\(seed)", "--partial-frac", "0.4"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try dryRun("claude-code", root)
        let last = expected["dedup_last"]
        #expect(report["totals"] == claudeCounts(last?["total"]))
        #expect(report["totals"] != claudeCounts(expected["dedup"]?["total"]), "the corpus has no partial snapshots")
        guard case .object(let models)? = last?["by_model"] else {
            Issue.record("expected totals lack dedup_last.by_model")
            return
        }
        #expect(report["byModel"] == .object(models.mapValues(claudeCounts)))
    }

    /// Codex expected counts (input includes cached input) in our disjoint shape.
    func codexCounts(_ tree: JSONTree?) -> JSONTree {
        guard case .number(let input)? = tree?["input_tokens"], case .number(let cached)? = tree?["cached_input_tokens"]
        else { return .null }
        return .object([
            "input": .number(input - cached), "cacheRead": .number(cached), "output": tree?["output_tokens"] ?? .null,
            "reasoning": tree?["reasoning_output_tokens"] ?? .null, "cacheWrite5m": .number(0), "cacheWrite1h": .number(0),
        ])
    }

    @Test(arguments: [1, 2, 3])
    func codexMatchesTrueTotals(seed: Int) throws {
        let (root, expected) = try generate("gen_codex_logs.py", ["--total-mb", "1.5", "--days", "6", "--seed", "\(seed)"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try dryRun("codex", root)
        let truth = expected["true"]
        #expect(report["totals"] == codexCounts(truth?["total"]))
        #expect(report["events"] == truth?["total"]?["events"])
        guard case .object(let models)? = truth?["by_model"], case .object(let days)? = truth?["by_day_utc"] else {
            Issue.record("expected totals lack by_model or by_day_utc")
            return
        }
        #expect(report["byModel"] == .object(models.mapValues(codexCounts)))
        #expect(report["byDay"] == .object(days.mapValues(codexCounts)))
        #expect(report["totals"] != codexCounts(expected["naive_last_sum"]?["total"]))
    }
}
