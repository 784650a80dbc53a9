import Foundation
import Testing
import UnpromptTestSupport

/// Every view's text and JSON, byte for byte, on one small corpus (`Tests/Golden/corpus`: Claude and Codex
/// logs over five weeks, a limit-reached record, Codex rate limits, an unpriced model, work hours) with the
/// clock, the zone, `NO_COLOR` and the store fixed. A change to any output shows here as a changed file.
///
/// `UNPROMPT_UPDATE_GOLDEN=1 swift test --filter GoldenTests` rewrites the files instead of comparing: then
/// read the diff before committing it.
struct GoldenTests {
    static let directory = Repository.root + "/Tests/Golden"
    static let corpus = directory + "/corpus"
    static let now = "2026-03-10T11:30:00Z"

    struct Case: Sendable {
        let name: String
        let arguments: [String]
        var now = GoldenTests.now
        /// The store it runs on: `main` is scanned by the first case; the others start empty.
        var store = "main"
        var status: Int32 = 0
        /// `COLUMNS`: the width of a terminal (none: not a terminal, every column).
        var columns: Int? = nil
        /// Standard input, when the command reads one.
        var input: String? = nil
    }

    static let settings = ["--config", corpus + "/config.yaml"]

    /// In order: the first plain scan fills the main store, the views then read it.
    static let cases: [Case] = [
        Case(name: "scan.txt", arguments: settings),
        Case(name: "scan.json", arguments: settings + ["--json"], store: "second"),
        Case(name: "rescan.txt", arguments: settings),
        Case(name: "today.txt", arguments: ["today"] + settings),
        Case(name: "today.json", arguments: ["today", "--json"] + settings),
        Case(name: "today-live.txt", arguments: ["today", "--no-scan"] + settings, now: "2026-03-10T11:32:00Z"),
        Case(name: "today-live.json", arguments: ["today", "--no-scan", "--json"] + settings, now: "2026-03-10T11:32:00Z"),
        Case(name: "today-empty.txt", arguments: ["today", "--no-scan"] + settings, now: "2026-03-12T12:00:00Z"),
        Case(name: "today-empty.json", arguments: ["today", "--no-scan", "--json"] + settings, now: "2026-03-12T12:00:00Z"),
        Case(name: "today-no-store.json", arguments: ["today", "--no-scan", "--json"] + settings, store: "absent"),
        Case(name: "daily.txt", arguments: ["daily"] + settings),
        Case(name: "daily.json", arguments: ["daily", "--json"] + settings),
        Case(name: "daily-kolkata.txt", arguments: ["daily", "--tz", "Asia/Kolkata", "--since", "2026-03-01"] + settings),
        Case(name: "daily-kolkata.json", arguments: ["daily", "--tz", "Asia/Kolkata", "--since", "2026-03-01", "--json"] + settings),
        Case(name: "daily-tool.txt", arguments: ["daily", "--tool", "codex"] + settings),
        Case(name: "daily-tool.json", arguments: ["daily", "--tool", "codex", "--json"] + settings),
        Case(name: "daily-tools.txt", arguments: ["daily", "--tool", "claude-code", "--tool", "codex", "--until", "2026-02-28"]),
        Case(
            name: "daily-tools.json",
            arguments: ["daily", "--tool", "claude-code", "--tool", "codex", "--until", "2026-02-28", "--json"]),
        Case(name: "weekly.txt", arguments: ["weekly"] + settings),
        Case(name: "weekly.json", arguments: ["weekly", "--json"] + settings),
        Case(name: "weekly-sunday.txt", arguments: ["weekly", "--start-of-week", "sun", "--tool", "claude-code"] + settings),
        Case(name: "weekly-last.json", arguments: ["weekly", "--last", "2", "--start-of-week", "sun", "--json"] + settings),
        Case(name: "daily-last.txt", arguments: ["daily", "--last", "9"] + settings),
        Case(name: "daily-relative.txt", arguments: ["daily", "--since", "4w", "--until", "yesterday", "--tool", "claude-code"] + settings),
        Case(name: "daily-columns.txt", arguments: ["daily", "--since", "2026-03", "--columns", "uses,cost,total"] + settings, columns: 80),
        Case(name: "daily-wide.txt", arguments: ["daily", "--since", "2026-03", "--wide"] + settings, columns: 80),
        Case(name: "monthly-last.txt", arguments: ["monthly", "--last", "1"] + settings),
        Case(name: "monthly.txt", arguments: ["monthly"] + settings),
        Case(name: "monthly.json", arguments: ["monthly", "--json"] + settings),
        Case(name: "daily.csv", arguments: ["daily", "--csv"] + settings),
        Case(name: "monthly.csv", arguments: ["monthly", "--csv"] + settings),
        Case(name: "calendar.txt", arguments: ["calendar"] + settings),
        Case(name: "calendar.json", arguments: ["calendar", "--json"] + settings),
        Case(name: "calendar-february.txt", arguments: ["calendar", "--month", "2026-02", "--tz", "Asia/Kolkata"] + settings),
        Case(name: "limits.txt", arguments: ["limits"] + settings),
        Case(name: "limits.json", arguments: ["limits", "--json"] + settings),
        Case(name: "limits-later.txt", arguments: ["limits", "--no-scan"] + settings, now: "2026-03-10T15:30:00Z"),
        Case(name: "limits-later.json", arguments: ["limits", "--no-scan", "--json"] + settings, now: "2026-03-10T15:30:00Z"),
        Case(name: "snapshot.json", arguments: ["snapshot"] + settings),
        Case(name: "metrics.prom", arguments: ["metrics", "--no-scan"] + settings),
        Case(name: "snapshot-kolkata.json", arguments: ["snapshot", "--tz", "Asia/Kolkata", "--no-scan"] + settings),
        Case(name: "prices.txt", arguments: ["prices"]),
        Case(name: "prices.json", arguments: ["prices", "--json"]),
        Case(name: "dry-run.txt", arguments: ["--dry-run"]),
        Case(name: "dry-run.json", arguments: ["--dry-run", "--json"]),
        Case(
            name: "dry-run-path.txt",
            arguments: ["--dry-run", "--reader", "codex", corpus + "/codex/sessions/2026/02/20/rollout-2026-02-20T14-00-00-0001.jsonl"]),
        Case(
            name: "dry-run-path.json",
            arguments: [
                "--dry-run", "--reader", "codex", "--json", corpus + "/codex/sessions/2026/02/20/rollout-2026-02-20T14-00-00-0001.jsonl",
            ]),
        Case(name: "readers-list.txt", arguments: ["readers", "list"]),
        Case(name: "readers-list.json", arguments: ["readers", "list", "--json"]),
        Case(name: "config-get.txt", arguments: ["config", "get", "work-hours"] + settings),
        Case(name: "config-get.json", arguments: ["config", "get", "work-hours", "--json"] + settings),
        Case(name: "report.html", arguments: ["report", "--no-scan", "--out", "-"] + settings),
    ] + widths + [
        // Last: it records Claude's readings into the main store.
        Case(name: "statusline.txt", arguments: ["statusline"], input: StatusLineSample.claudeCode)
    ]

