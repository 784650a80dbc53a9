import Foundation
import Testing
import UnpromptTestSupport

/// A store written before episodes (schema 2) is upgraded in place by the next scan: no token counts twice,
/// uses come out as a fresh store's for every log still on disk, and usage whose log is gone keeps its uses.
struct StoreUpgradeTests {
    typealias Record = ReportCommandTests.Record

    @Test func aSchemaTwoStoreGetsItsUsesAndCountsNothingTwice() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-upgrade-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let project = root + "/claude/projects/-home-dev-project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        // One session with uses at 10:00 (10:00 and 10:30) on Jan 5 and 15:00 on Jan 6; another with a use at
        // 20:00 on Jan 5, whose file is deleted before the upgrade (as Claude Code does after 30 days).
        let kept = [
            Record.claude("K1", "2026-01-05T10:00:00.000Z", "claude-sonnet-4-5", 1),
            Record.claude("K2", "2026-01-05T10:30:00.000Z", "claude-sonnet-4-5", 2),
            Record.claude("K3", "2026-01-06T15:00:00.000Z", "claude-sonnet-4-5", 4),
        ]
        let gone = [Record.claude("G1", "2026-01-05T20:07:00.000Z", "claude-opus-4-5", 8)]
        try kept.map(\.claudeLines).joined().write(toFile: project + "/kept.jsonl", atomically: true, encoding: .utf8)
        try gone.map(\.claudeLines).joined().write(toFile: project + "/gone.jsonl", atomically: true, encoding: .utf8)
        let environment = ["CLAUDE_CONFIG_DIR": root + "/claude", "CODEX_HOME": root + "/codex", "UNPROMPT_NOW": "2026-01-31T12:00:00Z"]
        func run(_ store: String, _ arguments: [String]) throws -> JSONTree {
            let output = try Binary.run(["--store", store, "--tz", "UTC", "--json"] + arguments, environment: environment)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            return try JSONTree(parsing: output.stdout)
        }
        func uses(_ calendar: JSONTree) -> [JSONTree] {
            guard case .array(let days)? = calendar["days"] else { return [] }
            return days.prefix(7).map { $0["uses"] ?? .null }
        }

        let current = root + "/current/usage.sqlite"
        _ = try run(current, [])
        let expected = try run(current, ["calendar", "--no-scan"])
        #expect(uses(expected) == [0, 0, 0, 0, 2, 1, 0].map { .number($0) })
        let totals = try StoreReader.totalsByModel(store: current)

        let legacy = root + "/legacy/usage.sqlite"
        try FileManager.default.createDirectory(atPath: root + "/legacy", withIntermediateDirectories: true)
        try LegacyStore.schemaTwo(from: current, to: legacy)
        try FileManager.default.removeItem(atPath: project + "/gone.jsonl")

        // The read-only views ask for the upgrade rather than guess.
        let refused = try Binary.run(["--store", legacy, "calendar", "--no-scan"], environment: environment)
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("older version (schema 2)"), "\(refused.stderr)")

        // The first scan upgrades: the log still there is read again, every record a duplicate.
        let scan = try run(legacy, [])
        #expect(scan["scan"]?["read"] == .number(1))
        #expect(scan["scan"]?["events"] == .number(0))
        #expect(try StoreReader.totalsByModel(store: legacy) == totals)
        let upgraded = try run(legacy, ["calendar", "--no-scan"])
        #expect(uses(upgraded) == uses(expected), "\(upgraded)")
        #expect(upgraded["days"] == expected["days"], "the same days, tokens and bands")
        // And from then on, a scan reads nothing again.
        #expect(try run(legacy, [])["scan"]?["read"] == .number(0))
    }
}
