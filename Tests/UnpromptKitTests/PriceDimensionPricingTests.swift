import Foundation
import UnpromptTestSupport
import XCTest
@testable import UnpromptKit

/// Each price dimension with a hand-worked example, on rows parsed here from LiteLLM-format fields (so the
/// field names are tested too). USD per million tokens in comments; µUSD = millionths of a dollar.
final class PriceDimensionPricingTests: XCTestCase {
    static let stated = PriceDimensions(speed: .standard, tier: .standard, region: .global)

    func price(_ key: String, _ fields: [String: Any]) throws -> ModelPrice {
        try ModelPrice(key: key, row: fields)
    }

    func usd(
        _ counts: TokenCounts, _ price: ModelPrice, _ dimensions: PriceDimensions = stated,
        tools: ServerToolCounts = .zero
    ) -> (usd: Double, approximate: Bool, assumed: Set<CostAssumption>) {
        Pricer.cost(counts, band: ContextBand.of(counts), price: price, dimensions: dimensions, serverTools: tools)
    }

    /// Opus 4.8 as published: 5 / 25, read 0.50, writes 6.25 (5m) / 10 (1h); fast 2×, US-only 1.1×; web search
    /// $10 per 1,000.
    func opus48() throws -> ModelPrice {
        try price("claude-opus-4-8", [
            "input_cost_per_token": 5e-6, "output_cost_per_token": 25e-6, "cache_read_input_token_cost": 0.5e-6,
            "cache_creation_input_token_cost": 6.25e-6, "cache_creation_input_token_cost_above_1hr": 10e-6,
            "litellm_provider": "anthropic", "provider_specific_entry": ["fast": 2.0, "us": 1.1],
            "search_context_cost_per_query": [
                "search_context_size_low": 0.01, "search_context_size_medium": 0.01, "search_context_size_high": 0.01,
            ],
        ])
    }

    /// Opus 4.6 fast mode in its first weeks, as explicit rates: 30 / 150 at or below 200K prompt tokens
    /// (6×), 60 / 225 above (12× input, 9× output); cache reads and writes follow the input's multiple.
    func opus46Fast() throws -> ModelPrice {
        try price("claude-opus-4-6", [
            "input_cost_per_token": 5e-6, "output_cost_per_token": 25e-6, "cache_read_input_token_cost": 0.5e-6,
            "litellm_provider": "anthropic",
            "input_cost_per_token_fast": 30e-6, "output_cost_per_token_fast": 150e-6,
            "cache_read_input_token_cost_fast": 3e-6,
            "input_cost_per_token_above_200k_tokens_fast": 60e-6, "output_cost_per_token_above_200k_tokens_fast": 225e-6,
            "cache_read_input_token_cost_above_200k_tokens_fast": 6e-6,
        ])
    }

    // MARK: fast mode

    /// 1,000 input + 100,000 read = 101,000 prompt tokens, at or below 200K: 1,000 × 30 + 100,000 × 3 + 2,000 ×
    /// 150 = 30,000 + 300,000 + 300,000 = 630,000 µUSD. Exactly 200,000 prompt tokens (not above): 100,000 × 30 +
    /// 100,000 × 3 + 1,000 × 150 = 3,450,000 µUSD. 251,000 prompt tokens (above): 1,000 × 60 + 250,000 × 6 +
    /// 1,000 × 225 = 1,785,000 µUSD.
    func testFastModeAtAndAboveTheTwoHundredKThreshold() throws {
        let fast = PriceDimensions(speed: .fast, tier: .standard, region: .global)
        let opus = try opus46Fast()
        XCTAssertEqual(usd(TokenCounts(input: 1_000, cacheRead: 100_000, output: 2_000), opus, fast).usd, 0.63, accuracy: 1e-12)
        XCTAssertEqual(usd(TokenCounts(input: 100_000, cacheRead: 100_000, output: 1_000), opus, fast).usd, 3.45, accuracy: 1e-12)
        let above = usd(TokenCounts(input: 1_000, cacheRead: 250_000, output: 1_000), opus, fast)
        XCTAssertEqual(above.usd, 1.785, accuracy: 1e-12)
        XCTAssertFalse(above.approximate)
        // The same request at standard speed: 1,000 × 5 + 250,000 × 0.5 + 1,000 × 25 = 155,000 µUSD.
        XCTAssertEqual(usd(TokenCounts(input: 1_000, cacheRead: 250_000, output: 1_000), opus).usd, 0.155, accuracy: 1e-12)
    }

