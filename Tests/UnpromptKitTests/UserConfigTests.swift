import Foundation
import XCTest

@testable import UnpromptKit

final class UserConfigTests: XCTestCase {
    func hours(_ text: String) throws -> WorkHours { try WorkHours.parse(text).get() }

    func load(_ text: String) throws -> UserConfig { try UserConfig.parse(text, file: "config.yaml") }

    func error(_ text: String) -> String {
        do {
            _ = try load(text)
            return "parsed"
        } catch {
            return "\(error)"
        }
    }

    func testWorkHoursAreReadFromTheFile() throws {
        let config = try load(
            """
            # settings
            work_hours:
              - days: Mon-Fri
                hours: ["09:00-12:30", "13:30-18:00"]
              - days: Sun-Thu
                hours: 22:00-02:00
            """)
        XCTAssertEqual(config.workHours, try hours("Mon-Fri 09:00-12:30 13:30-18:00; Sun-Thu 22:00-02:00"))
        XCTAssertEqual(try load("work_hours: []"), UserConfig())
        XCTAssertEqual(try load("# only a comment\n\n"), UserConfig())
        XCTAssertEqual(try load(""), UserConfig())
    }

    func testTheWrittenFileReadsBackAsTheSameSettings() throws {
        for text in ["Mon-Fri 09:00-18:00", "Mon, Wed 08:00-12:00 13:00-17:45; Sat-Mon 22:00-06:00", "none"] {
            let config = UserConfig(workHours: try hours(text))
            XCTAssertEqual(try load(config.yaml), config, config.yaml)
        }
    }

    func testMistakesNameTheFileLineAndColumn() {
        XCTAssertEqual(
            error("work_hour:\n  - days: Mon\n"),
            "config.yaml:1:1: unknown key 'work_hour' in the settings file; expected one of: work_hours, sync_dir, device_label, share_name (did you mean 'work_hours': the hours counted as work?)")
        XCTAssertEqual(
            error("work_hours:\n  - days: Mon-Fry\n    hours: 09:00-18:00\n"),
            "config.yaml:2:15: work_hours[0].days: unknown day 'Fry'; expected Mon, Tue, Wed, Thu, Fri, Sat or Sun")
        XCTAssertEqual(
            error("work_hours:\n  - days: Mon\n    hours: [09:00-18:20]\n"),
            "config.yaml:3:22: work_hours[0].hours: '18:20' is not on a quarter-hour: usage is kept in quarter-hours, so give :00, :15, :30 or :45")
        // Inside a quoted string without escapes, the place is exact too.
        XCTAssertEqual(
            error("work_hours:\n  - days: Mon\n    hours: \"9-5\"\n"),
            "config.yaml:3:13: work_hours[0].hours: expected a time HH:MM, found '9'")
        XCTAssertEqual(
            error("work_hours:\n  - days: Mon\n"),
            "config.yaml:2:5: work_hours[0] is missing the required key 'hours' (hours: the work hours of those days)")
        XCTAssertEqual(
            error("work_hours:\n  - days: Mon\n    hours: 09:00-10:00\n    note: x\n"),
            "config.yaml:4:5: unknown key 'note' in work_hours[0]; expected one of: days, hours")
        XCTAssertEqual(error("work_hours: Mon-Fri 09:00-18:00\n"), "config.yaml:1:13: work_hours must be a list (work_hours: the hours counted as work)")
        XCTAssertTrue(error("work_hours: [\n").hasPrefix("config.yaml:2:1: YAML syntax error"), error("work_hours: [\n"))
    }

    func testAMissingFileHoldsNoSettingsAndWritingCreatesItsDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/unprompt/config.yaml"
        XCTAssertEqual(try UserConfig.load(path: path), UserConfig())
        let config = UserConfig(workHours: try hours("Tue 10:00-11:00"))
        try config.write(to: path)
        XCTAssertEqual(try UserConfig.load(path: path), config)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/unprompt"), ["config.yaml"])
    }

    func testTheDefaultPathFollowsThePlatformsConvention() {
        #if os(macOS)
            XCTAssertEqual(
                UserConfig.defaultPath(environment: [:], home: "/Users/u"), "/Users/u/Library/Application Support/Unprompt/config.yaml")
        #else
            XCTAssertEqual(UserConfig.defaultPath(environment: [:], home: "/home/u"), "/home/u/.config/unprompt/config.yaml")
            XCTAssertEqual(
                UserConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/x"], home: "/home/u"), "/x/unprompt/config.yaml")
        #endif
    }
}

/// The sync folder, the device's label and the share name: written and read back, and refused where wrong.
final class ExchangeSettingsTests: XCTestCase {
    func testTheExchangeSettingsReadBackAndAreChecked() throws {
        let config = UserConfig(workHours: .none, syncDirectory: "/home/ada/Sync \"x\"", deviceLabel: "laptop", shareName: "Zoë d'Arc")
        XCTAssertEqual(try UserConfig.parse(config.yaml, file: "config.yaml"), config)
        for (text, message) in [
            ("sync_dir: Sync\n", "config.yaml:1:11: expected an absolute path (sync_dir: the folder every scan and watch syncs with)"),
            ("device_label: \" laptop\"\n", "config.yaml:1:15: the name starts or ends with a space (device_label: this device's label in the sync folder)"),
            ("share_name: \"a/b\"\n", "config.yaml:1:13: the name holds '/': only letters, digits, spaces and - _ . ' are allowed (share_name: the name share codes carry)"),
        ] {
            XCTAssertThrowsError(try UserConfig.parse(text, file: "config.yaml")) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }
}
