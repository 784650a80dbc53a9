import Foundation
import Testing
import UnpromptTestSupport

/// `confirm` as a person runs it without a terminal (`--yes`, `--context`, `--undo`), and what the other views
/// then show: the answers, the marks, the streak, the proposal waiting; and the counts, which never move.
struct ConfirmCommandTests {
    typealias Record = ReportCommandTests.Record
    typealias Home = ReportCommandTests.Home

    /// A week, Monday 2026-03-02 to Sunday 03-08 (UTC), each Claude record of unit u being 15u tokens:
    /// Monday 10:00 (15, in work hours) and 20:00 (30); Tuesday 09:30 (60, in them); Wednesday 23:30 (120);
    /// Friday 14:00 (240, in them); Sunday 11:00 (480). Thursday and Saturday hold nothing.
    static let week = [
        Record.claude("W1", "2026-03-02T10:00:00.000Z", "claude-sonnet-4-5", 1),
        Record.claude("W2", "2026-03-02T20:00:00.000Z", "claude-sonnet-4-5", 2),
        Record.claude("W3", "2026-03-03T09:30:00.000Z", "claude-sonnet-4-5", 4),
        Record.claude("W4", "2026-03-04T23:30:00.000Z", "claude-sonnet-4-5", 8),
        Record.claude("W5", "2026-03-06T14:00:00.000Z", "claude-sonnet-4-5", 16),
        Record.claude("W6", "2026-03-08T11:00:00.000Z", "claude-sonnet-4-5", 32),
    ]

    /// The week's home, with work hours Mon-Fri 09:00-18:00, scanned once.
    func home() throws -> Home {
        let home = try Home(records: Self.week, codex: false)
        let set = try home.run(["config", "set", "work-hours", "Mon-Fri 09:00-18:00", "--config", config(home)])
        #expect(set.status == 0, "\(set.stderr)")
        _ = try home.run(["today", "--config", config(home)], environment: clock("2026-03-08T19:00:00Z"))
        return home
    }

    func config(_ home: Home) -> String { home.root + "/config.yaml" }

    /// Sunday 2026-03-08 at `time` UTC (19:00 is after the 18:00 a Sunday's proposal waits for).
    func clock(_ instant: String = "2026-03-08T19:00:00Z") -> [String: String] { ["UNPROMPT_NOW": instant] }

    func run(_ home: Home, _ arguments: [String], at instant: String = "2026-03-08T19:00:00Z") throws -> Binary.Output {
        try home.run(arguments + ["--tz", "UTC", "--config", config(home)], environment: clock(instant))
    }