    /// A row with only `provider_specific_entry.fast`: the standard cost times it. 1,000 × 5 + 100,000 × 0.5 +
    /// 2,000 × 25 = 105,000 µUSD, × 2 = 210,000 µUSD. A row without either prices fast at standard, approximate.
    func testFastModeMultiplierAndItsAbsence() throws {
        let fast = PriceDimensions(speed: .fast, tier: .standard, region: .global)
        let counts = TokenCounts(input: 1_000, cacheRead: 100_000, output: 2_000)
        XCTAssertEqual(usd(counts, try opus48(), fast).usd, 0.21, accuracy: 1e-12)
        let plain = try price("claude-sonnet-4-6", ["input_cost_per_token": 3e-6, "output_cost_per_token": 15e-6, "cache_read_input_token_cost": 0.3e-6])
        let cost = usd(counts, plain, fast)
        // 1,000 × 3 + 100,000 × 0.3 + 2,000 × 15 = 63,000 µUSD.
        XCTAssertEqual(cost.usd, 0.063, accuracy: 1e-12)
        XCTAssertTrue(cost.approximate)
    }

    // MARK: service tiers

    /// GPT-5.4-like rows: standard 2.50 / 15, cached 0.25; priority 5 / 30, cached 0.50; flex 1.25 / 7.50,
    /// cached 0.125. 10,000 input + 20,000 cached + 1,000 output: standard 25,000 + 5,000 + 15,000 = 45,000 µUSD;
    /// priority 50,000 + 10,000 + 30,000 = 90,000; flex 12,500 + 2,500 + 7,500 = 22,500.
    func testPriorityAndFlexUseTheirOwnRows() throws {
        let gpt = try price("gpt-5.4", [
            "input_cost_per_token": 2.5e-6, "output_cost_per_token": 15e-6, "cache_read_input_token_cost": 0.25e-6,
            "input_cost_per_token_priority": 5e-6, "output_cost_per_token_priority": 30e-6,
            "cache_read_input_token_cost_priority": 0.5e-6,
            "input_cost_per_token_flex": 1.25e-6, "output_cost_per_token_flex": 7.5e-6,
            "cache_read_input_token_cost_flex": 0.125e-6, "litellm_provider": "openai",
        ])
        let counts = TokenCounts(input: 10_000, cacheRead: 20_000, output: 1_000)
        func tier(_ tier: ServiceTier) -> PriceDimensions { PriceDimensions(speed: .standard, tier: tier, region: .global) }
        XCTAssertEqual(usd(counts, gpt, tier(.standard)).usd, 0.045, accuracy: 1e-12)
        XCTAssertEqual(usd(counts, gpt, tier(.priority)).usd, 0.09, accuracy: 1e-12)
        XCTAssertEqual(usd(counts, gpt, tier(.flex)).usd, 0.0225, accuracy: 1e-12)
        XCTAssertEqual(usd(counts, gpt, tier(.priority)).assumed, [])
        // Anthropic's Priority Tier has no list premium and no `_priority` rows: standard, and said so.
        let priority = usd(TokenCounts(input: 1_000), try opus48(), tier(.priority))
        XCTAssertEqual(priority.usd, 0.005, accuracy: 1e-12)
        XCTAssertEqual(priority.assumed, [.standardRateForTier])
    }

