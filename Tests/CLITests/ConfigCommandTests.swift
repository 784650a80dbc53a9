import Foundation
import Testing
import UnpromptTestSupport

/// `config set|get work-hours`: the settings file, its errors, and views refusing a broken one.
struct ConfigCommandTests {
    typealias Home = ReportCommandTests.Home

    @Test func workHoursAreSetAndReadBack() throws {
        let home = try Home(records: [], codex: false)
        let file = home.root + "/settings/config.yaml"
        let set = try home.run(["config", "set", "work-hours", "Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00", "--config", file])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "work hours: Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00\n")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("  - days: \"Mon-Fri\"\n    hours: [\"09:00-12:30\", \"13:30-18:00\"]\n"), "\(text)")
        let get = try home.run(["config", "get", "work-hours", "--config", file])
        #expect(get.stdout == "work hours: Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00\n")
        #expect(try home.json(["config", "get", "work-hours", "--config", file]) == .object([
            "workHours": .string("Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00")
        ]))

        // Unquoted words work too; a night range runs past midnight; `none` clears.
        #expect(try home.run(["config", "set", "work-hours", "Sun-Thu", "22:00-06:00", "--config", file]).stdout == "work hours: Sun-Thu 22:00-06:00\n")
        #expect(try home.run(["config", "set", "work-hours", "none", "--config", file]).stdout == "work hours: none\n")
        #expect(try home.json(["config", "get", "work-hours", "--config", file]) == .object(["workHours": .null]))
        #expect(!FileManager.default.fileExists(atPath: home.store), "config never touches the store")
    }

    #if os(Linux)
        @Test func theDefaultFileIsInTheXDGConfigDirectory() throws {
            let home = try Home(records: [], codex: false)
            let environment = ["XDG_CONFIG_HOME": home.root + "/xdg"]
            #expect(try home.run(["config", "set", "work-hours", "Mon 09:00-10:00"], environment: environment).status == 0)
            #expect(FileManager.default.fileExists(atPath: home.root + "/xdg/unprompt/config.yaml"))
            #expect(try home.json(["today", "--no-scan"], environment: environment)["workHours"] == .string("Mon 09:00-10:00"))
        }
    #endif

    @Test func aMistakeInTheSpecIsRefusedWithItsColumnAndWritesNothing() throws {
        let home = try Home(records: [], codex: false)
        let file = home.root + "/config.yaml"
        let cases: [([String], String)] = [
            (["set", "work-hours", "Mon-Fry 09:00-18:00"], "config set work-hours: column 5 of 'Mon-Fry 09:00-18:00': unknown day 'Fry'"),
            (["set", "work-hours", "Mon 09:10-18:00"], "column 8 of 'Mon 09:10-18:00': '09:10' is not on a quarter-hour"),
            (["set", "work-hours"], "config set work-hours needs a value (or none)"),
            (["set", "colour", "blue"], "config: unknown setting 'colour'; settings: work-hours, sync-dir, device-label, share-name"),
            (["get"], "config get needs a setting: work-hours, sync-dir, device-label, share-name"),
            (["unset", "work-hours"], "config takes 'get SETTING' or 'set SETTING VALUE'"),
            (["set", "share-name", "a/b"], "config set share-name: the name holds '/'"),
            (["set", "device-label", String(repeating: "x", count: 30)], "config set device-label: the name is longer than 24 characters"),
        ]
        for (arguments, message) in cases {
            let output = try home.run(["config"] + arguments + ["--config", file])
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: file), "\(arguments) wrote the file")
        }
    }

    /// A settings file that does not parse is reported at file:line:col, never overwritten, and stops every
    /// view before it scans.
    @Test func aBrokenSettingsFileIsReportedAndLeftAsItIs() throws {
        let home = try Home(records: [], codex: false)
        let file = home.root + "/config.yaml"
        let broken = "work_hours:\n  - days: Mon\n    hours: 9-5\n"
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        let expected = "\(file):3:12: work_hours[0].hours: expected a time HH:MM, found '9'"
        for arguments in [["config", "get", "work-hours"], ["config", "set", "work-hours", "none"], ["today"], ["calendar"], ["snapshot"], []] {
            let output = try home.run(arguments + ["--config", file])
            #expect(output.status == 6, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains(expected), "\(arguments): \(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == broken)
        #expect(!FileManager.default.fileExists(atPath: home.store), "nothing was scanned")
    }
}
