import Foundation
import Testing
import UnpromptTestSupport

/// `share` and `friends`, on two machines: a code made on one, added on the other, ranks that friend with
/// exactly the tokens the sharer saw; what a code and a card hold is what the person chose.
struct FriendsCommandTests {
    typealias Home = ReportCommandTests.Home
    typealias Record = ReportCommandTests.Record

    /// Ada: 2026-03-10 with 15,000 tokens (unit 1,000), and 30,000 on 2026-02-20. Bo: 1,500 on 2026-03-10 and
    /// 1,500 on 2026-02-25.
    func homes() throws -> (ada: Home, bo: Home) {
        let ada = try Home(
            records: [
                Record.claude("A1", "2026-03-10T09:00:00.000Z", "claude-sonnet-4-5", 1000),
                Record.claude("A2", "2026-02-20T09:00:00.000Z", "claude-sonnet-4-5", 2000),
            ], codex: false)
        let bo = try Home(
            records: [
                Record.claude("B1", "2026-03-10T08:00:00.000Z", "claude-haiku-4-5", 100),
                Record.claude("B0", "2026-02-25T08:00:00.000Z", "claude-haiku-4-5", 100),
            ], codex: false)
        for (home, name) in [(ada, "Ada"), (bo, "Bo")] {
            #expect(try home.run(["config", "set", "share-name", name, "--config", home.root + "/config.yaml"]).status == 0)
        }
        return (ada, bo)
    }

    let clock = ["UNPROMPT_NOW": "2026-03-10T12:00:00Z"]

    func share(_ home: Home, _ extra: [String] = []) throws -> JSONTree {
        try home.json(["share", "--tz", "UTC", "--config", home.root + "/config.yaml"] + extra, environment: clock)
    }

    func friends(_ home: Home, _ extra: [String] = []) throws -> JSONTree {
        try home.json(["friends", "--no-scan", "--tz", "UTC", "--config", home.root + "/config.yaml"] + extra, environment: clock)
    }

    @Test func aCodeMadeOnOneMachineRanksThatFriendWithTheTokensTheSharerSaw() throws {
        let (ada, bo) = try homes()
        let shared = try share(ada)
        // Exactly what Ada chose: her name, the day, its tokens, her friend id.
        guard case .object(let holds)? = shared["holds"], case .string(let code)? = shared["code"] else {
            Issue.record("no code: \(shared)")
            return
        }
        #expect(Set(holds.keys) == ["name", "period", "date", "tokens", "friend"])
        #expect(holds["name"] == .string("Ada") && holds["date"] == .string("2026-03-10") && holds["tokens"] == .number(15_000))
        let today = try ada.json(["today", "--no-scan", "--tz", "UTC"], environment: clock)
        #expect(today["tokens"] == holds["tokens"], "the code holds what today shows")

        let added = try bo.run(["friends", "add", code])
        #expect(added.status == 0 && added.stdout.contains("added Ada: the day 2026-03-10, 15,000 tokens"), "\(added.stdout)\(added.stderr)")
        _ = try bo.run([], environment: clock)
        let ranking = try friends(bo)
        #expect(
            ranking == .object([
                "friends": .array([
                    .object(["name": .string("Ada"), "period": .string("day"), "date": .string("2026-03-10"), "tokens": .number(15_000), "you": .number(0)]),
                    .object(["name": .string("Bo"), "period": .string("day"), "date": .string("2026-03-10"), "tokens": .number(1_500), "you": .number(1)]),
                ])
            ]), "\(ranking)")
        let text = try bo.run(["friends", "--no-scan", "--tz", "UTC", "--config", bo.root + "/config.yaml"], environment: clock)
        #expect(text.stdout.contains("1  Ada") && text.stdout.contains("2  Bo (you)"), "\(text.stdout)")

        // A later code from Ada replaces the earlier one; the same code again changes nothing; her own code is refused.
        let later = try ada.json(["share", "--no-scan", "--tz", "UTC", "--config", ada.root + "/config.yaml"], environment: ["UNPROMPT_NOW": "2026-03-11T12:00:00Z"])
        guard case .string(let laterCode)? = later["code"] else { return }
        #expect(try bo.run(["friends", "add", laterCode]).stdout.contains("updated Ada: the day 2026-03-11, 0 tokens"))
        #expect(try bo.run(["friends", "add", code]).stdout.contains("kept the share you have of Ada"))
        let own = try ada.run(["friends", "add", code])
        #expect(own.status == 2 && own.stderr.contains("your own share code"))

