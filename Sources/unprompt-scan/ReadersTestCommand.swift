import Foundation
import UnpromptKit

/// `readers test [ID...] [--fixtures DIR] [--seed N]`: every fixture case of the readers named (all with a
/// folder under the fixtures folders when none is), through the library's runner, the one the test suite uses:
/// a dry run, a scan into a temporary store, a second scan that must add nothing, and a split across two scans
/// at a random byte. One line per case; a failure's first difference below it.
///
/// The cases are in `--fixtures DIR`, else in `Fixtures/` of the current directory and `Fixtures/` inside each
/// readers folder (where `readers new` puts a new reader's case), those of them that exist.
enum ReadersTestCommand {
    static func run(_ arguments: Arguments, ids: [String], catalog: ReaderCatalog, environment: [String: String])
        throws(UsageError) -> ExitCode
    {
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
        let fixtures = try fixtureFolders(arguments, environment)
        var cases: [FixtureCase] = []
        var folders: [(tool: String, fixtures: String)] = []
        do throws(FixtureFailure) {
            for directory in fixtures {
                cases += try FixtureCase.cases(in: directory, tools: ids.isEmpty ? nil : ids)
                folders += try FixtureCase.entries(directory).map { ($0, directory) }
            }
        } catch {
            throw UsageError((arguments.single(Option.fixtures.name) == nil ? "" : "--fixtures: ") + error.description)
        }
        var failed = 0
        var known = 0
        for id in ids where !cases.contains(where: { $0.tool == id }) {
            let places = fixtures.map { "\($0)/\(id)/" }.joined(separator: " nor ")
            print("FAIL  \(id): no cases under \(places) (a case is a folder holding an expected.json)")
            failed += 1
        }
        for folder in folders where ids.isEmpty && descriptor(folder.tool, catalog) == nil {
            print("FAIL  \(folder.tool): no reader named '\(folder.tool)' for \(folder.fixtures)/\(folder.tool)/")
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

    /// `--fixtures DIR`; else `Fixtures/` here and inside each readers folder, each once, those that exist.
    private static func fixtureFolders(_ arguments: Arguments, _ environment: [String: String]) throws(UsageError) -> [String] {
        if let given = arguments.single(Option.fixtures.name) { return [given] }
        let readers = ReaderLocation.directories(flag: arguments.single(Option.readersDir.name), environment: environment)
        var seen = Set<String>()
        let folders = (["Fixtures"] + readers.map { $0 + "/Fixtures" }).filter { folder in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else { return false }
            return seen.insert(URL(fileURLWithPath: folder).resolvingSymlinksInPath().path).inserted
        }
        if folders.isEmpty {
            let places = (["Fixtures/ (here)"] + readers.map { $0 + "/Fixtures/" }).joined(separator: ", ")
            throw UsageError("no fixture cases: none of \(places) exists; give --fixtures DIR")
        }
        return folders
    }

    private static func descriptor(_ id: String, _ catalog: ReaderCatalog) -> Descriptor? {
        catalog.descriptors.first { $0.id == id }
    }
}
