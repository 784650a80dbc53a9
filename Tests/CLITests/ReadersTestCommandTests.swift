import Foundation
import Testing
import UnpromptTestSupport

/// `readers test`, as a descriptor author runs it with the binary alone: copies of shipped cases (one built
/// from its `.sql`), one of them with a wrong expected figure, and a folder no reader owns.
struct ReadersTestCommandTests {
    /// A `Fixtures/` folder in a new directory, holding copies of `cases` (`TOOL/CASE`).
    func fixtures(_ cases: [String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-readers-test-\(UUID().uuidString)").path
        for name in cases {
            let target = directory + "/Fixtures/" + name
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repository.fixtures + "/" + name, toPath: target)
        }
        return directory
    }

    @Test func passingCasesGiveOneLineEachAndExitZero() throws {
        let directory = try fixtures(["claude-code/cache-creation-split", "goose/first-sqlite-schema"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try Binary.run(["readers", "test", "--seed", "3"], directory: directory)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(
            output.stdout == """
                ok    claude-code/cache-creation-split
                ok    goose/first-sqlite-schema
                2 cases: 0 failed; split seed 3 (--seed 3 cuts the same way)

                """)
    }

    @Test func aWrongFigureFailsWithItsFirstDifferenceAndExitsEight() throws {
        let directory = try fixtures(["claude-code/cache-creation-split", "claude-code/content-blocks"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let expected = directory + "/Fixtures/claude-code/content-blocks/expected.json"
        guard case .object(var figures) = try JSONTree(contentsOf: expected), case .number(let events)? = figures["events"] else {
            Issue.record("content-blocks/expected.json has no events")
            return
        }
        figures["events"] = .number(events + 1)
        try JSONTree.object(figures).description.write(toFile: expected, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/Fixtures/no-such-reader/basic", withIntermediateDirectories: true)
        try "{}".write(toFile: directory + "/Fixtures/no-such-reader/basic/expected.json", atomically: true, encoding: .utf8)

        let output = try Binary.run(["readers", "test", "--fixtures", directory + "/Fixtures", "--seed", "3"])
        #expect(output.status == 8, "\(output.stdout)\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("FAIL  no-such-reader: no reader named 'no-such-reader' for \(directory)/Fixtures/no-such-reader/"))
        #expect(lines.contains("ok    claude-code/cache-creation-split"))
        let failure = try #require(lines.firstIndex(of: "FAIL  claude-code/content-blocks"), "\(output.stdout)")
        // The first mode that differs (the dry run), and its first difference: the wrong figure, and no other.
        #expect(lines[failure + 1] == "      dry-run: events:")
        #expect(lines[failure + 2] == "        expected \(Int(events) + 1)")
        #expect(lines[failure + 3] == "        actual   \(Int(events))")
        #expect(lines.last == "3 cases: 2 failed; split seed 3 (--seed 3 cuts the same way)")
    }

    @Test func oneReadersCasesOnly() throws {
        let directory = try fixtures(["claude-code/cache-creation-split", "goose/first-sqlite-schema"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try Binary.run(["readers", "test", "goose", "--seed", "1"], directory: directory)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.hasPrefix("ok    goose/first-sqlite-schema\n1 cases: 0 failed"), "\(output.stdout)")
        let none = try Binary.run(["readers", "test", "codex"], directory: directory)
        #expect(none.status == 8)
        #expect(none.stdout.hasPrefix("FAIL  codex: no cases under Fixtures/codex/"), "\(none.stdout)")
        let unknown = try Binary.run(["readers", "test", "nope"], directory: directory)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no reader named 'nope'"), "\(unknown.stderr)")
    }
}
