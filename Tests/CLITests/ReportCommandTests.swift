import Foundation
import Testing
import UnpromptTestSupport

/// `daily`, `monthly` and today's summary, run as a person would: a temporary Claude and Codex home with
/// records placed around midnight in several zones, scanned into a temporary store.
struct ReportCommandTests {
    /// Counts in the views' JSON keys.
    struct Counts: Equatable {
        var input: Int64 = 0, output: Int64 = 0, cacheRead: Int64 = 0, cacheWrite5m: Int64 = 0, cacheWrite1h: Int64 = 0
        var reasoning: Int64 = 0

        static func + (a: Counts, b: Counts) -> Counts {
            Counts(
                input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead,
                cacheWrite5m: a.cacheWrite5m + b.cacheWrite5m, cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h,
                reasoning: a.reasoning + b.reasoning)
        }

        var tree: JSONTree {
            .object([
                "input": .number(Double(input)), "output": .number(Double(output)), "cacheRead": .number(Double(cacheRead)),
                "cacheWrite5m": .number(Double(cacheWrite5m)), "cacheWrite1h": .number(Double(cacheWrite1h)),
                "cacheWrite12h": .number(0), "reasoning": .number(Double(reasoning)),
            ])
        }
    }

    /// One Claude response: its time (UTC), model and counts, each record's counts a distinct digit place.
    struct Record {
        let id: String
        let time: String
        let model: String
        let counts: Counts

        static func claude(_ id: String, _ time: String, _ model: String, _ unit: Int64) -> Record {
            Record(
                id: id, time: time, model: model,
                counts: Counts(input: unit, output: 2 * unit, cacheRead: 3 * unit, cacheWrite5m: 4 * unit, cacheWrite1h: 5 * unit))
        }

        /// The assistant line Claude Code writes (shape of Fixtures/claude-code/*/projects), twice: one per
        /// content block, with the same ids, as transcripts do; counted once.
        var claudeLines: String {
            let c = counts
            let usage =
                #"{"input_tokens":\#(c.input),"cache_creation_input_tokens":\#(c.cacheWrite5m + c.cacheWrite1h),"cache_read_input_tokens":\#(c.cacheRead),"cache_creation":{"ephemeral_5m_input_tokens":\#(c.cacheWrite5m),"ephemeral_1h_input_tokens":\#(c.cacheWrite1h)},"output_tokens":\#(c.output),"service_tier":"standard"}"#
            let line =
                #"{"parentUuid":"u-\#(id)","isSidechain":false,"userType":"external","cwd":"/home/dev/project","sessionId":"5b0c","version":"2.1.12","gitBranch":"main","message":{"model":"\#(model)","id":"msg_01\#(id)","type":"message","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":null,"stop_sequence":null,"usage":\#(usage)},"requestId":"req_011\#(id)","type":"assistant","uuid":"a-\#(id)","timestamp":"\#(time)"}"#
            return line + "\n" + line + "\n"
        }
    }

    // Around 2026-01-05/06 midnight in Asia/Kolkata (+05:30, 18:30Z), Asia/Kathmandu (+05:45, 18:15Z),
    // America/New_York (−05:00, 05:00Z), America/St_Johns (−03:30, 03:30Z) and UTC; around the month's end;
    // and New York's 25-hour day 2024-11-03 (00:30 EDT and 23:30 EST are the same local day).
    static let a = Record.claude("A", "2026-01-05T18:20:00.000Z", "claude-sonnet-4-5", 1)
    static let b = Record.claude("B", "2026-01-05T18:35:00.000Z", "claude-opus-4-5", 10)
    static let c = Record.claude("C", "2026-01-06T04:50:00.000Z", "claude-sonnet-4-5", 100)
    static let d = Record.claude("D", "2026-01-31T23:55:00.000Z", "claude-sonnet-4-5", 1000)
    static let f = Record.claude("F", "2024-11-03T04:30:00.000Z", "claude-haiku-4-5", 100_000)
    static let g = Record.claude("G", "2024-11-04T04:30:00.000Z", "claude-haiku-4-5", 1_000_000)
    /// The Codex call: 2026-02-01T00:05Z, input 40,000 of which 30,000 cached.
    static let e = Counts(input: 10_000, output: 20_000, cacheRead: 30_000, reasoning: 5_000)
    static let all = [a, b, c, d, f, g].map(\.counts).reduce(e, +)

