import Foundation
import XCTest
@testable import UnpromptKit

/// Each pricing rule with a hand-worked example, on small rows written here (USD per million in comments).
final class PricerTests: XCTestCase {
    /// Sonnet 4.5 as Anthropic publishes it: 3 / 15, read 0.30, writes 3.75 (5m) / 6 (1h); above 200k prompt
    /// tokens 6 / 22.50, read 0.60, writes 7.50 / 12.
    static let sonnet = ModelPrice(
        key: "claude-sonnet-4-5", provider: "anthropic",
        base: ClassRates(input: 3e-6, output: 15e-6, cacheRead: 0.3e-6, cacheWrite5m: 3.75e-6, cacheWrite1h: 6e-6),
        tiers: [
            PriceTier(
                above: 200_000,
                rates: ClassRates(input: 6e-6, output: 22.5e-6, cacheRead: 0.6e-6, cacheWrite5m: 7.5e-6, cacheWrite1h: 12e-6))
        ])
    /// GPT-5: 1.25 / 10, cached input 0.125.
    static let gpt5 = ModelPrice(
        key: "gpt-5", provider: "openai", base: ClassRates(input: 1.25e-6, output: 10e-6, cacheRead: 0.125e-6))

    func table(_ prices: ModelPrice...) -> PriceTable {
        PriceTable(layers: [PriceLayer(name: "bundled", rows: Dictionary(uniqueKeysWithValues: prices.map { ($0.key, $0) }))])
    }

    func row(_ model: String, _ counts: TokenCounts, events: Int64 = 1, logged: Double? = nil) -> BucketRow {
        BucketRow(
            quarter: 0, tool: "t", model: model, counts: counts, events: events, contextAbove: ContextBand.of(counts),
            costLogged: logged != nil, loggedCostNanos: LoggedCost.nanos(logged) ?? 0)
    }

    // MARK: long context: the whole request

    /// 190,000 cache read + 15,000 input = 205,000 prompt tokens, above 200k: every class at the long rate.
    /// 15,000 × 6 + 190,000 × 0.60 + 1,000 × 22.50 = 90,000 + 114,000 + 22,500 = 226,500 µUSD = $0.2265.
    /// (Split per type at 200k, as some trackers do, would give $0.6315 − … a different number; base rates
    /// for all would give 15,000 × 3 + 190,000 × 0.30 + 1,000 × 15 = $0.117.)
    func testAWholeRequestAboveTheThresholdIsBilledAtLongContextRates() {
        let counts = TokenCounts(input: 15_000, cacheRead: 190_000, output: 1_000)
        let reading = Pricer(table: table(Self.sonnet)).reading(of: row("claude-sonnet-4-5", counts))
        XCTAssertEqual(reading.usd, 0.2265, accuracy: 1e-12)
        XCTAssertEqual(reading.approximateTokens, 0)
        // One token below the threshold (prompt 200,000, not above it): all at base rates.
        let below = TokenCounts(input: 10_000, cacheRead: 190_000, output: 1_000)
        // 10,000 × 3 + 190,000 × 0.30 + 1,000 × 15 = 30,000 + 57,000 + 15,000 µUSD.
        XCTAssertEqual(Pricer(table: table(Self.sonnet)).reading(of: row("claude-sonnet-4-5", below)).usd, 0.102, accuracy: 1e-12)
    }

    /// Two requests of one bucket in different bands are priced each at its own rate: the store keeps them
    /// in separate rows, so the sum equals pricing each request.
    func testRequestsInDifferentBandsKeepTheirOwnRates() {
        let small = TokenCounts(input: 1_000, output: 100)  // 1,000 × 3 + 100 × 15 = 4,500 µUSD
        let large = TokenCounts(input: 250_000, output: 100)  // 250,000 × 6 + 100 × 22.5 = 1,502,250 µUSD
        let reading = Pricer(table: table(Self.sonnet)).reading(of: [row("claude-sonnet-4-5", small), row("claude-sonnet-4-5", large)])
        XCTAssertEqual(reading.usd, 1.50675, accuracy: 1e-12)
    }

