import Foundation
import Testing
import UnpromptTestSupport

/// Search roots from the environment, as a person sets them: Aider's histories are found below
/// `$UNPROMPT_AIDER_ROOTS` (a comma list), else below the home directory.
struct SearchRootTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString)").path
        for repo in ["home/code/app", "elsewhere/one", "more/two"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + repo, withIntermediateDirectories: true)
            try "\n# aider chat started at 2025-05-05 08:00:00\n\n> Tokens: 1.0k sent, 10 received.\n"
                .write(toFile: directory + "/" + repo + "/.aider.chat.history.md", atomically: false, encoding: .utf8)
        }
    }

    func sources(_ environment: [String: String]) throws -> JSONTree? {
        let output = try Binary.run(["--dry-run", "--reader", "aider", "--json"], environment: environment.merging(["TZ": "UTC"]) { $1 })
        #expect(output.status == 0, "\(output.stderr)")
        guard case .array(let readers)? = try JSONTree(parsing: output.stdout)["readers"], readers.count == 1 else { return nil }
        return readers[0]["sources"]
    }

    @Test func theHomeDirectoryByDefault() throws {
        #expect(try sources(["HOME": directory + "/home"]) == .number(1))
    }

    @Test func aCommaListOfRootsReplacesIt() throws {
        let roots = "\(directory)/elsewhere, \(directory)/more"
        #expect(try sources(["HOME": directory + "/home", "UNPROMPT_AIDER_ROOTS": roots]) == .number(2))
        #expect(try sources(["HOME": directory + "/home", "UNPROMPT_AIDER_ROOTS": ""]) == .number(1), "empty means unset")
    }
}
