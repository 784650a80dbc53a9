import Foundation
import UnpromptKit

/// `readers test [ID...] [--fixtures DIR] [--seed N]`: every fixture case of the readers named (all with a
/// folder under DIR when none is), through the library's runner, the one the test suite uses: a dry run, a
/// scan into a temporary store, a second scan that must add nothing, and a split across two scans at a random
/// byte. One line per case; a failure's first difference below it.
enum ReadersTestCommand {
    static func run(_ arguments: Arguments, ids: [String], catalog: ReaderCatalog) throws(UsageError) -> ExitCode {
        let fixtures = arguments.single(Option.fixtures.name) ?? "Fixtures"
        for id in ids where descriptor(id, catalog) == nil {
            throw UsageError("no reader named '\(id)'; `unprompt-scan readers list` shows them")
        }
        let seed: UInt64
        if let given = arguments.single(Option.seed.name) {
            guard let value = UInt64(given) else { throw UsageError("--seed takes a whole number from 0, not '\(given)'") }
            seed = value
        } else {
            seed = UInt64.random(in: 0...UInt64(UInt32.max))
        }
        let cases: [FixtureCase]
        let folders: [String]
        do throws(FixtureFailure) {
            cases = try FixtureCase.cases(in: fixtures, tools: ids.isEmpty ? nil : ids)
            folders = try FixtureCase.entries(fixtures)
        } catch {
            throw UsageError("--fixtures: \(error.description) (the default is Fixtures/ in the current directory)")
        }
        var failed = 0
        var known = 0
        for id in ids where !cases.contains(where: { $0.tool == id }) {
            print("FAIL  \(id): no cases under \(fixtures)/\(id)/ (a case is a folder holding an expected.json)")
            failed += 1
        }
        for folder in folders where ids.isEmpty && descriptor(folder, catalog) == nil {
            print("FAIL  \(folder): no reader named '\(folder)' for \(fixtures)/\(folder)/")
            failed += 1
        }
        for fixture in cases {
            guard let descriptor = descriptor(fixture.tool, catalog) else { continue }
            let outcome = FixtureRunner(descriptor: descriptor).run(fixture, seed: FixtureRunner.seed(base: seed, for: fixture))
            if let failure = outcome.firstFailure {
                failed += 1
                print("FAIL  \(fixture)")
                print(failure.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n"))
            } else if let issue = outcome.modes.first(where: { $0.knownIssue != nil }) {
                known += 1
                print("known \(fixture) (\(issue.mode.rawValue): \(issue.knownIssue ?? ""))")
            } else {
                print("ok    \(fixture)")
            }
        }
        let knownText = known > 0 ? ", \(known) with a known issue" : ""
        print("\(cases.count) cases: \(failed) failed\(knownText); split seed \(seed) (--seed \(seed) cuts the same way)")
        return failed > 0 ? .fixturesFailed : .success
    }

    private static func descriptor(_ id: String, _ catalog: ReaderCatalog) -> Descriptor? {
        catalog.descriptors.first { $0.id == id }
    }
}
