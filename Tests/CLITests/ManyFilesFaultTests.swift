import Foundation
import Testing
import UnpromptTestSupport

/// 20,000 tiny logs, one record each: every one counted exactly once, and a rescan opens none of them again.
struct ManyFilesFaultTests {
    static let files = 20_000

    @Test func twentyThousandTinyFilesGiveExactTotals() throws {
        let home = try HostileHome("many-files")
        defer { home.remove() }
        let manager = FileManager.default
        for folder in 0..<100 {
            try manager.createDirectory(atPath: home.home + "/.claude/projects/p\(folder)", withIntermediateDirectories: true)
        }
        // File i holds one record of i + 1 input tokens and 1 output token.
        for i in 0..<Self.files {
            let record = HostileHome.claudeRecord("f\(i)", input: String(i + 1))
            #expect(manager.createFile(atPath: home.home + "/.claude/projects/p\(i % 100)/s\(i).jsonl", contents: Data(record.utf8)))
        }
        let n = Int64(Self.files)
        let expected = StoreTotals(input: n * (n + 1) / 2, output: n, events: n)

        let scan = try home.run(["--json"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let first = try JSONTree(parsing: scan.stdout)["scan"]
        #expect(first?["sources"] == .number(Double(Self.files)))
        #expect(first?["read"] == .number(Double(Self.files)))
        #expect(first?["events"] == .number(Double(Self.files)))
        #expect(try StoreReader.totals(store: home.store)["claude-code"] == expected)

        let rescan = try home.run(["--json"])
        #expect(rescan.status == 0, "\(rescan.stderr)")
        let second = try JSONTree(parsing: rescan.stdout)["scan"]
        #expect(second?["unchanged"] == .number(Double(Self.files)))
        #expect(second?["read"] == .number(0))
        #expect(try StoreReader.totals(store: home.store)["claude-code"] == expected)
    }
}
