import Foundation
import Testing
import UnpromptTestSupport

/// One folder `Fixtures/<tool>/<case>/`: the tool's home for `--root`, and the `expected.json` it must give.
struct FixtureCase: CustomTestStringConvertible, Sendable {
    let tool: String
    let name: String
    let directory: String

    var testDescription: String { "\(tool)/\(name)" }

    /// Every case, found by walking the folders: adding a case never edits Swift.
    static var all: [FixtureCase] {
        let manager = FileManager.default
        var cases: [FixtureCase] = []
        for tool in listing(Repository.fixtures) {
            let toolDirectory = Repository.fixtures + "/" + tool
            for name in listing(toolDirectory)
            where manager.fileExists(atPath: toolDirectory + "/" + name + "/expected.json") {
                cases.append(FixtureCase(tool: tool, name: name, directory: toolDirectory + "/" + name))
            }
        }
        return cases
    }
}

let descriptorIDs: [String] = listing(Repository.readers).filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }

/// A directory's entries, sorted, hidden ones left out. A folder that cannot be listed stops the suite:
/// an empty list would make the checks above pass vacuously.
func listing(_ directory: String) -> [String] {
    do {
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }.sorted()
    } catch {
        fatalError("cannot list \(directory): \(error)")
    }
}

@Test(arguments: FixtureCase.all)
func fixtureCaseMatchesExpected(_ fixture: FixtureCase) throws {
    let root = try FixtureDatabases.prepared(fixture.directory)
    let output = try Binary.run(["--dry-run", "--reader", fixture.tool, "--root", root, "--json"])
    #expect(output.status == 0, "exit \(output.status): \(output.stderr)")
    let report = try #require(try JSONTree(parsing: output.stdout)["readers"].flatMap { tree -> JSONTree? in
        if case .array(let readers) = tree, readers.count == 1 { return readers[0] }
        return nil
    })
    guard case .object(let expected) = try JSONTree(contentsOf: fixture.directory + "/expected.json") else {
        Issue.record("expected.json must hold an object")
        return
    }
    #expect(!expected.isEmpty, "expected.json names nothing to check")
    for (key, want) in expected.sorted(by: { $0.key < $1.key }) {
        var got = report[key]
        if key == "problems", case .array(let problems)? = got {
            // Problems are compared by line and reason: the source number depends on sorting only.
            got = .array(problems.map { .object(["line": $0["line"] ?? .null, "reason": $0["reason"] ?? .null]) })
        }
        #expect(got == want, "\(fixture.testDescription) \(key):\n  expected \(want)\n  actual   \(got.map(\.description) ?? "absent")")
    }
}

@Test func everyDescriptorHasAtLeastFourFixtureCases() {
    let cases = FixtureCase.all
    #expect(!descriptorIDs.isEmpty)
    for id in descriptorIDs {
        let count = cases.filter { $0.tool == id }.count
        #expect(count >= 4, "readers/\(id).yaml has \(count) fixture cases under Fixtures/\(id)/; at least 4 are required")
    }
}

@Test func everyFixtureFolderBelongsToADescriptor() throws {
    for tool in listing(Repository.fixtures) {
        #expect(descriptorIDs.contains(tool), "Fixtures/\(tool)/ has no readers/\(tool).yaml")
    }
}
