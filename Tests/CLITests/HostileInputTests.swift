import Foundation
import Testing
import UnpromptTestSupport

@testable import unprompt_scan

/// The hostile inputs of the reliability issue, each as a person meets it: the binary run on it, then the
/// store and every output checked. Each refuses what it must, without crashing, losing, leaking or writing
/// where it must not.
struct HostileInputTests {
    static let claudeLog = ".claude/projects/p/a.jsonl"

    /// The views a person runs, with what each must print: every one must survive what the store holds.
    static let views: [[String]] = [
        ["daily", "--since", "2026-01-01", "--no-scan"], ["daily", "--json", "--since", "2026-01-01", "--no-scan"],
        ["monthly", "--no-scan"], ["monthly", "--json", "--no-scan"], ["today", "--no-scan"], ["today", "--json", "--no-scan"],
        ["calendar", "--month", "2026-04", "--no-scan"], ["calendar", "--month", "2026-04", "--json", "--no-scan"],
        ["limits", "--no-scan"], ["snapshot", "--no-scan"], ["prices"], ["prices", "--json"], [],
    ]

    // MARK: 1. Int64 overflow

    @Test func int64OverflowCountIsABadValueAndTheRestCounts() throws {
        let home = try HostileHome("overflow-count")
        defer { home.remove() }
        try home.write(
            HostileHome.claudeRecord("a", input: "100") + HostileHome.claudeRecord("b", input: "9223372036854775807")
                + HostileHome.claudeRecord("c", input: String(TokenCeiling.value))
                + HostileHome.claudeRecord("d", input: String(TokenCeiling.value + 1)),
            at: Self.claudeLog)
        let scan = try home.run(["--json"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains(#""bad-value":2"#), "\(scan.stdout)")
        let stored = try StoreReader.totals(store: home.store)["claude-code"]
        #expect(stored == StoreTotals(input: 100 + TokenCeiling.value, output: 2, events: 2))
        for view in Self.views {
            let output = try home.run(view)
            #expect(output.status == 0, "\(view): \(output.stderr)")
        }
    }

    @Test func int64OverflowSumOfRecordsNeverTraps() throws {
        let home = try HostileHome("overflow-sum")
        defer { home.remove() }
        // Three records of 2^62: each over the ceiling, and their sum past Int64.max.
        let huge = "4611686018427387904"
        try home.write(
            HostileHome.claudeRecord("c", input: huge) + HostileHome.claudeRecord("d", input: huge)
                + HostileHome.claudeRecord("e", input: huge) + HostileHome.claudeRecord("f", input: "7"),
            at: Self.claudeLog)
        let dryRun = try home.run(["--dry-run", "--reader", "claude-code", "--json"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains(#""bad-value":3"#), "\(dryRun.stdout)")
        let scan = try home.run([])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try StoreReader.totals(store: home.store)["claude-code"] == StoreTotals(input: 7, output: 1, events: 1))
    }

    /// A store an older version wrote with a count no record can give, and sums that overflow: every view
    /// still shows it (the sums held at Int64.max), and says the store holds such rows (exit status 4).
    @Test func int64OverflowStoreStillOpensAndSaysSo() throws {
        let home = try HostileHome("overflow-store")
        defer { home.remove() }
        try home.write(
            HostileHome.claudeRecord("a", input: "100") + HostileHome.claudeRecord("b", input: "5", output: 9),
            at: Self.claudeLog)
        #expect(try home.run([]).status == 0)
        // Two rows of Int64.max in one day (an older version stored such a record), and a row SQLite turned into
        // a real number when a sum overflowed.
        _ = try Python.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE buckets SET input = 9223372036854775807")
            db.execute("INSERT INTO buckets SELECT quarter + 1, tool, model, context_above, cost_logged, speed, tier, "
                       "region, input, cache_read, cache_write_5m, cache_write_1h, cache_write_12h, 1.5e19, reasoning, "
                       "events, logged_cost_nanos, estimated_events, web_search, web_fetch FROM buckets")
            db.commit()
            """, arguments: [home.store])
        for view in Self.views {
            let output = try home.run(view)
            #expect(output.status == 4, "\(view): \(output.stderr)")
            #expect(!output.stdout.isEmpty, "\(view) shows the store as it is")
            #expect(
                output.stderr.contains("store: 2 bucket rows hold counts no record could give"), "\(view): \(output.stderr)")
        }
        let daily = try home.run(["daily", "--json", "--since", "2026-01-01", "--no-scan"])
        #expect(daily.stdout.contains(#""totals":{"input":9223372036854775807,"output":9223372036854775807"#), "\(daily.stdout)")
    }

    // MARK: 2. Non-UTF-8 file and folder names

    @Test func nonUTF8NamesAreReadAndNeverPrinted() throws {
        let home = try HostileHome("non-utf8")
        defer { home.remove() }
        let projects = Array(".claude/projects/".utf8)
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: projects + Array("ok/a.jsonl".utf8))
        try home.write(HostileHome.claudeRecord("b", input: "7"), at: projects + Array("ok/b".utf8) + [0xFF] + Array(".jsonl".utf8))
        // A Latin-1 "café" folder.
        try home.write(HostileHome.claudeRecord("c", input: "11"), at: projects + [0x63, 0x61, 0x66, 0xE9] + Array("/c.jsonl".utf8))
        // An Aider repository in a Latin-1 "projet-été" folder.
        try home.write(
            "# aider chat started at 2026-04-05 10:00:00\n> Main model: gpt-5 with diff\n> Tokens: 1.0k sent, 100 received.\n",
            at: Array("projet-".utf8) + [0xE9, 0x74, 0xE9] + Array("/.aider.chat.history.md".utf8))
        var outputs: [Binary.Output] = []
        let scan = try home.run(["--json"])
        outputs.append(scan)
        #expect(scan.status == 0, "\(scan.stderr)")
        let stored = try StoreReader.totals(store: home.store)
        #expect(stored["claude-code"] == StoreTotals(input: 118, output: 3, events: 3))
        #expect(stored["aider"] == StoreTotals(input: 1000, output: 100, events: 1))
        let claude = try home.run(["--dry-run", "--reader", "claude-code"])
        let aider = try home.run(["--dry-run", "--reader", "aider"])
        outputs += [claude, aider, try home.run(["--dry-run", "--json"])]
        #expect(claude.stdout.contains("sources 3"), "\(claude.stdout)")
        #expect(aider.stdout.contains("sources 1"), "\(aider.stdout)")
        for output in outputs {
            for text in [output.stdout, output.stderr] {
                #expect(!text.contains("\u{FFFD}") && !text.contains("caf") && !text.contains("projet"), "\(text)")
            }
        }
    }

    // MARK: 3. A foreign SQLite database given as --store

    @Test func foreignSQLiteDatabaseIsNeverWrittenInto() throws {
        let home = try HostileHome("foreign-store")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: Self.claudeLog)
        for (name, setup) in [
            ("notes", "PRAGMA journal_mode = DELETE"), ("notes-wal", "PRAGMA journal_mode = WAL"),
            ("other-id", "PRAGMA application_id = 42"),
            // Another application's database that happens to have a table of a store's name.
            ("lookalike", "CREATE TABLE buckets(x)"),
        ] {
            let path = home.directory + "/\(name).db"
            _ = try Python.run(
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                db.execute(sys.argv[2])
                db.execute("CREATE TABLE notes(x)")
                db.execute("INSERT INTO notes VALUES ('precious')")
                db.commit()
                db.close()
                """, arguments: [path, setup])
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for arguments in [["--store", path], ["daily", "--no-scan", "--store", path], ["prices", "--store", path]] {
                let output = try home.run(arguments)
                #expect(output.status == 4, "\(name) \(arguments): \(output.stderr)")
                #expect(output.stderr.contains("is not an Unprompt store"), "\(name): \(output.stderr)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(name) is byte for byte as it was")
            let beside = try FileManager.default.contentsOfDirectory(atPath: home.directory).filter { $0.hasPrefix(name + ".db") }
            #expect(beside == [name + ".db"], "\(name): nothing is left beside it")
        }
    }

    // MARK: 4. Empty option values

    /// `--store ''` once scanned into SQLite's throw-away database and left `./.lock`: every option's empty or
    /// missing value is a usage error, before anything is opened, created or scanned.
    @Test func emptyOptionValueIsAUsageErrorAndWritesNothing() throws {
        let home = try HostileHome("empty-option")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: Self.claudeLog)
        let work = home.directory + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for option in Option.all where option.value != nil {
            for spelling in [[option.name, ""], [option.name + "="], [option.name]] {
                let process = Binary.process(spelling, environment: ["HOME": home.home])
                process.currentDirectoryURL = URL(fileURLWithPath: work)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 2, "\(spelling)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).isEmpty, "nothing written in the working folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.home) == [".claude"], "nothing written in the home")
        #expect(!FileManager.default.fileExists(atPath: home.store))
    }

    // MARK: 5 and 6. Hostile user descriptors

    /// A text descriptor of the person's own whose usage pattern nests quantifiers (`(\d+)+`): about 0.65 s a
    /// line unbounded, and the line silently unmatched.
    @Test func catastrophicRegexLineIsSkippedAsPatternTooSlow() throws {
        let home = try HostileHome("redos")
        defer { home.remove() }
        let descriptor = #"""
            schema: 1
            id: redos
            name: Evil
            inputs:
              - format: text
                sources:
                  - { root: "~/evil", glob: "*.log" }
                prefilter: ["Tokens: ", "# started at "]
                patterns:
                  header: '^# started at (?<started>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$'
                  usage: '^Tokens: (?<sent>(\d+)+)+y'
                carry:
                  - match: { pattern: header }
                    set: { started: started }
                records:
                  - name: reply
                    match: { pattern: usage }
                    time: { path: "@started", as: local }
                    tokens: { input: sent, output: sent }
                    counting: { input_includes_cache: false, output_includes_reasoning: true }
                    identity: { key: [offset], scope: source, keep: first }
            """#
        try home.write(descriptor + "\n", at: ".config/unprompt/readers/redos.yaml")
        let evil = "Tokens: " + String(repeating: "1", count: 34) + " x\n"
        try home.write(
            "# started at 2026-04-05 10:00:00\nTokens: 42y\n" + String(repeating: evil, count: 5) + "Tokens: 7y\n",
            at: "evil/a.log")
        let validate = try home.run(["readers", "validate", home.home + "/.config/unprompt/readers/redos.yaml"])
        #expect(validate.status == 0)
        #expect(validate.stderr.contains("redos.yaml:11:14: warning: '^Tokens: (?<sent>(\\d+)+)+y' repeats a group"), "\(validate.stderr)")
        // Unbounded, each of the five lines is left unmatched without a word: the skips prove the bound.
        let dryRun = try home.run(["--dry-run", "--reader", "redos", "--json"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains(#""skipped":{"pattern-too-slow":5}"#), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains(#""totals":{"input":49,"output":49"#), "\(dryRun.stdout)")
        let scan = try home.run([])
        #expect(scan.status == 0)
        #expect(try StoreReader.totals(store: home.store)["redos"] == StoreTotals(input: 49, output: 49, events: 2))
    }
}

/// `TokenCounts.recordCeiling`, as the tests know it (the binary's library is not linked into this target).
enum TokenCeiling {
    static let value: Int64 = 1_000_000_000_000
}