    func json(_ home: Home, _ arguments: [String], at instant: String = "2026-03-08T19:00:00Z", sourceLocation: SourceLocation = #_sourceLocation)
        throws -> JSONTree
    {
        try home.json(arguments + ["--tz", "UTC", "--config", config(home)], environment: clock(instant), sourceLocation: sourceLocation)
    }

    func number(_ tree: JSONTree?) -> Int64? {
        if case .number(let value)? = tree { return Int64(value) }
        return nil
    }

    func items(_ tree: JSONTree?) -> [JSONTree] {
        if case .array(let items)? = tree { return items }
        return []
    }

    @Test func withoutATerminalAnAnswerIsRequiredAndNothingIsKeptOtherwise() throws {
        let home = try home()
        for (arguments, message) in [
            (["confirm"], "needs an answer when it is not on a terminal: --yes, or --context KIND"),
            (["confirm", "--json"], "confirm --json prints an answer's result"),
            (["confirm", "--yes", "--context", "no-work"], "give one of them"),
            (["confirm", "--context", "busy"], "unknown context 'busy'"),
            (["confirm", "--context", "worked 9-17"], "worked HH:MM-HH:MM"),
            (["confirm", "--context", "5"], "unknown context '5'"),
            (["confirm", "2026-03-09", "--yes"], "2026-03-09 is after today (2026-03-08 in UTC)"),
            (["confirm", "2026-02-30", "--yes"], "expected today, yesterday or a date YYYY-MM-DD, got '2026-02-30'"),
            (["confirm", "--undo"], "--undo needs the DATE"),
            (["confirm", "--undo", "today", "--yes"], "takes no --yes or --context"),
            (["confirm", "today", "yesterday", "--yes"], "takes one DATE"),
        ] {
            let output = try run(home, arguments)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(output.stdout.isEmpty, "\(arguments)")
        }
        let today = try json(home, ["today", "--no-scan"])
        #expect(today["streak"] == .number(0) && today["confirmed"] == .number(0))
        #expect(today["proposal"] == .string("2026-03-08"))
    }

    /// The week confirmed day by day, latest first, each kind of context once, then what every view shows.
    @Test func aWeekConfirmedDayByDayWithEveryKindOfContext() throws {
        let home = try home()
        let before = try json(home, ["daily", "--no-scan"])

        let steps: [(arguments: [String], date: String, context: [String], streak: Int64, work: Int64, personal: Int64)] = [
            (["--yes"], "2026-03-08", [], 1, 0, 480),
            (["--context", "elsewhere"], "2026-03-07", ["elsewhere"], 2, 0, 0),
            (["--context", "no-work"], "2026-03-06", ["no-work"], 3, 0, 240),
            (["--yes"], "2026-03-05", [], 4, 0, 0),
            (["--context", "worked 23:00-01:00"], "2026-03-04", ["worked"], 5, 120, 0),
            (["--context", "hours-changed Mon-Fri 10:00-19:00"], "2026-03-03", ["hours-changed"], 6, 0, 60),
            (["--yes"], "2026-03-02", [], 7, 15, 30),
        ]
        for (index, step) in steps.enumerated() {
            // A minute apart, as a person answers.
            let at = "2026-03-08T19:0\(index):00Z"
            let result = try json(home, ["confirm"] + step.arguments, at: at)
            #expect(result["date"] == .string(step.date), "\(step)")
            #expect(result["confirmed"] == .number(1))
            #expect(result["context"] == .array(step.context.map { .string($0) }), "\(step)")
            #expect(result["streak"] == .number(Double(step.streak)), "\(step)")
            #expect(number(result["work"]?["tokens"]) == step.work && number(result["personal"]?["tokens"]) == step.personal, "\(step): \(result)")
            #expect(result["since"] == .object(["uses": .number(0), "tokens": .number(0)]))
            #expect(result["confirmedAt"] == .string("2026-03-08T19:0\(index):00.000Z"))
        }
        let nothing = try run(home, ["confirm", "--yes"], at: "2026-03-08T19:10:00Z")
        #expect(nothing.status == 0)
        #expect(nothing.stdout.hasPrefix("nothing waiting: today and the days before it are confirmed\n"), "\(nothing.stdout)")
        let morning = try run(home, ["confirm", "--undo", "today"], at: "2026-03-08T19:10:00Z")
        #expect(morning.status == 0)
        let before18 = try run(home, ["confirm", "--yes"], at: "2026-03-08T17:00:00Z")
        #expect(before18.stdout.hasPrefix("nothing waiting: the days before today are confirmed, and today's proposal comes at 18:00"), "\(before18.stdout)")
        _ = try json(home, ["confirm", "today", "--yes"], at: "2026-03-08T19:00:00Z")
        #expect(nothing.stdout.contains("7 days confirmed in a row"))
        #expect(try json(home, ["confirm", "--yes"], at: "2026-03-08T19:10:00Z") == .object(["date": .null, "streak": .number(7)]))

        // The counts never moved: every day's totals and events, and the total, are as before any answer.
        let after = try json(home, ["daily", "--no-scan"], at: "2026-03-08T19:10:00Z")
        let counts = { (tree: JSONTree) in self.items(tree["daily"]).map { [$0["date"], $0["totals"], $0["events"], $0["uses"], $0["cost"]] } }
        #expect(counts(after) == counts(before))
        let daily = items(after["daily"])
        #expect(daily.map { $0["confirmed"] } == Array(repeating: .number(1), count: 5))
        #expect(daily.map { $0["context"] } == [[], ["hours-changed"], ["worked"], ["no-work"], []].map { JSONTree.array($0.map { .string($0) }) })
        // The change of hours from Tuesday: Tuesday's 09:30 is personal now, Monday keeps the old hours.
        #expect(daily.map { number($0["work"]?["tokens"]) } == [15, 0, 120, 0, 0])

        let today = try run(home, ["today", "--no-scan"], at: "2026-03-08T19:10:00Z")
        #expect(today.stdout.hasSuffix("\n  today: confirmed · 7 days confirmed in a row\n"), "\(today.stdout)")
        #expect(!today.stdout.contains("waiting"), "not on a terminal")
        let todayJSON = try json(home, ["today", "--no-scan"], at: "2026-03-08T19:10:00Z")
        #expect(todayJSON["streak"] == .number(7) && todayJSON["confirmed"] == .number(1) && todayJSON["proposal"] == .null)
        #expect(todayJSON["workHours"] == .string("Mon-Fri 10:00-19:00"), "the hours in force today")

        let calendar = try run(home, ["calendar", "--no-scan", "--month", "2026-03"], at: "2026-03-08T19:10:00Z")
        let grid = calendar.stdout.split(separator: "\n").map(String.init)
        #expect(grid.contains("     2 c      3 h      4 w      5 c      6 n      7 e      8 c"), "\(calendar.stdout)")
        #expect(grid.contains("marks: c confirmed · n no-work · w worked · h hours changed · e also used elsewhere (incomplete) · + more"))
        for word in ["goal", "target", "good", "great", "well done", "warning"] { #expect(!calendar.stdout.lowercased().contains(word)) }
        let calendarJSON = try json(home, ["calendar", "--no-scan", "--month", "2026-03"], at: "2026-03-08T19:10:00Z")
        #expect(items(calendarJSON["days"]).map { $0["confirmed"] } == [.number(0)] + Array(repeating: .number(1), count: 7))
        #expect(items(calendarJSON["days"])[6]["context"] == .array([.string("elsewhere")]), "Saturday the 7th")

        let snapshot = try run(home, ["snapshot", "--no-scan"], at: "2026-03-08T19:10:00Z")
        #expect(try SnapshotTests().check(snapshot.stdout).status == 0)
        let document = try JSONTree(parsing: snapshot.stdout)
        #expect(document["streak"] == .number(7) && document["proposal"] == .null)
        let days = items(document["days"])
        #expect(days.suffix(7).allSatisfy { $0["confirmed"] == .number(1) } && days.dropLast(7).allSatisfy { $0["confirmed"] == .number(0) })
        #expect(days.last?["context"] == .array([]) && days[days.count - 2]["context"] == .array([.string("elsewhere")]))
    }

    @Test func aLaterAnswerReplacesTheEarlierOneAndUndoRemovesIt() throws {
        let home = try home()
        let first = try json(home, ["confirm", "2026-03-06", "--context", "no-work", "--context", "elsewhere"])
        #expect(first["context"] == .array([.string("no-work"), .string("elsewhere")]) && first["incomplete"] == .number(1))
        let second = try json(home, ["confirm", "2026-03-06", "--yes"], at: "2026-03-08T19:05:00Z")
        #expect(second["context"] == .array([]) && second["incomplete"] == .number(0))
        #expect(number(second["work"]?["tokens"]) == 240)
        #expect(second["confirmedAt"] == .string("2026-03-08T19:05:00.000Z"))
        let text = try run(home, ["confirm", "--undo", "2026-03-06"])
        #expect(text.stdout == "Friday 6 March: its answer is removed\nno days confirmed in a row\n", "\(text.stdout)")
        let again = try run(home, ["confirm", "--undo", "2026-03-06"])
        #expect(again.status == 0 && again.stdout.hasPrefix("Friday 6 March was not confirmed: nothing to remove"))
        let undone = try json(home, ["confirm", "--undo", "yesterday"])
        #expect(undone["confirmed"] == .number(0) && undone["date"] == .string("2026-03-07") && undone["streak"] == .number(0))
    }

    @Test func theAnswersSentenceSaysTheSplitTokensAndCost() throws {
        let home = try home()
        let monday = try run(home, ["confirm", "2026-03-02", "--yes"])
        // 45 Sonnet 4.5 tokens, 3 units at $78.90 a million units (see ReportCommandTests): $0.0002367.
        #expect(monday.stdout.hasPrefix("confirmed Monday 2 March: 1 use personal, 1 at work; 45 tokens, $0.0002 at API rates\n"), "\(monday.stdout)")
        let saturday = try run(home, ["confirm", "yesterday", "--context", "elsewhere"])
        #expect(
            saturday.stdout
                == "confirmed Saturday 7 March with elsewhere: no use that day\nmarked incomplete: AI also used somewhere nothing here can see\n1 day confirmed in a row\n",
            "\(saturday.stdout)")
        let sunday = try run(home, ["confirm", "today", "--yes"])
        #expect(sunday.stdout.hasSuffix("2 days confirmed in a row\n"))
    }

    /// Sunday confirmed at 19:00; a record at 19:30 arrives (a new use: 11:00 is 8 hours before): Sunday stays
    /// confirmed, and says what came since.
    @Test func aConfirmedDayThatGetsMoreLogsSaysWhatCameSince() throws {
        let home = try home()
        _ = try json(home, ["confirm", "--yes"])
        let project = home.root + "/claude/projects/-home-dev-project"
        try Record.claude("W7", "2026-03-08T19:30:00.000Z", "claude-sonnet-4-5", 100).claudeLines
            .write(toFile: project + "/later.jsonl", atomically: true, encoding: .utf8)
        let today = try run(home, ["today"], at: "2026-03-08T20:00:00Z")
        #expect(today.stdout.hasSuffix("\n  today: confirmed; 1 use and 1.5k tokens since · 1 day confirmed in a row\n"), "\(today.stdout)")
        let daily = try json(home, ["daily", "--no-scan", "--since", "2026-03-08"], at: "2026-03-08T20:00:00Z")
        #expect(items(daily["daily"]).first?["confirmed"] == .number(1))
        #expect(number(items(daily["daily"]).first?["uses"]) == 2)
        // Confirming again takes the new numbers: nothing since.
        let again = try json(home, ["confirm", "today", "--yes"], at: "2026-03-08T20:01:00Z")
        #expect(again["since"] == .object(["uses": .number(0), "tokens": .number(0)]) && number(again["tokens"]) == 1_980)
    }

    /// Answered in UTC, seen in Kolkata: the dates keep their answers, and the sums are the same in both zones.
    @Test func aChangeOfTimeZoneKeepsTheAnswers() throws {
        let home = try home()
        _ = try json(home, ["confirm", "2026-03-04", "--context", "worked 23:00-01:00"])
        let kolkata = try home.json(
            ["calendar", "--no-scan", "--month", "2026-03", "--tz", "Asia/Kolkata", "--config", config(home)], environment: clock())
        let days = items(kolkata["days"])
        // 19:00Z is already 00:30 on the 9th in Kolkata.
        #expect(days.map { $0["confirmed"] == .number(1) } == [false, false, false, true, false, false, false, false, false])
        // Wednesday 23:30Z is Thursday 05:00 in Kolkata: the Wednesday there holds none of it.
        #expect(number(days[3]["tokens"]) == 0 && number(days[4]["tokens"]) == 120)
        let utc = try json(home, ["calendar", "--no-scan", "--month", "2026-03"])
        let total = { (tree: JSONTree) in self.items(tree["days"]).compactMap { self.number($0["tokens"]) }.reduce(0, +) }
        #expect(total(kolkata) == total(utc) && total(utc) == 945)
    }

    /// On a terminal `today` and the plain scan end with the proposal waiting; never in JSON, never in a pipe.
    @Test func aWaitingProposalEndsTodayOnlyOnATerminal() throws {
        let home = try home()
        let arguments = ["today", "--no-scan", "--tz", "UTC", "--config", config(home)]
        let terminal = try home.onATerminal(arguments, environment: clock())
        #expect(terminal.hasSuffix("\nSunday 8 March is waiting to be confirmed: unprompt-scan confirm\n"), "\(terminal)")
        let scan = try home.onATerminal(["--tz", "UTC", "--config", config(home)], environment: clock())
        #expect(scan.hasSuffix("\nSunday 8 March is waiting to be confirmed: unprompt-scan confirm\n"), "\(scan)")
        let json = try home.onATerminal(arguments + ["--json"], environment: clock())
        #expect(!json.contains("waiting") && (try? JSONTree(parsing: json)) != nil)
        #expect(!(try run(home, ["today", "--no-scan"])).stdout.contains("waiting"))
        // Before 18:00 the latest day not confirmed waits: Saturday.
        let morning = try home.onATerminal(arguments, environment: clock("2026-03-08T09:00:00Z"))
        #expect(morning.hasSuffix("\nSaturday 7 March is waiting to be confirmed: unprompt-scan confirm\n"), "\(morning)")
    }
}
