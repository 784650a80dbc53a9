import Foundation
import Testing
import UnpromptTestSupport

/// Opening a store that does not exist yet, from two processes at once or from a bare file name.
struct FreshStoreTests {
    /// Both scans exit 0: creating the schema is serialized, and the second finds it made.
    @Test func twoScansAtOnceOnAFreshStore() throws {
        let tree = try ScanTree()
        try tree.write(tree.project("-home-dev-p/s.jsonl"), ClaudeResponse.lines(1...50))
        for round in 0..<20 {
            let store = tree.root + "/fresh-\(round)/usage.sqlite"
            let runs = try (0..<2).map { _ in try BinaryRun(["--store", store, "--json"], environment: tree.environment) }
            for output in runs.map({ $0.wait() }) {
                #expect(output.status == 0, "round \(round): \(output.stderr)")
            }
            #expect(try StoreReader.totals(store: store)["claude-code"] == ClaudeResponse.totals(1...50), "round \(round)")
        }
    }

    /// A store path without a directory part (`--store usage.sqlite`).
    @Test func aStorePathWithoutADirectory() throws {
        let tree = try ScanTree()
        try tree.write(tree.project("-home-dev-p/s.jsonl"), ClaudeResponse.lines(1...3))
        let process = Binary.process(["--store", "usage.sqlite", "--json"], environment: tree.environment)
        process.currentDirectoryURL = URL(fileURLWithPath: tree.root)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try StoreReader.totals(store: tree.root + "/usage.sqlite")["claude-code"] == ClaudeResponse.totals(1...3))
    }
}
