import Foundation
import UnpromptTestSupport
import XCTest
@testable import UnpromptKit

/// Dated overlay rows: each day is priced with the row in force that day (UTC), both sides of a change.
final class DatedPriceTests: XCTestCase {
    func day(_ text: String) throws -> Int64 { try XCTUnwrap(CivilDate.day(parsing: text)) }

    func usd(
        _ model: String, _ counts: TokenCounts, on date: String,
        _ dimensions: PriceDimensions = PriceDimensions(speed: .standard, tier: .standard, region: .global)
    ) throws -> Double {
        let row = BucketRow(
            quarter: try day(date) * LocalCalendar.quartersPerDay + 40, tool: "t", model: model, counts: counts, events: 1,
            contextAbove: ContextBand.of(counts), dimensions: dimensions)
        return Pricer(table: try PriceTableTests.bundled).reading(of: row).usd
    }

    /// Sonnet 4.6, 250,000 input + 1,000 output (above 200K). Through 2026-03-12 the whole request at the
    /// long-context rates: 250,000 × 6 + 1,000 × 22.50 = 1,522,500 µUSD. From 2026-03-13 at standard:
    /// 250,000 × 3 + 1,000 × 15 = 765,000 µUSD.
    func testTheLongContextPremiumEndsOnItsDate() throws {
        let counts = TokenCounts(input: 250_000, output: 1_000)
        XCTAssertEqual(try usd("claude-sonnet-4-6", counts, on: "2026-03-12"), 1.5225, accuracy: 1e-12)
        XCTAssertEqual(try usd("claude-sonnet-4-6", counts, on: "2026-03-13"), 0.765, accuracy: 1e-12)
        // Before the model's release the row's own (undated) prices apply.
        XCTAssertEqual(try usd("claude-sonnet-4-6", counts, on: "2026-02-16"), 0.765, accuracy: 1e-12)
    }

    /// o3 before its cut (through 2025-06-09): 1,000 input + 1,000 output = 10,000 + 40,000 µUSD; from
    /// 2025-06-10: 2,000 + 8,000 µUSD.
    func testAPriceCutAppliesFromItsDay() throws {
        let counts = TokenCounts(input: 1_000, output: 1_000)
        XCTAssertEqual(try usd("o3", counts, on: "2025-06-09"), 0.05, accuracy: 1e-12)
        XCTAssertEqual(try usd("o3-2025-04-16", counts, on: "2025-06-10"), 0.01, accuracy: 1e-12)
    }

    /// Opus 4.6 fast mode, 1,000 input + 250,000 read + 1,000 output (above 200K). On 2026-03-01: 1,000 × 60 +
    /// 250,000 × 6 + 1,000 × 225 = 1,785,000 µUSD. On 2026-04-01: 6 × (1,000 × 5 + 250,000 × 0.5 + 1,000 × 25)
    /// = 6 × 155,000 = 930,000 µUSD.
    func testOpusFourSixFastModeBothSidesOfTheChange() throws {
        let counts = TokenCounts(input: 1_000, cacheRead: 250_000, output: 1_000)
        let fast = PriceDimensions(speed: .fast, tier: .standard, region: .global)
        XCTAssertEqual(try usd("claude-opus-4-6", counts, on: "2026-03-01", fast), 1.785, accuracy: 1e-12)
        XCTAssertEqual(try usd("claude-opus-4-6-20260205", counts, on: "2026-04-01", fast), 0.93, accuracy: 1e-12)
    }

    /// Windows that overlap, or a dated row without a source, are refused with the row and field named.
    func testOverlappingOrUnsourcedDatedRowsAreRefused() {
        func load(_ dated: String) -> String? {
            let text = #"{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6, "dated_prices": \#(dated)}}"#
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("dated-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            try? text.write(toFile: file, atomically: true, encoding: .utf8)
            do {
                _ = try PriceTable.layer("overlay", file: file)
                return nil
            } catch {
                return error.message
            }
        }
        let row = #""input_cost_per_token": 3e-6, "output_cost_per_token": 4e-6"#
        XCTAssertEqual(
            load(#"[{"valid_until": "2026-01-31", "source": "s", \#(row)}, {"valid_from": "2026-01-31", "source": "s", \#(row)}]"#),
            "row 'm', field 'dated_prices[1]': expected dates that no other dated row of this model covers")
        XCTAssertEqual(
            load(#"[{"valid_from": "2026-01-01", \#(row)}]"#),
            "row 'm', field 'dated_prices[0].source': expected where the price was published")
        XCTAssertEqual(
            load(#"[{"valid_from": "2026-13-01", "source": "s", \#(row)}]"#),
            "row 'm', field 'dated_prices[0].valid_from': expected a date YYYY-MM-DD")
        XCTAssertNil(load(#"[{"valid_until": "2026-01-30", "source": "s", \#(row)}, {"valid_from": "2026-01-31", "source": "s", \#(row)}]"#))
    }

    /// `prices` lists every dated row with the row of other days; `--at` only the row in force that day.
    func testTheListingShowsTheRowsInForceOnADay() throws {
        let table = try PriceTableTests.bundled
        let all = PriceListing.datedRows(table, at: nil).filter { $0.key == "claude-sonnet-4-6" }
        XCTAssertEqual(all.map(\.validFrom), ["2026-02-17", nil])
        XCTAssertEqual(all.map(\.undated), [false, true])
        XCTAssertTrue(all.allSatisfy { $0.source != nil })
        let before = PriceListing.datedRows(table, at: try day("2026-03-12")).filter { $0.key == "claude-sonnet-4-6" }
        XCTAssertEqual(before.map(\.validUntil), ["2026-03-12"])
        let after = PriceListing.datedRows(table, at: try day("2026-03-13")).filter { $0.key == "claude-sonnet-4-6" }
        XCTAssertEqual(after.map(\.undated), [true])
    }
}