    /// A temporary tool home and store.
    final class Home {
        let root: String
        let store: String
        var environment: [String: String]

        init(records: [Record] = ReportCommandTests.allRecords, codex: Bool = true) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-views-\(UUID().uuidString)").path
            store = root + "/store/usage.sqlite"
            environment = ["CLAUDE_CONFIG_DIR": root + "/claude", "CODEX_HOME": root + "/codex"]
            let project = root + "/claude/projects/-home-dev-project"
            try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
            try records.map(\.claudeLines).joined().write(toFile: project + "/5b0c.jsonl", atomically: true, encoding: .utf8)
            let sessions = root + "/codex/sessions/2026/02/01"
            try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
            if codex {
                let usage =
                    #"{"input_tokens":40000,"cached_input_tokens":30000,"output_tokens":20000,"reasoning_output_tokens":5000,"total_tokens":60000}"#
                let text =
                    #"{"timestamp":"2026-02-01T00:04:00.000Z","type":"turn_context","payload":{"cwd":"/home/dev/project","model":"gpt-5","effort":"medium"}}"#
                    + "\n"
                    + #"{"timestamp":"2026-02-01T00:05:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":\#(usage),"last_token_usage":\#(usage),"model_context_window":272000}}}"#
                    + "\n"
                try text.write(toFile: sessions + "/rollout-2026-02-01T00-04-00-0199.jsonl", atomically: true, encoding: .utf8)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Runs the binary on this home's store (commands that read no store are given none: they refuse it).
        func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Binary.Output {
            try Binary.run((Self.takesStore(arguments) ? ["--store", store] : []) + arguments, environment: environment.merging(extra) { $1 })
        }

        static func takesStore(_ arguments: [String]) -> Bool {
            !arguments.contains("--dry-run") && !["config", "readers"].contains(arguments.first ?? "")
        }

        /// Runs a view with `--json`, expecting exit 0, and returns its parsed output.
        func json(_ arguments: [String], environment extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation)
            throws -> JSONTree
        {
            let output = try run(arguments + ["--json"], environment: extra)
            #expect(output.status == 0, "\(arguments): \(output.stderr)", sourceLocation: sourceLocation)
            return (try? JSONTree(parsing: output.stdout)) ?? .null
        }
    }

    static let allRecords = [a, b, c, d, f, g]

    /// A view's entries as label → totals, in order.
    func entries(_ tree: JSONTree, _ list: String, _ label: String) -> [(String, JSONTree)] {
        guard case .array(let items)? = tree[list] else { return [] }
        return items.map { item in
            if case .string(let value)? = item[label] { return (value, item["totals"] ?? .null) }
            return ("?", .null)
        }
    }