    /// A band stored before bands were kept (schema 2) is priced at base rates and marked approximate; a
    /// model without tiers is exact whatever its band.
    func testAnUnknownBandIsPricedAtBaseAndMarked() {
        let unknown = BucketRow(
            quarter: 0, tool: "t", model: "claude-sonnet-4-5", counts: TokenCounts(input: 1_000_000), events: 1,
            contextAbove: ContextBand.unknown)
        let sonnet = Pricer(table: table(Self.sonnet)).reading(of: unknown)
        XCTAssertEqual(sonnet.usd, 3, accuracy: 1e-12)
        XCTAssertEqual(sonnet.approximateTokens, 1_000_000)
        let gpt = BucketRow(quarter: 0, tool: "t", model: "gpt-5", counts: TokenCounts(input: 1_000_000), events: 1, contextAbove: ContextBand.unknown)
        XCTAssertEqual(Pricer(table: table(Self.gpt5)).reading(of: gpt).approximateTokens, 0)
    }

    /// A threshold between two stored boundaries cannot be decided for the band below it: base rates, marked.
    func testAThresholdBetweenBoundariesIsMarkedApproximate() {
        var price = Self.gpt5
        price.tiers = [PriceTier(above: 150_000, rates: ClassRates(input: 2.5e-6, output: 20e-6))]
        let between = row("gpt-5", TokenCounts(input: 140_000))  // band 128,000: prompt may or may not be above 150k
        let reading = Pricer(table: table(price)).reading(of: between)
        XCTAssertEqual(reading.usd, 0.175, accuracy: 1e-12)  // 140,000 × 1.25
        XCTAssertEqual(reading.approximateTokens, 140_000)
        let above = Pricer(table: table(price)).reading(of: row("gpt-5", TokenCounts(input: 210_000)))  // band 200,000
        XCTAssertEqual(above.usd, 0.525, accuracy: 1e-12)  // 210,000 × 2.50
        XCTAssertEqual(above.approximateTokens, 0)
    }

    // MARK: 1-hour cache writes

    /// 100,000 1-hour writes at 6 = $0.60, not 100,000 × 3.75 = $0.375 (the 5-minute rate).
    func testOneHourCacheWritesHaveTheirOwnRate() {
        let reading = Pricer(table: table(Self.sonnet)).reading(of: row("claude-sonnet-4-5", TokenCounts(cacheWrite1h: 100_000)))
        XCTAssertEqual(reading.usd, 0.6, accuracy: 1e-12)
        let fiveMinutes = Pricer(table: table(Self.sonnet)).reading(of: row("claude-sonnet-4-5", TokenCounts(cacheWrite5m: 100_000)))
        XCTAssertEqual(fiveMinutes.usd, 0.375, accuracy: 1e-12)
    }

    /// An Anthropic row without cache rates falls back to Anthropic's multipliers, marked approximate:
    /// 1,000,000 each of read, 5m write, 1h write at input 1: 0.10 + 1.25 + 2 = $3.35.
    func testMissingAnthropicCacheRatesUseAnthropicMultipliers() {
        let bare = ModelPrice(key: "claude-x", provider: "anthropic", base: ClassRates(input: 1e-6, output: 5e-6))
        let reading = Pricer(table: table(bare)).reading(
            of: row("claude-x", TokenCounts(cacheRead: 1_000_000, cacheWrite5m: 1_000_000, cacheWrite1h: 1_000_000)))
        XCTAssertEqual(reading.usd, 3.35, accuracy: 1e-12)
        XCTAssertEqual(reading.approximateTokens, 3_000_000)
    }

    // MARK: OpenAI cached input once; reasoning as output

    /// Codex logs input 40,000 of which 30,000 cached; readers store input 10,000 and cache read 30,000.
    /// 10,000 × 1.25 + 30,000 × 0.125 = 12,500 + 3,750 µUSD = $0.01625. Counting the cached tokens again at
    /// the input rate would give 40,000 × 1.25 + 30,000 × 0.125 = $0.05375.
    func testCachedInputIsBilledOnce() {
        let reading = Pricer(table: table(Self.gpt5)).reading(of: row("gpt-5", TokenCounts(input: 10_000, cacheRead: 30_000)))
        XCTAssertEqual(reading.usd, 0.01625, accuracy: 1e-12)
    }

    /// Output 20,000 of which 5,000 reasoning: 20,000 × 10 = $0.20, not 25,000 × 10.
    func testReasoningIsBilledAsOutputOnce() {
        let reading = Pricer(table: table(Self.gpt5)).reading(of: row("gpt-5", TokenCounts(output: 20_000, reasoning: 5_000)))
        XCTAssertEqual(reading.usd, 0.2, accuracy: 1e-12)
    }

