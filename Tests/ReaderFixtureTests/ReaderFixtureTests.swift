import Foundation
import Testing
import UnpromptKit
import UnpromptTestSupport

extension FixtureCase: CustomTestStringConvertible {
    public var testDescription: String { description }
}

let descriptorIDs: [String] = listing(Repository.readers).filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }

/// The dry run of the case, with the binary, gives every figure of `expected.json`.
@Test(arguments: FixtureCase.all)
func fixtureCaseMatchesExpected(_ fixture: FixtureCase) throws {
    let root = try FixtureDatabases.prepared(fixture.directory)
    let output = try Binary.run(
        ["--dry-run", "--reader", fixture.tool, "--root", root, "--json"], environment: ["TZ": try fixture.timeZone()])
    #expect(output.status == 0, "exit \(output.status): \(output.stderr)")
    let report = try #require(try JSONTree(parsing: output.stdout)["readers"].flatMap { tree -> JSONTree? in
        if case .array(let readers) = tree, readers.count == 1 { return readers[0] }
        return nil
    })
    guard case .object(var got) = report else {
        Issue.record("the report is not an object")
        return
    }
    let expected = try fixture.expected()
    #expect(!expected.isEmpty, "expected.json names nothing to check")
    if case .array(let problems)? = got["problems"] {
        // Problems are compared by line and reason: the source number depends on sorting only.
        got["problems"] = .array(problems.map { .object(["line": $0["line"] ?? .null, "reason": $0["reason"] ?? .null]) })
    }
    for difference in FixtureCase.differences(got, expected: expected) { Issue.record("\(fixture) \(difference)") }
}

/// Scanned into a new store, the case gives the same figures as its dry run (read back from the store with
/// Python's sqlite3); a second scan adds nothing, and neither does a third that reads every file again.
@Test(arguments: FixtureCase.all)
func fixtureCaseScannedIntoAStoreMatchesExpected(_ fixture: FixtureCase) throws {
    let run = try FixtureStoreRun(fixture)
    let whole = try run.whole()
    let expected = try fixture.expected()
    for difference in FixtureCase.differences(whole.figures, expected: expected, keys: FixtureStoreRun.storedKeys) {
        Issue.record("\(fixture) in the store: \(difference)")
    }
    #expect(whole.again.counted == 0, "\(fixture): a scan with nothing new counted \(whole.again.counted)")
    #expect(whole.again.read == 0, "\(fixture): a scan with nothing new opened \(whole.again.read) sources")
    #expect(whole.figuresAgain == whole.figures, "\(fixture): a scan with nothing new changed the store")
    #expect(whole.touched.counted == 0, "\(fixture): reading every file again counted \(whole.touched.counted)")
    #expect(whole.figuresTouched == whole.figures, "\(fixture): reading every file again changed the store")
}

/// The case fed in two parts across two scans, cut where a seeded generator says (the seed and the cut are
/// printed, and `UNPROMPT_SPLIT_SEED` replaces the base seed), gives the same figures in the store.
@Test(arguments: FixtureCase.all)
func fixtureCaseSplitAcrossTwoScansMatchesExpected(_ fixture: FixtureCase) throws {
    let base = ProcessInfo.processInfo.environment["UNPROMPT_SPLIT_SEED"].flatMap { UInt64($0) } ?? 11
    // Each case its own seed: the base seed and the case's name, mixed (FNV-1a).
    let seed = fixture.description.utf8.reduce(base ^ 0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    let (figures, cut) = try FixtureStoreRun(fixture).split(seed: seed)
    let place = "\(fixture) split with seed \(seed) (UNPROMPT_SPLIT_SEED=\(base)): \(cut)"
    print(place)
    let differences = FixtureCase.differences(figures, expected: try fixture.expected(), keys: FixtureStoreRun.storedKeys)
    if let known = try fixture.knownIssue("split") {
        withKnownIssue(Comment(rawValue: "\(fixture), KNOWN-ISSUES: \(known)")) {
            for difference in differences { Issue.record("\(place)\n\(difference)") }
        }
        return
    }
    for difference in differences { Issue.record("\(place)\n\(difference)") }
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
