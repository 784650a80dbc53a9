import Foundation
import Testing
import UnpromptTestSupport

@testable import unprompt_scan

/// Each command takes its own options (`Command.all`): anything else is refused with exit status 2 and a
/// one-line hint, before any work is done.
struct CommandOptionsTests {
    let directory: String
    var store: String { directory + "/usage.sqlite" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-options-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func refused(_ arguments: [String], _ message: String, hint: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try Binary.run(arguments, environment: ["HOME": directory])
        #expect(output.status == 2, "\(arguments): \(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr == "unprompt-scan: \(message)\n\(hint)\n", "\(arguments)", sourceLocation: sourceLocation)
        #expect(output.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func anOptionTheCommandDoesNotTakeIsRefused() throws {
        try refused(["prices", "--month", "2025-01"], "prices does not take --month", hint: "`unprompt-scan prices --help` lists what prices takes")
        try refused(
            ["readers", "list", "--since", "2025-01-01"], "readers list does not take --since",
            hint: "`unprompt-scan readers list --help` lists what readers list takes")
        try refused(["--dry-run", "--month", "x"], "--dry-run does not take --month", hint: "`unprompt-scan --dry-run --help` lists what --dry-run takes")
        try refused(["watch", "--tz", "UTC", "--store", store], "watch does not take --tz", hint: "`unprompt-scan watch --help` lists what watch takes")
        try refused(["--frobnicate"], "unknown option --frobnicate", hint: "`unprompt-scan --help` lists what unprompt-scan takes")
        #expect(!FileManager.default.fileExists(atPath: store), "refused before the store was opened")
    }

    @Test func anEmptyValueIsRefusedForEveryOption() throws {
        for option in Option.all where option.value != nil {
            for spelling in [[option.name, ""], [option.name + "="]] {
                #expect(throws: UsageError.self, "\(spelling)") { try Arguments(spelling) }
            }
            #expect(throws: UsageError.self, "\(option.name) at the end") { try Arguments([option.name]) }
        }
        try refused(["--store", ""], "--store needs a value, and was given an empty one", hint: "`unprompt-scan --help` lists the commands and their options")
        try refused(["daily", "--tool="], "--tool needs a value, and was given an empty one", hint: "`unprompt-scan --help` lists the commands and their options")
    }

    @Test func theDryRunTakesNoOtherCommand() throws {
        try refused(
            ["daily", "--dry-run"], "--dry-run is a command of its own: `unprompt-scan --dry-run [PATH...]`, or `unprompt-scan daily` without it",
            hint: "`unprompt-scan --help` lists the commands and their options")
    }

    @Test func argumentsArePhrasedOneWay() throws {
        try refused(["today", "extra"], "today takes no argument 'extra'", hint: "`unprompt-scan today --help` lists what today takes")
        try refused(["watch", "now"], "watch takes no argument 'now'", hint: "`unprompt-scan watch --help` lists what watch takes")
        try refused(
            ["config", "get", "work-hours", "again"], "config get work-hours takes no argument 'again'",
            hint: "`unprompt-scan config get --help` lists what config get takes")
        try refused(["readers", "validate"], "readers validate needs FILE...", hint: "`unprompt-scan readers validate --help` lists what readers validate takes")
        try refused(["readers", "show"], "readers takes 'list' or 'validate FILE...' or 'test [ID...]'", hint: "`unprompt-scan --help` lists the commands and their options")
        try refused(["fortnightly"], "unknown command 'fortnightly'", hint: "`unprompt-scan --help` lists the commands and their options")
    }

    @Test func everyCommandShowsItsOwnHelp() throws {
        // The plain scan's help is the whole usage, which begins with it.
        for command in Command.all where !command.words.isEmpty || command.flag != nil {
            let arguments = (command.flag.map { [$0.name] } ?? command.words) + ["--help"]
            let output = try Binary.run(arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(output.stdout == Help.help(command) + "\n", "\(arguments)")
            #expect(output.stdout.hasPrefix("usage: " + command.synopsisParts[0]), "\(arguments)")
            for option in command.listedOptions { #expect(output.stdout.contains(option.synopsis), "\(arguments)") }
        }
        let usage = try Binary.run(["-h"])
        #expect(usage.status == 0 && usage.stdout == Help.usage + "\n")
        #expect(usage.stdout.hasPrefix("usage: unprompt-scan [--tz ZONE]"))
    }

    @Test func toolIsTheOneNameOfAToolIdAndReaderItsAlias() throws {
        let file = Repository.fixtures + "/codex/plain-two-turns"
        let byTool = try Binary.run(["--dry-run", "--tool", "codex", "--root", file, "--json"])
        let byReader = try Binary.run(["--dry-run", "--reader", "codex", "--root", file, "--json"])
        #expect(byTool.status == 0 && byTool.stdout.contains(#""id":"codex""#), "\(byTool.stderr)")
        #expect(byTool.stdout == byReader.stdout)
        try refused(
            ["daily", "--reader", "no-such-tool", "--store", store], "--tool: no reader named 'no-such-tool'; `unprompt-scan readers list` shows them",
            hint: "`unprompt-scan daily --help` lists what daily takes")
        try refused(
            ["--dry-run", "--tool", "no-such-tool"], "--tool: no reader named 'no-such-tool'; `unprompt-scan readers list` shows them",
            hint: "`unprompt-scan --dry-run --help` lists what --dry-run takes")
    }

    @Test func aSingleValuedOptionGivenTwiceIsRefusedAndARepeatableOneIsNot() throws {
        #expect(throws: Never.self) { try Arguments(["--tool", "a", "--reader", "b"]) }
        #expect(try Arguments(["--tool", "a", "--reader", "b"]).all("--tool") == ["a", "b"])
        try refused(
            ["calendar", "--month", "2026-01", "--month=2026-02"], "--month is given more than once",
            hint: "`unprompt-scan calendar --help` lists what calendar takes")
    }
}