    /// Claude batch rows (half of standard): 2.50 / 12.50, 5-minute write 3.125. 10,000 input + 4,000 writes +
    /// 1,000 output = 25,000 + 12,500 + 12,500 = 50,000 µUSD (standard would be 50,000 + 25,000 + 25,000).
    func testBatchUsesTheBatchesRows() throws {
        let sonnet = try price("claude-sonnet-4-5", [
            "input_cost_per_token": 5e-6, "output_cost_per_token": 25e-6, "cache_creation_input_token_cost": 6.25e-6,
            "input_cost_per_token_batches": 2.5e-6, "output_cost_per_token_batches": 12.5e-6,
            "cache_creation_input_token_cost_batches": 3.125e-6, "litellm_provider": "anthropic",
        ])
        let counts = TokenCounts(input: 10_000, cacheWrite5m: 4_000, output: 1_000)
        XCTAssertEqual(usd(counts, sonnet, PriceDimensions(speed: .standard, tier: .batch, region: .global)).usd, 0.05, accuracy: 1e-12)
        XCTAssertEqual(usd(counts, sonnet).usd, 0.1, accuracy: 1e-12)
    }

    // MARK: region, web search, and all of them at once

    /// US-only inference: 1,000 input + 1,000 output = 5,000 + 25,000 = 30,000 µUSD, × 1.1 = 33,000 µUSD.
    func testUSOnlyInferenceMultipliesEveryRate() throws {
        let us = PriceDimensions(speed: .standard, tier: .standard, region: .us)
        XCTAssertEqual(usd(TokenCounts(input: 1_000, output: 1_000), try opus48(), us).usd, 0.033, accuracy: 1e-12)
        // A row without a US multiplier: the region changes nothing.
        let plain = try price("m", ["input_cost_per_token": 5e-6, "output_cost_per_token": 25e-6])
        XCTAssertEqual(usd(TokenCounts(input: 1_000, output: 1_000), plain, us).usd, 0.03, accuracy: 1e-12)
    }

    /// 3 web searches at $0.01 each = $0.03 on top of 1,000 input (5,000 µUSD): $0.035. A row without a
    /// search rate costs the tokens and is approximate.
    func testWebSearchRequestsAreBilledPerRequest() throws {
        let cost = usd(TokenCounts(input: 1_000), try opus48(), tools: ServerToolCounts(webSearch: 3, webFetch: 2))
        XCTAssertEqual(cost.usd, 0.035, accuracy: 1e-12)
        XCTAssertFalse(cost.approximate)
        let plain = try price("m", ["input_cost_per_token": 5e-6, "output_cost_per_token": 25e-6])
        let unpriced = usd(TokenCounts(input: 1_000), plain, tools: ServerToolCounts(webSearch: 3))
        XCTAssertEqual(unpriced.usd, 0.005, accuracy: 1e-12)
        XCTAssertTrue(unpriced.approximate)
    }

    /// Fast, US-only, 1-hour writes and two web searches stack: (812 × 5 + 2,048 × 10 + 96,000 × 0.5 + 1,500 ×
    /// 25) = 4,060 + 20,480 + 48,000 + 37,500 = 110,040 µUSD; × 2 (fast) × 1.1 (US) = 242,088 µUSD; + 2 × 10,000
    /// µUSD of searches = 262,088 µUSD. The web fetch adds nothing.
    func testDimensionsStack() throws {
        let counts = TokenCounts(input: 812, cacheRead: 96_000, cacheWrite1h: 2_048, output: 1_500)
        let cost = usd(
            counts, try opus48(), PriceDimensions(speed: .fast, tier: .standard, region: .us),
            tools: ServerToolCounts(webSearch: 2, webFetch: 1))
        XCTAssertEqual(cost.usd, 0.262088, accuracy: 1e-12)
        XCTAssertEqual(cost.assumed, [])
    }