        // By trend: Ada's code holds tokens only, so she is listed after the ranked, unranked. Bo's trend: 1,500
        // today against 1,500 over the 13 days from 02-25 to 03-09, 1,300 %.
        let byTrend = try friends(bo, ["--by", "trend"])
        guard case .array(let entries)? = byTrend["friends"] else { return }
        #expect(entries.map { $0["name"] } == [.string("Bo"), .string("Ada")])
        #expect(entries.map { $0["trend"] ?? $0["tokens"] } == [.number(1_300), .number(0)], "\(byTrend)")

        #expect(try bo.run(["friends", "remove", "Ada"]).status == 0)
        guard case .array(let left)? = try friends(bo)["friends"] else { return }
        #expect(left.count == 1)
    }

    @Test func aTrendCodeHoldsOnlyTheTrend() throws {
        let (ada, _) = try homes()
        let shared = try share(ada, ["--what", "trend", "--period", "month"])
        guard case .object(let holds)? = shared["holds"] else { return }
        #expect(Set(holds.keys) == ["name", "period", "date", "trend", "friend"])
        // March so far (10 days): 15,000 tokens, 1,500 a day; the 30 days before March 1 hold 30,000 from 02-20
        // (history starts then: 9 days, 3,333.3 a day): 1,500 / 3,333.3 = 45 %.
        #expect(holds["period"] == .string("month") && holds["date"] == .string("2026-03") && holds["trend"] == .number(45))
    }

    @Test func aBadCodeIsRefusedAndNothingIsAdded() throws {
        let (ada, bo) = try homes()
        guard case .string(let code)? = try share(ada)["code"] else { return }
        var mistyped = Array(code)
        mistyped[5] = mistyped[5] == "A" ? "B" : "A"
        for (text, message) in [
            (String(mistyped), "mistyped or incomplete"), (String(code.dropLast(6)), "mistyped or incomplete"),
            ("hello", "not a share code"),
        ] {
            let output = try bo.run(["friends", "add", text])
            #expect(output.status == 2 && output.stderr.contains(message) && output.stderr.contains("nothing was added"), "\(output.stderr)")
        }
        guard case .array(let entries)? = try friends(bo)["friends"] else { return }
        #expect(entries.count == 1, "only Bo")
    }

    @Test func friendsReadEachOnesLatestShareFileFromASharedFolder() throws {
        let (ada, bo) = try homes()
        let folder = ada.root + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for home in [ada, bo] {
            let output = try home.run(["share", "--dir", folder, "--tz", "UTC", "--config", home.root + "/config.yaml"], environment: clock)
            #expect(output.status == 0, "\(output.stderr)")
        }
        try Data("UP-NOTA-CODE\n".utf8).write(to: URL(fileURLWithPath: folder + "/unprompt-share-0011223344556677 (conflicted copy).txt"))
        let output = try bo.run(["friends", "--dir", folder, "--json", "--no-scan", "--tz", "UTC", "--config", bo.root + "/config.yaml"], environment: clock)
        #expect(output.status == 1 && output.stderr.contains("the share file of friend 0011223344556677 was not added"), "\(output.stderr)")
        let ranking = try JSONTree(parsing: output.stdout)
        guard case .array(let entries)? = ranking["friends"] else { return }
        #expect(entries.map { $0["name"] } == [.string("Ada"), .string("Bo")])
        #expect(entries.map { $0["tokens"] } == [.number(15_000), .number(1_500)])
    }

    /// The fixtures' canaries (in prompts, paths and tool output) reach neither a code nor a card.
    @Test func noCanaryReachesACodeOrACard() throws {
        let home = try Home(records: [], codex: false)
        let project = home.root + "/claude/projects/-home-dev-CANARY-project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try Record.claude("CANARY1", "2026-03-10T09:00:00.000Z", "claude-sonnet-4-5", 3).claudeLines
            .replacingOccurrences(of: "\"text\":\"done\"", with: "\"text\":\"CANARY secret\"")
            .write(toFile: project + "/CANARY.jsonl", atomically: true, encoding: .utf8)
        #expect(try home.run(["config", "set", "share-name", "Ada", "--config", home.root + "/config.yaml"]).status == 0)
        let card = home.root + "/card.svg"
        for arguments in [["--json"], ["--svg", card], ["--what", "trend", "--json"]] {
            let output = try home.run(["share", "--tz", "UTC", "--config", home.root + "/config.yaml"] + arguments, environment: clock)
            #expect(!(output.stdout + output.stderr).contains(PrivacyCanaryTests.marker), "\(arguments)")
        }
        let svg = try String(contentsOfFile: card, encoding: .utf8)
        #expect(svg.hasPrefix("<svg ") && svg.contains("Ada") && svg.contains("45 tokens") && !svg.contains(PrivacyCanaryTests.marker))
        #expect(!svg.contains("href") && !svg.contains("<image"), "self-contained")
    }
}
