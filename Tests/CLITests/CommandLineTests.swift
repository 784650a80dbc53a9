import Foundation
import Testing
import UnpromptTestSupport

/// Exit statuses, usage errors and descriptor errors, as a person meets them.
struct CommandLineTests {
    func temporaryFile(_ text: String, name: String = "demo.yaml") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func validateAcceptsTheShippedDescriptors() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.readers).filter { $0.hasSuffix(".yaml") }
            .map { Repository.readers + "/" + $0 }
        let output = try Binary.run(["readers", "validate"] + files)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.components(separatedBy: ": ok").count - 1 == files.count)
    }

    @Test func validatePointsAtTheUnknownKey() throws {
        let path = try temporaryFile(
            """
            schema: 1
            id: demo
            name: Demo
            inputs:
              - format: jsonl
                sources: [{ root: "~/.demo", glob: "*.jsonl" }]
                records:
                  - name: usage
                    time: timestamp
                    tokenz: { input: usage.input }
            """)
        let output = try Binary.run(["readers", "validate", path])
        #expect(output.status == 3)
        #expect(output.stderr.contains("\(path):10:9: unknown key 'tokenz' in a record"), "\(output.stderr)")
    }

    @Test func validatePointsAtABadGlobCharacter() throws {
        let path = try temporaryFile(
            """
            schema: 1
            id: demo
            name: Demo
            inputs:
              - format: jsonl
                sources:
                  - root: ~/.demo
                    glob: logs/[abc.jsonl
                records: []
            """)
        let output = try Binary.run(["readers", "validate", path])
        #expect(output.status == 3)
        #expect(output.stderr.contains("\(path):8:20: bad glob 'logs/[abc.jsonl': unclosed '['"), "\(output.stderr)")
    }

    @Test func dryRunRefusesAnInvalidReadersDirectory() throws {
        let path = try temporaryFile("schema: 1\nid: Bad_Id\n", name: "bad.yaml")
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let output = try Binary.run(["--dry-run", "--readers-dir", directory])
        #expect(output.status == 3)
        #expect(output.stderr.contains("\(path):2:5: id must be lowercase letters"), "\(output.stderr)")
    }

    @Test func validateRequiresTheFileNameToBeTheID() throws {
        let text = try String(contentsOfFile: Repository.readers + "/codex.yaml", encoding: .utf8)
        let path = try temporaryFile(text, name: "codex-copy.yaml")
        let output = try Binary.run(["readers", "validate", path])
        #expect(output.status == 3)
        #expect(output.stderr.contains("id 'codex' must match the file name 'codex-copy.yaml'"), "\(output.stderr)")
    }

    @Test func usageErrorsExitTwoAndNameTheProblem() throws {
        let unknownOption = try Binary.run(["--dry-run", "--frobnicate"])
        #expect(unknownOption.status == 2)
        #expect(unknownOption.stderr.contains("unknown option --frobnicate"))
        let unknownReader = try Binary.run(["--dry-run", "--reader", "no-such-tool"])
        #expect(unknownReader.status == 2)
        #expect(unknownReader.stderr.contains("no reader named 'no-such-tool'"))
        let missingValue = try Binary.run(["--dry-run", "--root"])
        #expect(missingValue.status == 2)
        #expect(missingValue.stderr.contains("--root needs a value"))
    }

    @Test func aDamagedStoreExitsFourAndIsLeftAsItIs() throws {
        let path = try temporaryFile(String(repeating: "not a database ", count: 500), name: "usage.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let output = try Binary.run(["--store", path])
        #expect(output.status == 4)
        #expect(output.stderr.contains("damaged or is not an Unprompt store"), "\(output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func readersListNamesEveryDescriptor() throws {
        let output = try Binary.run(["readers", "list", "--json"])
        #expect(output.status == 0)
        guard case .array(let readers)? = try JSONTree(parsing: output.stdout)["readers"] else {
            Issue.record("no readers array")
            return
        }
        let ids = readers.compactMap { reader -> String? in
            if case .string(let id)? = reader["id"] { return id }
            return nil
        }
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Repository.readers)
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
        #expect(ids == shipped)
        let cline = readers.first { $0["id"] == .string("cline") }
        #expect(cline?["formats"] == .array([.string("json")]), "each format once, though cline has two json inputs")
        let text = try Binary.run(["readers", "list"])
        #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("gemini-cli ") && $0.contains(" Gemini CLI ") && $0.hasSuffix(" jsonl, json") })
    }

    @Test func anUnreadableSourceIsReportedWithExitOne() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-missing-\(UUID().uuidString).jsonl").path
        let output = try Binary.run(["--dry-run", "--reader", "codex", "--json", missing])
        #expect(output.status == 1)
        #expect(output.stdout.contains("\"unreadable-source\":1"), "\(output.stdout)")
        #expect(!output.stdout.contains(missing))
    }

    /// Read-only: a dry run leaves every byte and every modification time of the tool's files as it was.
    @Test func dryRunLeavesTheToolFilesUntouched() throws {
        let root = Repository.fixtures + "/codex"
        func snapshot() throws -> [String: String] {
            var result: [String: String] = [:]
            for file in FileManager.default.enumerator(atPath: root)!.allObjects as! [String] {
                let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + file)
                let data = FileManager.default.contents(atPath: root + "/" + file) ?? Data()
                result[file] = "\(attributes[.modificationDate]!) \(data.count) \(data.hashValue)"
            }
            return result
        }
        let before = try snapshot()
        let cases = try FileManager.default.contentsOfDirectory(atPath: root)
        for name in cases { _ = try Binary.run(["--dry-run", "--reader", "codex", "--root", root + "/" + name]) }
        #expect(try snapshot() == before)
    }
}
