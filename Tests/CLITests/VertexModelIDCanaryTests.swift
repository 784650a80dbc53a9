import Foundation
import Testing
import UnpromptTestSupport

/// Vertex AI's model ids (`model@YYYYMMDD`) as a person meets them: counted and priced under the dated model,
/// while e-mail addresses planted in the same field reach no byte of the store or of any view.
struct VertexModelIDCanaryTests {
    static let log = ".claude/projects/p/a.jsonl"

    @Test func vertexModelIDIsPricedAndAddressesStayUnknown() throws {
        let home = try HostileHome("vertex-model-id")
        defer { home.remove() }
        try home.write(
            HostileHome.claudeRecord("a", input: "1000", output: 10, model: "claude-sonnet-4-5@20250929")
                + HostileHome.claudeRecord("b", input: "200", output: 2, model: "claude-sonnet-4-5@latest")
                + HostileHome.claudeRecord("c", input: "30", output: 3, model: "CANARY@corp.example.com")
                + HostileHome.claudeRecord("d", input: "4", output: 4, model: "CANARY@20250929.example.com"),
            at: Self.log)
        let scan = try home.run([])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try StoreReader.totalsByModel(store: home.store) == [
            "claude-code/claude-sonnet-4-5-20250929": StoreTotals(input: 1000, output: 10, events: 1),
            "claude-code/claude-sonnet-4-5": StoreTotals(input: 200, output: 2, events: 1),
            "claude-code/unknown": StoreTotals(input: 34, output: 7, events: 2),
        ])
        let store = try Data(contentsOf: URL(fileURLWithPath: home.store))
        #expect(store.range(of: Data("CANARY".utf8)) == nil)
        #expect(store.range(of: Data("example.com".utf8)) == nil)
        let daily = try home.run(["daily", "--json", "--since", "2026-04-01", "--no-scan"])
        #expect(daily.status == 0, "\(daily.stderr)")
        for output in [scan, daily] {
            #expect(!output.stdout.contains("CANARY") && !output.stderr.contains("CANARY"))
            #expect(!output.stdout.contains("example.com"))
        }
        // At list price, $3 per million input and $15 per million output for both rows (worked out by hand).
        let json = try JSONSerialization.jsonObject(with: Data(daily.stdout.utf8)) as? [String: Any]
        let day = (json?["daily"] as? [[String: Any]])?.first
        let costs = day?["costByModel"] as? [String: [String: Any]]
        let dated = try #require(costs?["claude-sonnet-4-5-20250929"]?["usd"] as? Double)
        let latest = try #require(costs?["claude-sonnet-4-5"]?["usd"] as? Double)
        #expect(abs(dated - (1000 * 3e-6 + 10 * 15e-6)) < 1e-12)
        #expect(abs(latest - (200 * 3e-6 + 2 * 15e-6)) < 1e-12)
    }
}