    /// Every table view, and the calendar, laid out for terminals 80, 100, 120 and 200 columns wide (`widths/VIEW-WIDTH.txt`).
    static let widths: [Case] = [
        ("daily", ["daily"] + settings), ("weekly", ["weekly"] + settings), ("monthly", ["monthly"] + settings),
        ("today", ["today", "--no-scan"] + settings), ("limits", ["limits", "--no-scan"] + settings),
        ("limits-later", ["limits", "--no-scan"] + settings), ("prices", ["prices"]),
        ("dry-run-path", [
            "--dry-run", "--reader", "codex", corpus + "/codex/sessions/2026/02/20/rollout-2026-02-20T14-00-00-0001.jsonl",
        ]),
        ("readers-list", ["readers", "list"]), ("calendar", ["calendar", "--no-scan"] + settings),
    ].flatMap { view, arguments in
        [80, 100, 120, 200].map { (width: Int) in
            Case(
                name: "widths/\(view)-\(width).txt", arguments: arguments, now: view == "limits-later" ? "2026-03-10T15:30:00Z" : now,
                columns: width)
        }
    }

    /// A scan's own time is the only output that differs between runs.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"unreadable; ([0-9,]+) new events, in [0-9]+ ms"#, with: "unreadable; $1 new events, in 0 ms", options: .regularExpression)
            .replacingOccurrences(of: #""milliseconds":[0-9.e+-]+"#, with: #""milliseconds":0"#, options: .regularExpression)
    }

    @Test func everyViewPrintsWhatItsGoldenFileHolds() throws {
        let update = ProcessInfo.processInfo.environment["UNPROMPT_UPDATE_GOLDEN"] == "1"
        let stores = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-golden-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: stores, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: stores) }
        for golden in Self.cases {
            let store = ReportCommandTests.Home.takesStore(golden.arguments) ? ["--store", stores + "/" + golden.store + ".sqlite"] : []
            let output = try Binary.run(
                store + golden.arguments,
                environment: [
                    "CLAUDE_CONFIG_DIR": Self.corpus + "/claude", "CODEX_HOME": Self.corpus + "/codex", "TZ": "UTC", "NO_COLOR": "1",
                    "UNPROMPT_NOW": golden.now,
                ].merging(golden.columns.map { ["COLUMNS": String($0)] } ?? [:]) { $1 }, input: golden.input)
            #expect(output.status == golden.status, "\(golden.name): \(output.stderr)")
            #expect(output.stderr.isEmpty, "\(golden.name): \(output.stderr)")
            let path = Self.directory + "/" + golden.name
            let actual = Self.normalized(output.stdout)
            if let width = golden.columns, golden.arguments.contains("--wide") == false {
                let wide = actual.split(separator: "\n").filter { $0.count > width }
                #expect(wide.isEmpty, "\(golden.name): lines wider than \(width) columns: \(wide)")
            }
            if update {
                try actual.write(toFile: path, atomically: true, encoding: .utf8)
                continue
            }
            let expected = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no golden file \(golden.name))"
            if actual != expected { Issue.record(Comment(rawValue: Self.difference(golden.name, expected, actual))) }
        }
    }

    /// Where two outputs first differ: the line, and 60 characters either side of the first different one.
    static func difference(_ name: String, _ expected: String, _ actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        let line = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        let e = line < expectedLines.count ? expectedLines[line] : []
        let a = line < actualLines.count ? actualLines[line] : []
        let column = zip(e, a).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(e.count, a.count)
        func excerpt(_ characters: [Character]) -> String {
            String(characters[max(0, column - 60)..<min(characters.count, column + 60)])
        }
        return """
            \(name) differs from its golden file at line \(line + 1), column \(column + 1):
              expected: \(line < expectedLines.count ? excerpt(e) : "(end of file)")
              actual:   \(line < actualLines.count ? excerpt(a) : "(end of file)")
            """
    }
}
