import Foundation
import Testing
import UnpromptTestSupport

/// `snapshot`: valid against `docs/snapshot.schema.json`, numbers only (no string but enumerated ids), and
/// the same numbers as the other views.
struct SnapshotTests {
    typealias Home = ReportCommandTests.Home

    static let schema = Repository.root + "/docs/snapshot.schema.json"

    /// Runs `scripts/check-json-schema.py` on a document: its exit status and what it printed.
    func check(_ document: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString).json").path
        try document.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.root + "/scripts/check-json-schema.py", Self.schema, file]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Every string value in a JSON document (object keys are the schema's, checked by the schema).
    func strings(_ tree: JSONTree) -> [String] {
        switch tree {
        case .string(let value): return [value]
        case .array(let items): return items.flatMap(strings)
        case .object(let object): return object.values.flatMap(strings)
        case .number, .null: return []
        }
    }

    /// The home of the limits test (Claude, a limit-reached record, Codex with rate limits), with work hours.
    func home() throws -> Home {
        let home = try LimitsViewTests().home()
        _ = try home.run(["config", "set", "work-hours", "Mon-Fri 09:00-18:00", "--config", home.root + "/config.yaml"])
        return home
    }

    @Test func theSnapshotValidatesAndHoldsNoStringButIds() throws {
        let home = try home()
        let clock = ["UNPROMPT_NOW": "2026-03-10T11:30:00Z"]
        let arguments = ["snapshot", "--json", "--tz", "Europe/Paris", "--config", home.root + "/config.yaml"]
        let output = try home.run(arguments, environment: clock)
        #expect(output.status == 0, "\(output.stderr)")
        let validation = try check(output.stdout)
        #expect(validation.status == 0, "\(validation.output)")

        let snapshot = try JSONTree(parsing: output.stdout)
        #expect(snapshot["version"] == .number(1))
        #expect(snapshot["generatedAt"] == .number(1_773_142_200_000))
        #expect(snapshot["utcOffsetMinutes"] == .number(60))
        // Ids only: the tools, the models the store holds, the limit windows and the band names.
        let models = try StoreReader.totalsByModel(store: home.store).keys.map { String($0.split(separator: "/", maxSplits: 1)[1]) }
        let assumptions = ["standard-rate-for-tier", "standard-region", "standard-speed", "standard-tier"]
        let allowed = Set(["claude-code", "codex", "five_hour", "weekly", "limit_reached", "zero", "less", "average", "more", "much-more"] + models + assumptions)
        let found = strings(snapshot)
        #expect(!found.isEmpty && found.contains("claude-code") && found.contains("gpt-5") && found.contains("average") && found.contains("five_hour"))
        for string in found { #expect(allowed.contains(string), "'\(string)' is not an enumerated id") }
        #expect(!output.stdout.contains(home.root) && !output.stdout.contains("project"))

        // The same numbers as the other views.
        let usage = snapshot["usage"]
        let today = try home.json(["today", "--tz", "Europe/Paris", "--no-scan", "--config", home.root + "/config.yaml"], environment: clock)
        #expect(usage?["tokens"] == today["tokens"])
        #expect(usage?["tokens"] == .number(90 + 110))
        #expect(usage?["measuredAt"] == .number(1_773_142_200_000))
        #expect(usage?["work"] == .object(["tokens": .number(200)]), "10:10 to 12:00 in Paris, a Tuesday")
        #expect(snapshot["uses"] == .object(["today": .number(1), "work": .number(1), "personal": .number(0)]))
        guard case .array(let days)? = snapshot["days"], case .array(let limits)? = snapshot["limits"] else {
            Issue.record("\(snapshot)")
            return
        }
        #expect(days.count == 35)
        #expect(days.last?["day"] == .number(20522), "2026-03-10")
        #expect(days.last?["dayStart"] == .number(1_773_097_200_000), "midnight in Paris, 23:00Z the day before")
        #expect(days.last?["band"] == .string("average"), "the first day with usage")
        #expect(days.dropLast().allSatisfy { $0["tokens"] == .number(0) && $0["band"] == .string("zero") })
        #expect(limits.count == 3)
        #expect(limits.first { $0["window"] == .string("five_hour") }?["resetsAt"] == .number(1_773_145_800_000))
    }

    @Test func aSnapshotOfNothingStillValidates() throws {
        let home = try Home(records: [], codex: false)
        let output = try home.run(["snapshot", "--no-scan"], environment: ["UNPROMPT_NOW": "2026-03-10T11:30:00Z", "TZ": "UTC"])
        #expect(output.status == 0)
        #expect(try check(output.stdout).status == 0, "\(output.stdout)")
        #expect(try JSONTree(parsing: output.stdout)["usage"]?["measuredAt"] == .null)
    }

    /// The checker is strict: a document that breaks the schema fails, with where and why.
    @Test func theSchemaCheckCanFail() throws {
        let home = try home()
        let output = try home.run(["snapshot"], environment: ["UNPROMPT_NOW": "2026-03-10T11:30:00Z"])
        var object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        var usage = try #require(object["usage"] as? [String: Any])
        usage["note"] = "free text"
        object["usage"] = usage
        object["days"] = (object["days"] as? [Any]).map { Array($0.dropFirst()) }
        object["version"] = 2
        let broken = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let result = try check(broken)
        #expect(result.status == 1)
        #expect(result.output.contains("$.usage: unexpected key note"), "\(result.output)")
        #expect(result.output.contains("$.days: 34 items, fewer than 35"))
        #expect(result.output.contains("$.version: expected 1"))
    }
}