    /// A row that states nothing is priced at standard, and the reading says what it assumed.
    func testUnstatedDimensionsAreAssumedStandard() throws {
        let row = BucketRow(quarter: 0, tool: "t", model: "claude-opus-4-8", counts: TokenCounts(input: 1_000), events: 1)
        let table = PriceTable(layers: [PriceLayer(name: "bundled", rows: ["claude-opus-4-8": try opus48()])])
        let reading = Pricer(table: table).reading(of: row)
        XCTAssertEqual(reading.usd, 0.005, accuracy: 1e-12)
        XCTAssertEqual(reading.assumed, [.standardSpeed, .standardTier, .standardRegion])
        let stated = BucketRow(
            quarter: 0, tool: "t", model: "claude-opus-4-8", counts: TokenCounts(input: 1_000), events: 1,
            dimensions: PriceDimensions(speed: .standard, tier: .standard, region: .global),
            serverTools: ServerToolCounts(webSearch: 1))
        let full = Pricer(table: table).reading(of: stated)
        XCTAssertEqual(full.usd, 0.015, accuracy: 1e-12)
        XCTAssertEqual(full.assumed, [])
        XCTAssertEqual(full.serverTools, ServerToolCounts(webSearch: 1))
    }

    /// The bundled table keeps the fields pricing reads (the update filter once dropped the search rate).
    func testTheBundledTableKeepsTheDimensionFields() throws {
        let opus = try XCTUnwrap(try PriceTableTests.bundled.resolve("claude-opus-4-8")?.price)
        XCTAssertEqual(opus.fastMultiplier, 2)
        XCTAssertEqual(opus.regionMultipliers[.us], 1.1)
        XCTAssertEqual(opus.webSearchPerRequest, 0.01)
        XCTAssertNotNil(opus.variants[.batches]?.base.input)
        let gpt = try XCTUnwrap(try PriceTableTests.bundled.resolve("gpt-5.5")?.price)
        XCTAssertNotNil(gpt.variants[.priority]?.base.input)
        XCTAssertNotNil(gpt.variants[.flex]?.base.input)
    }

    // MARK: cache-write classes

    /// GPT-5.6 as bundled: 4 / 20, 30-minute write 5, 12-hour write 10; priority 8 / 40, writes 10 and 20. 1,000
    /// input + 2,000 30-minute writes + 3,000 12-hour writes + 500 output: 1,000 × 4 + 2,000 × 5 + 3,000 × 10 +
    /// 500 × 20 = 4,000 + 10,000 + 30,000 + 10,000 = 54,000 µUSD; at priority 8,000 + 20,000 + 60,000 + 20,000 =
    /// 108,000 µUSD. A row without a 12-hour rate takes twice its 30-minute one, marked approximate: 3,000 × 10.
    func testATwelveHourCacheWriteIsPricedAtItsOwnRate() throws {
        let counts = TokenCounts(input: 1_000, cacheWrite5m: 2_000, cacheWrite12h: 3_000, output: 500)
        let gpt = try price("gpt-5.6", [
            "input_cost_per_token": 4e-6, "output_cost_per_token": 20e-6, "cache_creation_input_token_cost": 5e-6,
            "cache_creation_input_token_cost_above_12hr": 10e-6, "litellm_provider": "openai",
            "input_cost_per_token_priority": 8e-6, "output_cost_per_token_priority": 40e-6,
            "cache_creation_input_token_cost_priority": 10e-6, "cache_creation_input_token_cost_above_12hr_priority": 20e-6,
        ])
        let standard = usd(counts, gpt)
        XCTAssertEqual(standard.usd, 0.054, accuracy: 1e-12)
        XCTAssertFalse(standard.approximate)
        XCTAssertEqual(usd(counts, gpt, PriceDimensions(speed: .standard, tier: .priority, region: .global)).usd, 0.108, accuracy: 1e-12)
        let without = try price("gpt-x", [
            "input_cost_per_token": 4e-6, "output_cost_per_token": 20e-6, "cache_creation_input_token_cost": 5e-6,
            "litellm_provider": "openai",
        ])
        let fallback = usd(counts, without)
        XCTAssertEqual(fallback.usd, 0.054, accuracy: 1e-12)
        XCTAssertTrue(fallback.approximate)
        let bundled = try XCTUnwrap(try PriceTableTests.bundled.resolve("gpt-5.6")?.price)
        XCTAssertEqual(try XCTUnwrap(bundled.base.cacheWrite12h), 10e-6, accuracy: 1e-18)
    }
}
