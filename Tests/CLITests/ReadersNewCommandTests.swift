import Foundation
import Testing
import UnpromptKit
import UnpromptTestSupport

/// `readers new`, as a descriptor author starts with the binary alone: each format's descriptor loads, its
/// sample is one event in the dry run, and `readers test` passes it, with no edit; every refusal names its cause
/// and writes nothing.
struct ReadersNewCommandTests {
    /// A new empty directory.
    func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-readers-new-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every file below `directory`, relative to it, sorted.
    func files(_ directory: String) -> [String] {
        ((FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? []).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    /// The sample's one record, worked out from the template's input: 1,200 input (the cache not included),
    /// 300 output, 800 cache reads.
    static let sampleCounts = JSONTree.object([
        "input": .number(1200), "output": .number(300), "cacheRead": .number(800), "cacheWrite5m": .number(0),
        "cacheWrite1h": .number(0), "cacheWrite12h": .number(0), "reasoning": .number(0),
    ])

    @Test(arguments: ["jsonl", "json", "sqlite", "text"])
    func eachFormatValidatesDryRunsAsOneEventAndPassesItsCase(format: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = "my-\(format)-tool"
        let made = try Binary.run(["readers", "new", id, "--format", format, "--dir", directory])
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        #expect(made.stdout.contains("unprompt-scan readers test \(id) --readers-dir \(directory)"), "\(made.stdout)")
        let written = files(directory)
        #expect(written.contains("\(id).yaml") && written.contains("Fixtures/\(id)/basic/expected.json"), "\(written)")
        #expect(written.contains("Fixtures/\(id)/basic/README.md"), "\(written)")
        #expect(written.contains { $0.hasPrefix("Fixtures/\(id)/basic/") && $0.hasSuffix(format == "sqlite" ? ".sql" : "." + (format == "text" ? "log" : format)) })

        let validated = try Binary.run(["readers", "validate", directory + "/\(id).yaml"])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stdout == "\(directory)/\(id).yaml: ok (\(id))\n")
        #expect(validated.stderr.isEmpty, "\(validated.stderr)")

        let caseFolder = directory + "/Fixtures/\(id)/basic"
        let dryRun = try Binary.run(["--dry-run", "--tool", id, "--root", caseFolder, "--readers-dir", directory, "--json"])
        #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        guard case .array(let readers)? = try JSONTree(parsing: dryRun.stdout)["readers"], let reader = readers.first else {
            Issue.record("no reader in \(dryRun.stdout)")
            return
        }
        #expect(reader["sources"] == .number(1))
        #expect(reader["events"] == .number(1))
        #expect(reader["totals"] == Self.sampleCounts)
        #expect(reader["byModel"] == .object(["gpt-5": Self.sampleCounts]))
        #expect(reader["warnings"] == .array([]), "\(dryRun.stdout)")
        // The case folder is read as it is written: a SQLite case's database is built in a copy.
        #expect(files(directory) == written)

        let tested = try Binary.run(["readers", "test", id, "--fixtures", directory + "/Fixtures", "--readers-dir", directory, "--seed", "7"])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.hasPrefix("ok    \(id)/basic\n1 cases: 0 failed"), "\(tested.stdout)")
    }

    /// Without `--dir`, the descriptor goes to the user's readers folder, which every command loads beside the
    /// bundled readers, and `readers test` finds its case there: no other flag, from any folder.
    @Test func yourReadersFolderIsTheDefaultAndReadersTestFindsItsCase() throws {
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["XDG_CONFIG_HOME": home + "/config"]
        let elsewhere = home + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let made = try Binary.run(["readers", "new", "my-tool", "--format", "jsonl"], environment: environment)
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let readers = home + "/config/unprompt/readers"
        #expect(files(readers).contains("my-tool.yaml"), "\(files(readers))")
        #expect(!made.stdout.contains("--readers-dir"), "\(made.stdout)")

        let tested = try Binary.run(["readers", "test", "my-tool", "--seed", "1"], environment: environment, directory: elsewhere)
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.hasPrefix("ok    my-tool/basic\n1 cases: 0 failed"), "\(tested.stdout)")
        let all = try Binary.run(["readers", "test", "--seed", "1"], environment: environment, directory: elsewhere)
        #expect(all.status == 0, "\(all.stdout)\(all.stderr)")
        #expect(all.stdout.hasPrefix("ok    my-tool/basic\n1 cases: 0 failed"), "\(all.stdout)")

        let dryRun = try Binary.run(
            ["--dry-run", "--tool", "my-tool", "--root", readers + "/Fixtures/my-tool/basic", "--json"], environment: environment)
        #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        guard case .array(let reports)? = try JSONTree(parsing: dryRun.stdout)["readers"] else {
            Issue.record("no readers in \(dryRun.stdout)")
            return
        }
        #expect(reports.map { $0["events"] } == [.number(1)])
    }

    /// Every refusal exits 2, names what is wrong, and writes nothing.
    @Test(arguments: [
        (["Bad_Id", "--format", "jsonl"], "'Bad_Id' is not a reader id: id must be lowercase letters"),
        (["9-lives", "--format", "jsonl"], "'9-lives' is not a reader id"),
        (["my tool", "--format", "jsonl"], "'my tool' is not a reader id"),
        ([String(repeating: "a", count: 65), "--format", "jsonl"], "is not a reader id"),
        (["my-tool", "--format", "yaml"], "--format: unknown format 'yaml'; one of jsonl, json, sqlite, text"),
        (["my-tool"], "readers new needs --format FORMAT: the new reader's file format: jsonl, json, sqlite or text"),
        (["--format", "json"], "readers new takes one ID"),
        (["one", "two", "--format", "json"], "readers new takes one ID, the new reader's id, and was given 2"),
        (["claude-code", "--format", "jsonl"], "a bundled reader already has the id 'claude-code'"),
    ])
    func refusals(arguments: [String], message: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try Binary.run(["readers", "new"] + arguments + ["--dir", directory])
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(files(directory).isEmpty)
    }

    /// An existing descriptor or case folder is never overwritten, and nothing else is written either.
    @Test func anExistingDescriptorOrCaseIsNeverOverwritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "mine\n".write(toFile: directory + "/kept.yaml", atomically: true, encoding: .utf8)
        let descriptor = try Binary.run(["readers", "new", "kept", "--format", "text", "--dir", directory])
        #expect(descriptor.status == 2)
        #expect(descriptor.stderr.contains("\(directory)/kept.yaml already exists, and readers new never overwrites"), "\(descriptor.stderr)")
        #expect(try String(contentsOfFile: directory + "/kept.yaml", encoding: .utf8) == "mine\n")

        try FileManager.default.createDirectory(atPath: directory + "/Fixtures/cased/basic", withIntermediateDirectories: true)
        let fixture = try Binary.run(["readers", "new", "cased", "--format", "sqlite", "--dir", directory])
        #expect(fixture.status == 2)
        #expect(fixture.stderr.contains("\(directory)/Fixtures/cased/basic already exists"), "\(fixture.stderr)")
        #expect(files(directory) == ["kept.yaml"])
    }

    /// A shipped SQLite case dry-run by hand reads the database its script builds (the figures of its own
    /// `expected.json`, worked out by hand), and leaves the case folder as it was.
    @Test func aSQLiteCaseDryRunsByHand() throws {
        let caseFolder = Repository.fixtures + "/goose/first-sqlite-schema"
        let before = files(caseFolder)
        let output = try Binary.run(["--dry-run", "--tool", "goose", "--root", caseFolder, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let expected = try JSONTree(contentsOf: caseFolder + "/expected.json")
        guard case .array(let readers)? = try JSONTree(parsing: output.stdout)["readers"], let reader = readers.first else {
            Issue.record("no reader in \(output.stdout)")
            return
        }
        guard case .object(let got) = reader, case .object(let want) = expected else {
            Issue.record("not objects: \(reader), \(expected)")
            return
        }
        let keys: Set = ["sources", "events", "totals", "byModel"]
        #expect(FixtureCase.differences(got, expected: want.filter { keys.contains($0.key) }) == [])
        #expect(Set(want.keys).isSuperset(of: keys))
        #expect(files(caseFolder) == before)
    }
}