    // MARK: unpriced

    /// A model without a price has no cost (not $0) and keeps its tokens and events.
    func testAnUnpricedModelIsReportedWithItsTokens() {
        let pricer = Pricer(table: table(Self.gpt5))
        let reading = pricer.reading(of: [
            row("gpt-5", TokenCounts(output: 1_000)), row("new-model-9", TokenCounts(input: 700, output: 42), events: 3),
        ])
        XCTAssertEqual(reading.usd, 0.01, accuracy: 1e-12)
        XCTAssertEqual(reading.uncostedTokens, 742)
        XCTAssertEqual(reading.uncostedEvents, 3)
        XCTAssertEqual(reading.unpricedModels, ["new-model-9"])
        let alone = pricer.reading(of: row("new-model-9", TokenCounts(input: 700)))
        XCTAssertFalse(alone.hasCost, "shown as unpriced, never as $0")
        XCTAssertEqual(alone.uncostedTokens, 700)
    }

    // MARK: logged-cost modes

    /// A bucket with a logged cost of $0.50 (tokens worth $0.01 at list price) and one without (worth $0.02).
    func testCostModes() {
        let rows = [
            row("gpt-5", TokenCounts(output: 1_000), logged: 0.5),
            row("gpt-5", TokenCounts(output: 2_000)),
        ]
        let calculate = Pricer(table: table(Self.gpt5), mode: .calculate).reading(of: rows)
        XCTAssertEqual(calculate.usd, 0.03, accuracy: 1e-12)
        XCTAssertEqual(calculate.loggedUSD, 0)
        let auto = Pricer(table: table(Self.gpt5), mode: .auto).reading(of: rows)
        XCTAssertEqual(auto.usd, 0.52, accuracy: 1e-12)
        XCTAssertEqual(auto.loggedUSD, 0.5, accuracy: 1e-12)
        XCTAssertEqual(auto.uncostedEvents, 0)
        let logged = Pricer(table: table(Self.gpt5), mode: .logged).reading(of: rows)
        XCTAssertEqual(logged.usd, 0.5, accuracy: 1e-12)
        XCTAssertEqual(logged.uncostedTokens, 2_000, "no logged cost: counted as without cost, not as $0")
        XCTAssertEqual(logged.unpricedModels, [], "the model has a price; only its logged cost is missing")
    }

    /// A tool that logs only a cost (Crush) gives buckets with no tokens: nothing to calculate from, so every
    /// mode shows the logged cost rather than $0.
    func testCostOnlyBucketsShowTheirLoggedCostInEveryMode() {
        let rows = [row("gpt-5", .zero, events: 2, logged: 1.87), row("gpt-5", TokenCounts(output: 1_000))]
        for mode in [CostMode.calculate, .auto, .logged] {
            let reading = Pricer(table: table(Self.gpt5), mode: mode).reading(of: rows)
            XCTAssertEqual(reading.loggedUSD, 1.87, accuracy: 1e-12, "\(mode)")
            XCTAssertEqual(reading.usd, mode == .logged ? 1.87 : 1.88, accuracy: 1e-12, "\(mode)")
        }
    }

    // MARK: fast mode

    /// `-fast` with a row's fast multiplier (×2): 1,000 output × 25 × 2 = $0.05; without one, base and marked.
    func testFastModeUsesTheRowsMultiplier() {
        let opus = ModelPrice(key: "claude-opus-4-8", provider: "anthropic", base: ClassRates(input: 5e-6, output: 25e-6), fastMultiplier: 2)
        let reading = Pricer(table: table(opus)).reading(of: row("claude-opus-4-8-fast", TokenCounts(output: 1_000)))
        XCTAssertEqual(reading.usd, 0.05, accuracy: 1e-12)
        let plain = ModelPrice(key: "claude-opus-4-5", provider: "anthropic", base: ClassRates(input: 5e-6, output: 25e-6))
        let unknown = Pricer(table: table(plain)).reading(of: row("claude-opus-4-5-fast", TokenCounts(output: 1_000)))
        XCTAssertEqual(unknown.usd, 0.025, accuracy: 1e-12)
        XCTAssertEqual(unknown.approximateTokens, 1_000)
    }
}