    func expectEntries(
        _ tree: JSONTree, _ list: String, _ label: String, _ expected: [(String, Counts)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let got = entries(tree, list, label)
        #expect(got.map(\.0) == expected.map(\.0), sourceLocation: sourceLocation)
        #expect(got.map(\.1) == expected.map(\.1.tree), "\(tree)", sourceLocation: sourceLocation)
    }

    /// A view's cell with only its counts (totals, events, byModel), without its readings.
    func counted(_ tree: JSONTree?) -> JSONTree? {
        guard case .object(let fields)? = tree else { return tree }
        return .object(fields.filter { ["totals", "events", "byModel"].contains($0.key) })
    }

    /// The cells of a text table row (separated by two spaces or more).
    func columns(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The sum of a view's totals and events.
    func grandTotal(_ tree: JSONTree, _ list: String) -> (counts: [String: Double], events: Double) {
        var counts: [String: Double] = [:]
        var events = 0.0
        guard case .array(let items)? = tree[list] else { return ([:], -1) }
        for item in items {
            if case .object(let totals)? = item["totals"] {
                for (key, value) in totals { if case .number(let n) = value { counts[key, default: 0] += n } }
            }
            if case .number(let n)? = item["events"] { events += n }
        }
        return (counts, events)
    }

    // MARK: days in several zones

    @Test func dailyBucketsPerLocalDayInEveryZone() throws {
        let home = try Home()
        let (a, b, c, d, e, f, g) = (Self.a.counts, Self.b.counts, Self.c.counts, Self.d.counts, Self.e, Self.f.counts, Self.g.counts)

        let utc = try home.json(["daily", "--tz", "UTC"])
        #expect(utc["timeZone"] == .string("UTC"))
        expectEntries(utc, "daily", "date", [
            ("2024-11-03", f), ("2024-11-04", g), ("2026-01-05", a + b), ("2026-01-06", c), ("2026-01-31", d), ("2026-02-01", e),
        ])

        let kolkata = try home.json(["daily", "--tz", "Asia/Kolkata"])
        #expect(kolkata["timeZone"] == .string("Asia/Kolkata"))
        expectEntries(kolkata, "daily", "date", [
            ("2024-11-03", f), ("2024-11-04", g), ("2026-01-05", a), ("2026-01-06", b + c), ("2026-02-01", d + e),
        ])

        let kathmandu = try home.json(["daily", "--tz", "Asia/Kathmandu"])
        expectEntries(kathmandu, "daily", "date", [
            ("2024-11-03", f), ("2024-11-04", g), ("2026-01-06", a + b + c), ("2026-02-01", d + e),
        ])

        let newYork = try home.json(["daily", "--tz", "America/New_York"])
        expectEntries(newYork, "daily", "date", [("2024-11-03", f + g), ("2026-01-05", a + b + c), ("2026-01-31", d + e)])

        let stJohns = try home.json(["daily", "--tz", "America/St_Johns"])
        // St John's leaves summer time at 04:30Z, 02:00 NDT → 01:00 NST: G is on Nov 4 there.
        expectEntries(stJohns, "daily", "date", [
            ("2024-11-03", f), ("2024-11-04", g), ("2026-01-05", a + b), ("2026-01-06", c), ("2026-01-31", d + e),
        ])
    }

    @Test func aDayBreaksDownByToolAndModel() throws {
        let home = try Home()
        let newYork = try home.json(["daily", "--tz", "America/New_York"])
        guard case .array(let days)? = newYork["daily"], days.count == 3 else {
            Issue.record("three days expected: \(newYork)")
            return
        }
        let day = days[2]
        #expect(day["date"] == .string("2026-01-31"))
        #expect(day["events"] == .number(2))
        #expect(day["byModel"] == .object(["claude-sonnet-4-5": Self.d.counts.tree, "gpt-5": Self.e.tree]))
        #expect(counted(day["byTool"]?["claude-code"]) == .object([
            "totals": Self.d.counts.tree, "events": .number(1), "byModel": .object(["claude-sonnet-4-5": Self.d.counts.tree]),
        ]))
        #expect(counted(day["byTool"]?["codex"]) == .object([
            "totals": Self.e.tree, "events": .number(1), "byModel": .object(["gpt-5": Self.e.tree]),
        ]))
        // By hand, at list prices (USD per million): Sonnet 4.5 input 3, output 15, cache read 0.30, writes
        // 3.75 (5m) and 6 (1h): 0.003 + 0.030 + 0.0009 + 0.015 + 0.030; GPT-5 input 1.25, cached 0.125, output
        // 10 (reasoning inside): 10,000 × 1.25 + 30,000 × 0.125 + 20,000 × 10, per million.
        #expect(day["byTool"]?["claude-code"]?["cost"]?["usd"] == .number(0.0789))
        #expect(day["byTool"]?["codex"]?["costByModel"]?["gpt-5"]?["usd"] == .number(0.21625))
        #expect(day["cost"]?["usd"] == .number(0.29515))
        let first = days[1]
        #expect(first["events"] == .number(3), "each Claude response is written twice and counted once")
        #expect(first["byModel"] == .object([
            "claude-sonnet-4-5": (Self.a.counts + Self.c.counts).tree, "claude-opus-4-5": Self.b.counts.tree,
        ]))

        let text = try home.run(["daily", "--tz", "America/New_York"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "daily usage in tokens (time zone America/New_York)")
        // Columns: label, seven counts, total, events, cost, water, bottle, uses. D (18:55 in New York) and the
        // Codex call (19:05) are ten minutes apart: one use.
        let day31 = lines.first { $0.hasPrefix("2026-01-31 ") }.map(columns) ?? []
        #expect(
            day31.count == 14 && day31[9] == "2" && day31[10] == "$0.2952" && day31[12] == "100%" && day31[13] == "1", "\(day31)")
        #expect(lines.contains { $0.hasPrefix("  codex ") })
        #expect(lines.contains { $0.hasPrefix("    gpt-5 ") && $0.contains("20,000") && $0.contains("60,000") })
        let total = lines.first { $0.hasPrefix("total ") }.map(columns) ?? []
        #expect(total.count == 12 && total[9] == "7", "\(total)")
    }

    @Test func monthlyGroupsLocalMonths() throws {
        let home = try Home()
        let (a, b, c, d, e, f, g) = (Self.a.counts, Self.b.counts, Self.c.counts, Self.d.counts, Self.e, Self.f.counts, Self.g.counts)
        let utc = try home.json(["monthly", "--tz", "UTC"])
        expectEntries(utc, "monthly", "month", [("2024-11", f + g), ("2026-01", a + b + c + d), ("2026-02", e)])
        let kolkata = try home.json(["monthly", "--tz", "Asia/Kolkata", "--no-scan"])
        #expect(kolkata["timeZone"] == .string("Asia/Kolkata"))
        expectEntries(kolkata, "monthly", "month", [("2024-11", f + g), ("2026-01", a + b + c), ("2026-02", d + e)])
        let newYork = try home.json(["monthly", "--tz", "America/New_York", "--no-scan"])
        expectEntries(newYork, "monthly", "month", [("2024-11", f + g), ("2026-01", a + b + c + d + e)])
        let text = try home.run(["monthly", "--tz", "UTC", "--no-scan"])
        #expect(
            text.stdout.hasPrefix(
                "monthly usage in tokens (time zone UTC)\ncost at API list prices, prices 2026-11-30; water estimated by water-method v1 (central, low–high); not a bill\nmonth / tool / model "),
            "\(text.stdout)")
    }

    @Test func toolFilters() throws {
        let home = try Home()
        let codex = try home.json(["daily", "--tz", "UTC", "--tool", "codex"])
        expectEntries(codex, "daily", "date", [("2026-02-01", Self.e)])
        let claude = try home.json(["monthly", "--tz", "America/New_York", "--tool", "claude-code", "--no-scan"])
        expectEntries(claude, "monthly", "month", [
            ("2024-11", Self.f.counts + Self.g.counts), ("2026-01", Self.a.counts + Self.b.counts + Self.c.counts + Self.d.counts),
        ])
        let both = try home.json(["monthly", "--tz", "UTC", "--tool", "claude-code", "--tool", "codex", "--no-scan"])
        #expect(grandTotal(both, "monthly").counts == grandTotal(try home.json(["monthly", "--tz", "UTC", "--no-scan"]), "monthly").counts)
        let unknown = try home.run(["daily", "--tool", "no-such-tool"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--tool: no reader named 'no-such-tool'"), "\(unknown.stderr)")
    }

    @Test func sinceAndUntilAreInclusiveLocalDates() throws {
        let home = try Home()
        let (b, c, d, e) = (Self.b.counts, Self.c.counts, Self.d.counts, Self.e)
        let kolkata = try home.json(["daily", "--tz", "Asia/Kolkata", "--since", "2026-01-06", "--until", "2026-01-31"])
        expectEntries(kolkata, "daily", "date", [("2026-01-06", b + c)])
        let sinceOnly = try home.json(["daily", "--tz", "UTC", "--since", "2026-01-31", "--no-scan"])
        expectEntries(sinceOnly, "daily", "date", [("2026-01-31", d), ("2026-02-01", e)])
        let untilMonth = try home.json(["daily", "--tz", "UTC", "--until", "2024-11", "--no-scan"])
        expectEntries(untilMonth, "daily", "date", [("2024-11-03", Self.f.counts), ("2024-11-04", Self.g.counts)])
        let oneMonth = try home.json(["monthly", "--tz", "UTC", "--since", "2026-01", "--until", "2026-01", "--no-scan"])
        expectEntries(oneMonth, "monthly", "month", [("2026-01", Self.a.counts + b + c + d)])
        // A date in `monthly` filters by that day, then groups by month.
        let fromDate = try home.json(["monthly", "--tz", "UTC", "--since", "2026-01-06", "--no-scan"])
        expectEntries(fromDate, "monthly", "month", [("2026-01", c + d), ("2026-02", e)])
        let nothing = try home.json(["daily", "--tz", "UTC", "--since", "2025-01-01", "--until", "2025-12-31", "--no-scan"])
        #expect(nothing["daily"] == .array([]) && nothing["timeZone"] == .string("UTC"))
        let nothingText = try home.run(["daily", "--tz", "UTC", "--since", "2025-01-01", "--until", "2025-12-31", "--no-scan"])
        #expect(nothingText.status == 0)
        #expect(nothingText.stdout == "no usage recorded (time zone UTC, from 2025-01-01, through 2025-12-31)\n")
    }

    @Test func badDatesAndZonesAreUsageErrors() throws {
        let home = try Home(records: [], codex: false)
        let cases: [([String], String)] = [
            (["daily", "--since", "2026-02-30"], "--since: '2026-02-30' is not a date"),
            (["daily", "--until", "2026-13-01"], "--until: '2026-13-01' is not a date"),
            (["daily", "--since", "the day before"], "--since: expected a local date YYYY-MM-DD, a month YYYY-MM, today, yesterday, or Nd, Nw, Nm"),
            (["daily", "--since", "2026-1-5"], "--since: expected a local date YYYY-MM-DD"),
            (["monthly", "--until", "2026-13"], "--until: '2026-13' is not a month"),
            (["monthly", "--since", "26-01"], "--since: expected a local date YYYY-MM-DD, a month YYYY-MM"),
            (["weekly", "--since", "0w"], "--since: '0w' counts back 1 to 10000 days, weeks or months"),
            (["daily", "--since", "2026-02-01", "--until", "2026-01-31"], "--since is after --until"),
            (["daily", "--since", "today", "--until", "yesterday"], "--since is after --until"),
            (["daily", "--last", "0"], "--last takes a number of periods from 1 to 10000, got '0'"),
            (["monthly", "--last", "3m"], "--last takes a number of periods from 1 to 10000, got '3m'"),
            (["weekly", "--last", "2", "--since", "2026-01-01"], "--last and --since both say where the view starts: give one of them"),
            (["weekly", "--start-of-week", "tue"], "--start-of-week: expected mon or sun, got 'tue'"),
            (["daily", "--start-of-week", "sun"], "daily does not take --start-of-week"),
            (["daily", "--columns", "total,bogus"], "--columns: unknown column 'bogus'; daily has input, output, cache-read, cache-write-5m, cache-write-1h, cache-write-12h, reasoning, total, events, cost, water, bottle, uses, work"),
            (["weekly", "--columns", "total,,cost"], "--columns: an empty column name in 'total,,cost'; weekly has "),
            (["monthly", "--columns", "bottle"], "--columns: unknown column 'bottle'; monthly has "),
            (["prices", "--columns", "water"], "--columns: unknown column 'water'; prices has tokens, events, price-row, from"),
            (["limits", "--columns", "total"], "--columns: unknown column 'total'; limits has used, tokens, cost, from, resets, in, pace, used-up, logged"),
            (["today", "--wide", "--columns", "total"], "--wide shows every column and --columns only some: give one of them"),
            (["today", "--live"], "today --live draws on a terminal, and standard input and output are not both one"),
            (["today", "--live", "--json"], "today --live does not take --json"),
            (["daily", "--tz", "Mars/Olympus_Mons"], "--tz: unknown time zone 'Mars/Olympus_Mons'"),
            (["monthly", "--tz", ""], "--tz needs a value, and was given an empty one"),
            (["daily", "--tz"], "--tz needs a value"),
            (["daily", "--since", "2026-01-01", "--since", "2026-01-02"], "--since is given more than once"),
            (["daily", "extra"], "daily takes no argument 'extra'"),
        ]
        for (arguments, message) in cases {
            let output = try home.run(arguments)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: home.store), "a usage error scans nothing")
    }

    @Test func emptyStoreSaysNoUsageRecorded() throws {
        let home = try Home(records: [], codex: false)
        let missing = try home.run(["daily", "--no-scan", "--tz", "UTC"])
        #expect(missing.status == 0)
        #expect(missing.stdout == "no usage recorded (time zone UTC)\n")
        #expect(!FileManager.default.fileExists(atPath: home.store), "--no-scan never creates a store")
        let text = try home.run(["monthly", "--tz", "Asia/Kathmandu"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "no usage recorded (time zone Asia/Kathmandu)\n")
        let monthly = try home.json(["monthly", "--tz", "UTC"])
        #expect(monthly["monthly"] == .array([]) && monthly["timeZone"] == .string("UTC"))
        #expect(monthly["readings"]?["costMode"] == .string("calculate"))
        let daily = try home.json(["daily", "--tz", "UTC", "--no-scan"])
        #expect(daily["daily"] == .array([]) && daily["timeZone"] == .string("UTC"))
    }

    // MARK: another zone is another grouping, never a rescan

    @Test func changingTheZoneNeverRescansOrDoubleCounts() throws {
        let home = try Home()
        let utc = try home.json(["daily", "--tz", "UTC"])
        let expected = Self.all.tree
        let utcTotal = grandTotal(utc, "daily")
        #expect(JSONTree.object(utcTotal.counts.mapValues { .number($0) }) == expected)
        #expect(utcTotal.events == 7)

        let attributes = try FileManager.default.attributesOfItem(atPath: home.store)
        let kathmandu = try home.json(["daily", "--tz", "Asia/Kathmandu", "--no-scan"])
        let after = try FileManager.default.attributesOfItem(atPath: home.store)
        #expect(after[.size] as? Int == attributes[.size] as? Int)
        #expect(after[.modificationDate] as? Date == attributes[.modificationDate] as? Date)
        let kathmanduTotal = grandTotal(kathmandu, "daily")
        #expect(kathmanduTotal.counts == utcTotal.counts)
        #expect(kathmanduTotal.events == utcTotal.events)

        // A view that scans again finds nothing new: the same days, to the token.
        let again = try home.json(["daily", "--tz", "UTC"])
        #expect(again == utc)
        let scan = try home.json([])
        #expect(scan["scan"]?["events"] == .number(0))
        #expect(scan["scan"]?["unchanged"] == .number(2))
        #expect(try home.json(["daily", "--tz", "UTC", "--no-scan"]) == utc)

        // A new record is seen by a view that scans, never by one given --no-scan.
        let late = Record.claude("H", "2026-01-06T12:00:00.000Z", "claude-sonnet-4-5", 2)
        let handle = try #require(FileHandle(forWritingAtPath: home.root + "/claude/projects/-home-dev-project/5b0c.jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data(late.claudeLines.utf8))
        try handle.close()
        #expect(try home.json(["daily", "--tz", "UTC", "--no-scan"]) == utc)
        let rescanned = try home.json(["daily", "--tz", "Asia/Kathmandu"])
        #expect(JSONTree.object(grandTotal(rescanned, "daily").counts.mapValues { .number($0) }) == (Self.all + late.counts).tree)
        #expect(grandTotal(rescanned, "daily").events == 8)
        let rescannedUTC = try home.json(["daily", "--tz", "UTC", "--no-scan"])
        #expect(entries(rescannedUTC, "daily", "date").first { $0.0 == "2026-01-06" }?.1 == (Self.c.counts + late.counts).tree)
    }

    @Test func theDefaultZoneIsTZ() throws {
        let home = try Home()
        let view = try home.json(["daily"], environment: ["TZ": "Asia/Kathmandu"])
        #expect(view["timeZone"] == .string("Asia/Kathmandu"))
        #expect(entries(view, "daily", "date").map(\.0) == ["2024-11-03", "2024-11-04", "2026-01-06", "2026-02-01"])
        let colon = try home.json(["daily", "--no-scan"], environment: ["TZ": ":America/New_York"])
        #expect(colon["timeZone"] == .string("America/New_York"))
        #expect(entries(colon, "daily", "date").map(\.0) == ["2024-11-03", "2026-01-05", "2026-01-31"])
        let flagWins = try home.json(["daily", "--no-scan", "--tz", "UTC"], environment: ["TZ": "Asia/Kathmandu"])
        #expect(flagWins["timeZone"] == .string("UTC"))
    }

    @Test func viewsPrintNoPath() throws {
        let home = try Home()
        for arguments in [["daily"], ["monthly", "--json"], ["daily", "--json", "--tool", "codex"], [], ["--json"]] {
            let output = try home.run(arguments + ["--tz", "Asia/Kolkata"])
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            for secret in [home.root, "/home/dev", "project", "5b0c", "rollout", "done"] {
                #expect(!output.stdout.contains(secret), "\(arguments) printed '\(secret)'")
            }
        }
    }

    // MARK: today

    @Test func aPlainScanEndsWithTodaysUsage() throws {
        // The clock is pinned (UNPROMPT_NOW), five minutes after today's record.
        let today = Record.claude("T", "2026-03-10T10:00:00.000Z", "claude-sonnet-4-5", 7)
        let home = try Home(records: [Self.a, today], codex: false)
        let clock = ["UNPROMPT_NOW": "2026-03-10T10:05:00Z"]

        let output = try home.json(["--tz", "Asia/Kathmandu"], environment: clock)
        #expect(output["scan"]?["events"] == .number(2))
        let summary = output["today"]
        #expect(summary?["date"] == .string("2026-03-10"))
        #expect(summary?["timeZone"] == .string("Asia/Kathmandu"))
        #expect(summary?["totals"] == today.counts.tree)
        #expect(summary?["events"] == .number(1))
        #expect(summary?["byModel"] == .object(["claude-sonnet-4-5": today.counts.tree]))
        #expect(summary?["byTool"]?["claude-code"]?["events"] == .number(1))
        #expect(summary?["tokens"] == .number(105))
        #expect(summary?["uses"] == .number(1))
        #expect(summary?["measuredAt"] == .string("2026-03-10T10:05:00.000Z"), "the scan's clock")
        #expect(summary?["estimate"] == .object(["tokens": .number(105), "live": .number(1)]))
        // Sonnet 4.5 per million: 7 input × $3 + 14 output × $15 + 21 cache read × $0.30 + 28 5-minute writes ×
        // $3.75 + 35 1-hour writes × $6 = $552.30 per million records like it: $0.0005523.
        if case .number(let usd)? = summary?["cost"]?["usd"] { #expect(abs(usd - 0.0005523) < 1e-12) } else {
            Issue.record("today has no cost: \(String(describing: summary))")
        }

        let text = try home.run(["--tz", "UTC"], environment: clock)
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("scanned 1 sources: 0 read") == true, "\(text.stdout)")
        #expect(lines.count > 2 && lines[1] == "1 use today · 105 tokens · $0.0006 · water 0.0593 mL", "\(text.stdout)")
        #expect(lines.count > 2 && lines[2] == "  Tue 2026-03-10 (UTC) · 105 tokens in 1 event, live", "\(text.stdout)")
        #expect(lines.contains { $0.hasSuffix(" mL (0.00850–0.282)") }, "the table has the water's range")
        #expect(lines.contains { $0.hasPrefix("    claude-sonnet-4-5 ") })
    }

    @Test func aScanWithNothingTodaySaysSo() throws {
        let home = try Home(records: [Self.a], codex: false)
        let output = try home.run(["--tz", "UTC"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix("no usage recorded today, ") == true && lines.last?.hasSuffix(" (UTC)") == true, "\(output.stdout)")
        let json = try home.json(["--tz", "UTC"])
        #expect(json["today"]?["totals"] == Counts().tree)
        #expect(json["today"]?["events"] == .number(0))
        #expect(json["today"]?["byTool"] == .object([:]))
        let badZone = try home.run(["--tz", "Nowhere/Land"])
        #expect(badZone.status == 2)
        #expect(badZone.stderr.contains("--tz: unknown time zone 'Nowhere/Land'"))
    }
}
