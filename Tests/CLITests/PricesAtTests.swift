import Foundation
import Testing
import UnpromptTestSupport

/// `prices --at DATE`: the dated rows in force on a day; a bad date is refused.
struct PricesAtTests {
    @Test func theRowsInForceOnADay() throws {
        let home = try ReadingsCommandTests.Home()
        func sonnet(_ arguments: [String]) throws -> [JSONTree] {
            guard case .array(let rows)? = try home.json(["prices"] + arguments)["datedRows"] else { return [] }
            return rows.filter { $0["priceKey"] == .string("claude-sonnet-4-6") }
        }
        // The premium's last day: its dated row, $6 / $22.50 per million.
        let before = try sonnet(["--at", "2026-03-12"])
        #expect(before.map { $0["validUntil"] } == [.string("2026-03-12")])
        #expect(before.first?["inputPerMillion"] == .number(3), "the dated row's base rate (the premium is its long-context tier)")
        // The next day: the row of other days.
        #expect(try sonnet(["--at", "2026-03-13"]).map { $0["otherDays"] } == [.number(1)])
        // Without --at: both.
        #expect(try sonnet([]).count == 2)
        let text = try home.run(["prices", "--at", "2026-03-12"])
        #expect(text.stdout.contains("dated prices (each day is priced with the row in force that day, UTC) in force on 2026-03-12:"), "\(text.stdout)")
        let bad = try home.run(["prices", "--at", "2026-3-12"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--at: expected a date YYYY-MM-DD, got '2026-3-12'"), "\(bad.stderr)")
    }
}
