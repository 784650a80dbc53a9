import Foundation
import Testing
import UnpromptTestSupport

/// A record dated in the year 2100 or later (a damaged or hostile time, up to 9999-12-31) is `bad-time`: stored,
/// it made every view that runs to the last day with usage build one reading a day until then, for minutes and
/// gigabytes.
struct FarFutureTimeTests {
    static let log = ".claude/projects/p/a.jsonl"

    static func record(_ id: String, _ time: String, input: Int) -> String {
        #"{"type":"assistant","timestamp":"\#(time)","requestId":"req_\#(id)","message":{"model":"claude-sonnet-4-5-20250929","id":"msg_\#(id)","usage":{"input_tokens":\#(input),"output_tokens":1}}}"#
            + "\n"
    }

    @Test func farFutureTimeIsABadTimeAndEveryViewStillEnds() throws {
        let home = try HostileHome("far-future")
        defer { home.remove() }
        try home.write(
            Self.record("a", "2026-04-05T10:00:00.000Z", input: 100) + Self.record("b", "9999-12-31T23:59:59.000Z", input: 7)
                + Self.record("c", "2100-01-01T00:00:00.000Z", input: 5) + Self.record("d", "2030-12-31T23:59:59Z", input: 3),
            at: Self.log)
        let scan = try #require(try SpecialFileFaultTests.runWithin(60, ["--json", "--store", home.store], home: home))
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try JSONTree(parsing: scan.stdout)["scan"]?["skipped"]?["bad-time"] == .number(2), "\(scan.stdout.prefix(300))")
        #expect(try StoreReader.totals(store: home.store)["claude-code"] == StoreTotals(input: 103, output: 2, events: 2))
        for view in [["daily", "--json"], ["monthly", "--json"], ["daily", "--since", "2026-01-01"], ["weekly", "--json"]] {
            let output = try #require(
                try SpecialFileFaultTests.runWithin(60, view + ["--no-scan", "--store", home.store], home: home), "\(view) hung")
            #expect(output.status == 0, "\(view): \(output.stderr)")
        }
    }
}
