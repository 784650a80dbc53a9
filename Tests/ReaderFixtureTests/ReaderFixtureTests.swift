import Foundation
import Testing
import UnpromptKit
import UnpromptTestSupport

extension FixtureCase: CustomTestStringConvertible {
    public var testDescription: String { description }
}

let descriptorIDs: [String] = listing(Repository.readers).filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }

/// The dry run of the case, with the binary, gives every figure of `expected.json` in its JSON report (the
/// runner below checks the library's figures; this checks the report a person reads).
@Test(arguments: FixtureCase.all)
func fixtureCaseMatchesExpected(_ fixture: FixtureCase) throws {
    // A case in steps has no one state to dry-run: the runner checks each step against the store.
    guard fixture.steps().isEmpty else { return }
    let root = try FixtureDatabases.prepared(fixture.directory)
    let output = try Binary.run(
        ["--dry-run", "--reader", fixture.tool, "--root", root, "--json"],
        environment: ["TZ": try fixture.timeZone().identifier])
    #expect(output.status == 0, "exit \(output.status): \(output.stderr)")
    let report = try #require(try JSONTree(parsing: output.stdout)["readers"].flatMap { tree -> JSONTree? in
        if case .array(let readers) = tree, readers.count == 1 { return readers[0] }
        return nil
    })
    guard case .object(var got) = report else {
        Issue.record("the report is not an object")
        return
    }
    if case .array(let problems)? = got["problems"] {
        // Problems are compared by line and reason: the source number depends on sorting only.
        got["problems"] = .array(problems.map { .object(["line": $0["line"] ?? .null, "reason": $0["reason"] ?? .null]) })
    }
    for difference in FixtureCase.differences(got, expected: try fixture.expected()) { Issue.record("\(fixture) \(difference)") }
}

/// The runner `readers test` uses, on every case in all four modes: a dry run, a scan into a new store, a
/// second scan (nothing added, even with every file touched), and a split across two scans at a seeded cut
/// (`UNPROMPT_SPLIT_SEED` replaces the base seed; the cut is printed). A mode `KNOWN-ISSUES` names is
/// expected to fail, and fails the suite once it passes.
@Test(arguments: FixtureCase.all)
func fixtureCaseHoldsInEveryMode(_ fixture: FixtureCase) throws {
    let base = ProcessInfo.processInfo.environment["UNPROMPT_SPLIT_SEED"].flatMap { UInt64($0) } ?? 11
    let descriptor = try DescriptorLoader.load(path: Repository.readers + "/" + fixture.tool + ".yaml", directories: [Repository.readers])
    let outcome = FixtureRunner(descriptor: descriptor).run(fixture, seed: FixtureRunner.seed(base: base, for: fixture))
    if let error = outcome.error { Issue.record("\(fixture): \(error)") }
    print("\(fixture) split with UNPROMPT_SPLIT_SEED=\(base): \(outcome.cut.map(\.description) ?? "no cut")")
    for mode in outcome.modes {
        let report = { for difference in mode.differences { Issue.record("\(fixture) \(mode.mode.rawValue): \(difference)") } }
        if let known = mode.knownIssue {
            withKnownIssue(Comment(rawValue: "\(fixture) \(mode.mode.rawValue), KNOWN-ISSUES: \(known)")) { report() }
        } else {
            report()
        }
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
