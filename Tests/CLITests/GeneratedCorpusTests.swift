import Foundation
import Testing
import UnpromptTestSupport

/// The dry run equals the corpus generator's expected totals (its `true` rule), to the token, on small corpora of
/// several seeds that hold every trap the generator writes (`--dense`); a naive rule gives other totals there.
struct GeneratedCorpusTests {
    static let small = ["--size-mb", "2", "--days", "6", "--dense"]

    func dryRun(_ reader: String, _ root: String) throws -> JSONTree {
        let output = try Binary.run(["--dry-run", "--reader", reader, "--root", root, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        guard case .array(let readers)? = try JSONTree(parsing: output.stdout)["readers"], readers.count == 1 else {
            Issue.record("no reader in output")
            return .null
        }
        return readers[0]
    }

    /// Events, totals, by model, by UTC day and plan-limit readings, as the generator counted them.
    func expectTruth(_ report: JSONTree, _ expected: JSONTree) {
        let truth = expected["rules"]?["true"]
        #expect(truth?["events"] != nil, "expected_totals.json lacks rules.true")
        for key in ["events", "totals", "byModel", "byDay"] {
            #expect(report[key] == truth?[key], "\(key)")
        }
        #expect(report["limitSamples"] == expected["limits"]?["samples"])
        #expect(report["limits"] == expected["limits"]?["latest"])
    }

    /// Every trap the generator knows was written at least once.
    func expectEveryTrap(_ expected: JSONTree) {
        guard case .object(let traps)? = expected["traps"], !traps.isEmpty else {
            Issue.record("expected_totals.json lacks traps")
            return
        }
        for (trap, count) in traps.sorted(by: { $0.key < $1.key }) {
            #expect(count != .number(0), "the corpus holds no \(trap)")
        }
    }

    func totals(_ expected: JSONTree, rule: String) -> JSONTree? { expected["rules"]?[rule]?["totals"] }

    @Test(arguments: [1, 2, 3])
    func claudeCountsEveryRequestOnce(seed: Int) throws {
        let (root, expected) = try Generator.run("claude", Self.small + ["--seed", "\(seed)"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try dryRun("claude-code", root)
        expectTruth(report, expected)
        expectEveryTrap(expected)
        #expect(report["totals"] != totals(expected, rule: "first-copy"))
        #expect(report["totals"] != totals(expected, rule: "every-line"))
    }

    @Test(arguments: [4, 5])
    func claudeKeepsTheLargestStreamingSnapshot(seed: Int) throws {
        let (root, expected) = try Generator.run(
            "claude", Self.small + ["--seed", "\(seed)", "--snapshot-frac", "0.5", "--side-question-frac", "0"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try dryRun("claude-code", root)
        expectTruth(report, expected)
        // Without side questions the first copy differs from the truth by the snapshots' output alone.
        guard case .number(let first)? = totals(expected, rule: "first-copy")?["output"],
            case .number(let counted)? = report["totals"]?["output"]
        else {
            Issue.record("no output totals")
            return
        }
        #expect(counted > first, "the corpus has no partial snapshots")
    }

    @Test(arguments: [1, 2, 3])
    func codexCountsEveryCallOnce(seed: Int) throws {
        let (root, expected) = try Generator.run("codex", Self.small + ["--seed", "\(seed)"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try dryRun("codex", root)
        expectTruth(report, expected)
        expectEveryTrap(expected)
        #expect(report["totals"] != totals(expected, rule: "per-file"))
        #expect(report["totals"] != totals(expected, rule: "last-usage-sum"))
    }
}
