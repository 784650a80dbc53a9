import Foundation
import Testing
import UnpromptTestSupport

/// A store with a damaged page that no view reads (the identities'): the totals survive it, and the damage is
/// still found and said, by the page check a scan runs once a day and by `check`, and nothing is written into it.
struct StoreDamageTests {
    static let later = ["UNPROMPT_NOW": "2026-04-07T12:00:00Z"]

    @Test func aDamagedPageNoViewReadsIsFoundByTheDailyCheckAndNothingIsWritten() throws {
        let home = try HostileHome("store-damage")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: ".claude/projects/p/a.jsonl")
        #expect(try home.run([]).status == 0)
        try StoreDamage.breakFirstPage(of: "identities", store: home.store)

        let view = try home.run(["daily", "--no-scan", "--json"])
        #expect(view.status == 0, "\(view.stderr)")
        #expect(view.stdout.contains(#""input":100"#), "the totals survive: \(view.stdout)")

        // Within a day of the last clean check a scan pays for none (nothing new here, so it writes nothing).
        #expect(try home.run([]).status == 0)

        try home.write(HostileHome.claudeRecord("a", input: "100") + HostileHome.claudeRecord("b", input: "7"), at: ".claude/projects/p/a.jsonl")
        let before = try Data(contentsOf: URL(fileURLWithPath: home.store))
        for arguments in [[], ["daily"], ["sync", "--dir", home.directory + "/sync"], ["confirm", "--no-scan", "--yes"]] {
            let run = try home.run(arguments, environment: Self.later)
            #expect(run.status == 4, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("the store is damaged (SQLite's check of its pages:"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("nothing was scanned or written into it"), "\(arguments): \(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.store)) == before, "nothing was written")

        let check = try home.run(["check"])
        #expect(check.status == 4)
        #expect(check.stdout.contains("pages: damaged"), "\(check.stdout)")
        let json = try home.run(["check", "--json"])
        #expect(json.status == 4)
        #expect(json.stdout.hasPrefix(#"{"whole":false,"pages":[""#), "\(json.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.store)) == before, "check only reads")
    }

    @Test func damageAScanMeetsIsSaidAndMakesTheNextWriteCheckEveryPageFirst() throws {
        let home = try HostileHome("store-damage-met")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: ".claude/projects/p/a.jsonl")
        #expect(try home.run([]).status == 0)
        try StoreDamage.breakFirstPage(of: "checkpoints", store: home.store)
        let met = try home.run([])
        #expect(met.status == 4)
        #expect(met.stderr.contains("the store is damaged (database disk image is malformed)"), "\(met.stderr)")
        // Within the day of the last clean check, yet the next scan checks first: the damage met is remembered.
        let before = try Data(contentsOf: URL(fileURLWithPath: home.store))
        let next = try home.run([])
        #expect(next.status == 4)
        #expect(next.stderr.contains("the store is damaged (SQLite's check of its pages:"), "\(next.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.store)) == before)
    }

    @Test func aWholeStoreChecksWholeAndItsCleanCheckIsRemembered() throws {
        let home = try HostileHome("store-whole")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: ".claude/projects/p/a.jsonl")
        #expect(try home.run([]).status == 0)
        let check = try home.run(["check", "--json"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"whole":true,"pages":[],"sums":[]}"#)
        #expect(try home.run([], environment: Self.later).status == 0)
        let stamp = try Python.run(
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM settings WHERE key = 'pages_checked_at'\").fetchone()[0])",
            arguments: [home.store])
        #expect(stamp.trimmingCharacters(in: .whitespacesAndNewlines) == "1775563200000", "the later scan's clean check")
    }

    @Test func checkOfNoStoreSaysSoAndCreatesNone() throws {
        let home = try HostileHome("store-none")
        defer { home.remove() }
        let check = try home.run(["check"])
        #expect(check.status == 4)
        #expect(check.stderr.contains("no store at this path yet"), "\(check.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.store))
    }
}
