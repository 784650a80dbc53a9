import Foundation
import UnpromptTestSupport
import XCTest
@testable import UnpromptKit

/// Reading price files in LiteLLM's format, the layers' order, and the bundled table's recorded digest.
final class PriceTableTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("prices-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    static var bundled: PriceTable {
        get throws { try PriceTable.load(directory: Repository.root + "/pricing", override: nil) }
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testFieldsTiersAndIgnoredVariants() throws {
        let row: [String: Any] = [
            "input_cost_per_token": 2e-6, "output_cost_per_token": 1.2e-5, "cache_read_input_token_cost": 2e-7,
            "cache_creation_input_token_cost": 2.5e-6, "cache_creation_input_token_cost_above_1hr": 4e-6,
            "input_cost_per_token_above_200k_tokens": 4e-6, "cache_creation_input_token_cost_above_1hr_above_200k_tokens": 8e-6,
            "output_cost_per_token_above_272k_tokens": 2e-5, "input_cost_per_token_batches": 1e-6,
            "input_cost_per_token_above_200k_tokens_priority": 9e-6, "supports_vision": true,
            "litellm_provider": "gemini", "provider_specific_entry": ["fast": 6],
        ]
        let price = try ModelPrice(key: "k", row: row)
        XCTAssertEqual(price.base, ClassRates(input: 2e-6, output: 1.2e-5, cacheRead: 2e-7, cacheWrite5m: 2.5e-6, cacheWrite1h: 4e-6))
        XCTAssertEqual(price.tiers, [
            PriceTier(above: 200_000, rates: ClassRates(input: 4e-6, cacheWrite1h: 8e-6)),
            PriceTier(above: 272_000, rates: ClassRates(output: 2e-5)),
        ])
        XCTAssertEqual(price.fastMultiplier, 6)
        XCTAssertEqual(price.provider, "gemini")
    }

    /// A row's fields without `cost` are passed over unread: every class field has it, so none is missed.
    func testOnlyFieldsNamingACostAreRead() {
        for field in ModelPrice.classFields { XCTAssertTrue(ModelPrice.mentionsCost(field.name), field.name) }
        for variant in PriceVariant.allCases {
            XCTAssertTrue(ModelPrice.mentionsCost("output_cost_per_token_above_200k_tokens_" + variant.rawValue))
        }
        for field in ["max_tokens", "supports_vision", "litellm_provider", "cos", "ccost", "cocost"] {
            XCTAssertEqual(ModelPrice.mentionsCost(field), field.contains("cost"), field)
        }
    }

    /// A class field's name and its long-context threshold, read from the field's bytes.
    func testClassFieldsAndTheirThresholds() {
        func threshold(_ field: String) -> Int64?? { ModelPrice.classField(field).map { $0.1 } }
        XCTAssertEqual(ModelPrice.classField("input_cost_per_token")?.0, \ClassRates.input)
        XCTAssertEqual(threshold("input_cost_per_token"), .some(nil))
        XCTAssertEqual(ModelPrice.classField("cache_creation_input_token_cost_above_1hr")?.0, \ClassRates.cacheWrite1h)
        XCTAssertEqual(ModelPrice.classField("cache_creation_input_token_cost_above_1hr_above_200k_tokens")?.0, \ClassRates.cacheWrite1h)
        XCTAssertEqual(threshold("output_cost_per_token_above_200k_tokens"), 200_000)
        XCTAssertEqual(threshold("output_cost_per_token_above_000999999999k_tokens"), 999_999_999_000, "leading zeros")
        for field in [
            "output_cost_per_token_above_1000000000k_tokens", "output_cost_per_token_above_k_tokens",
            "output_cost_per_token_above_2x0k_tokens", "output_cost_per_token_above_+5k_tokens", "output_cost_per_tokens",
            "output_cost_per_token_above_200k", "k_tokens", "", "cost",
        ] {
            XCTAssertNil(ModelPrice.classField(field), field)
        }
    }

    /// Qwen's `tiered_pricing`: whole-request tiers by prompt size.
    func testTieredPricing() throws {
        let row: [String: Any] = [
            "tiered_pricing": [
                ["input_cost_per_token": 1e-6, "output_cost_per_token": 5e-6, "range": [0, 32000.0]],
                ["input_cost_per_token": 1.8e-6, "output_cost_per_token": 9e-6, "range": [32000.0, 128000.0]],
            ]
        ]
        let price = try ModelPrice(key: "dashscope/qwen3-coder-plus", row: row)
        XCTAssertEqual(price.base, ClassRates(input: 1e-6, output: 5e-6))
        XCTAssertEqual(price.tiers, [PriceTier(above: 32_000, rates: ClassRates(input: 1.8e-6, output: 9e-6))])
        // 40,000 input (band 32,000) × 1.8 + 1,000 output × 9 = 72,000 + 9,000 µUSD.
        let cost = Pricer.cost(TokenCounts(input: 40_000, output: 1_000), band: 32_000, price: price)
        XCTAssertEqual(cost.usd, 0.081, accuracy: 1e-12)
    }

    func testBadValuesAreRefusedNamingTheRowAndField() throws {
        for (value, field) in [("\"3e-6\"", "input_cost_per_token"), ("-1e-6", "input_cost_per_token"), ("true", "input_cost_per_token")] {
            let file = try write("prices.json", #"{"my-model": {"\#(field)": \#(value), "output_cost_per_token": 1e-6}}"#)
            XCTAssertThrowsError(try PriceTable.layer("override", file: file)) { error in
                XCTAssertEqual("\(error)", "\(file): row 'my-model', field '\(field)': expected a number of USD per token (at least 0, below 1)")
            }
        }
        let broken = try write("broken.json", "{\"a\": {\n")
        XCTAssertThrowsError(try PriceTable.layer("override", file: broken)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(broken): is not valid JSON"), "\(error)")
        }
    }

    /// Rows without an input and an output price (embeddings, images…) are left out and counted.
    func testRowsWithoutATextPriceAreSkipped() throws {
        let file = try write("prices.json", #"{"embed": {"input_cost_per_token": 1e-7}, "ok": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}}"#)
        let layer = try PriceTable.layer("override", file: file)
        XCTAssertEqual(Array(layer.rows.keys), ["ok"])
        XCTAssertEqual(layer.skipped, 1)
    }

    /// The user's rows come first for every form of an id; then an exact id beats a normalized one, and the
    /// overlay's row the bundled one for the same key.
    func testLayersInOrder() {
        func price(_ key: String, _ input: Double) -> ModelPrice { ModelPrice(key: key, base: ClassRates(input: input, output: 1e-6)) }
        let table = PriceTable(layers: [
            PriceLayer(name: "override", rows: ["claude-sonnet-4-5": price("claude-sonnet-4-5", 9e-6)]),
            PriceLayer(name: "overlay", rows: ["claude-sonnet-4-5": price("claude-sonnet-4-5", 8e-6)]),
            PriceLayer(name: "bundled", rows: [
                "claude-sonnet-4-5": price("claude-sonnet-4-5", 7e-6),
                "claude-sonnet-4-5-20250929": price("claude-sonnet-4-5-20250929", 3e-6),
            ]),
        ])
        XCTAssertEqual(table.resolve("claude-sonnet-4-5")?.layer, "override")
        XCTAssertEqual(table.resolve("claude-sonnet-4-5@20250929")?.layer, "override")
        XCTAssertEqual(table.resolve("claude-sonnet-4-5-20250929")?.layer, "override")
        let withoutOverride = PriceTable(layers: Array(table.layers.dropFirst()))
        XCTAssertEqual(withoutOverride.resolve("claude-sonnet-4-5")?.layer, "overlay")
        XCTAssertEqual(withoutOverride.resolve("claude-sonnet-4-5-20250929")?.key, "claude-sonnet-4-5-20250929")
        XCTAssertEqual(withoutOverride.resolve("claude-sonnet-4-5-20250929")?.layer, "bundled")
        XCTAssertNil(table.resolve("claude-sonnet-9"))
    }

    /// The manifest's digest and size are the bundled file's, recomputed here with Python's hashlib (and with
    /// ours, which `prices` uses).
    func testTheManifestRecordsTheBundledFilesDigest() throws {
        let table = try Self.bundled
        let file = Repository.root + "/pricing/" + PriceTable.bundledFile
        let python = try Python.run(
            "import hashlib, os, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest(), os.path.getsize(sys.argv[1]))",
            arguments: [file])
        XCTAssertEqual(python.trimmingCharacters(in: .whitespacesAndNewlines), "\(table.manifest!.sha256) \(table.manifest!.bytes)")
        XCTAssertEqual(SHA256.hex(try Data(contentsOf: URL(fileURLWithPath: file))), table.manifest!.sha256)
        XCTAssertEqual(table.layer("bundled")?.rows.count, table.manifest!.entries)
    }

    /// Every threshold of the shipped table is a stored band boundary, so history is priced exactly; a refresh
    /// that brings a new threshold fails here until `ContextBand.boundaries` (and docs/STORE.md) take it.
    func testEveryThresholdIsABandBoundary() throws {
        let table = try Self.bundled
        var thresholds: Set<Int64> = []
        for layer in table.layers { for price in layer.rows.values { thresholds.formUnion(price.tiers.map(\.above)) } }
        XCTAssertTrue(thresholds.contains(200_000) && thresholds.contains(272_000), "\(thresholds)")
        XCTAssertTrue(thresholds.isSubset(of: ContextBand.boundaries), "\(thresholds.subtracting(ContextBand.boundaries))")
    }

    func testSHA256KnownAnswers() {
        XCTAssertEqual(SHA256.hex(Array("".utf8)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// The bundled table (with the overlay) gives the list prices of the reference table, per million tokens:
    /// input, output, cache read, 5-minute and 1-hour writes.
    func testTheBundledTableHoldsTheListPrices() throws {
        let table = try Self.bundled
        let expected: [(String, [Double?])] = [
            ("claude-opus-4-20250514", [15, 75, 1.5, 18.75, 30]),
            ("claude-opus-4-1-20250805", [15, 75, 1.5, 18.75, 30]),
            ("claude-opus-4-5-20251101", [5, 25, 0.5, 6.25, 10]),
            ("claude-sonnet-4-20250514", [3, 15, 0.3, 3.75, 6]),
            ("claude-sonnet-4-5-20250929", [3, 15, 0.3, 3.75, 6]),
            ("claude-haiku-4-5-20251001", [1, 5, 0.1, 1.25, 2]),
            ("claude-3-7-sonnet-20250219", [3, 15, 0.3, 3.75, 6]),
            ("claude-3-5-haiku-20241022", [0.8, 4, 0.08, 1, 1.6]),
            ("gpt-5", [1.25, 10, 0.125, nil, nil]),
            ("gpt-5-codex", [1.25, 10, 0.125, nil, nil]),
            ("gpt-5-mini", [0.25, 2, 0.025, nil, nil]),
            ("o3", [2, 8, 0.5, nil, nil]),
            ("o4-mini", [1.1, 4.4, 0.275, nil, nil]),
            ("gpt-4.1", [2, 8, 0.5, nil, nil]),
            ("gemini-2.5-pro", [1.25, 10, 0.125, nil, nil]),
            ("gemini-2.5-flash", [0.3, 2.5, 0.03, nil, nil]),
            ("gemini-3-pro-preview", [2, 12, 0.2, nil, nil]),
            // Coding models LiteLLM 1.110.2 lacks (overlay; an OpenAI cache write is the 30-minute one).
            ("codex-mini-latest", [1.5, 6, 0.375, nil, nil]),
            ("gpt-6.2-sol", [2, 10, 0.1, 2.5, nil]),
            ("MiniMax-M2", [0.3, 1.2, 0.03, nil, nil]),
        ]
        for (id, rates) in expected {
            guard let base = table.resolve(id)?.price.base else {
                XCTFail("\(id) unpriced")
                continue
            }
            let got = [base.input, base.output, base.cacheRead, base.cacheWrite5m, base.cacheWrite1h].map { $0.map { ($0 * 1e6 * 1e6).rounded() / 1e6 } }
            XCTAssertEqual(got, rates, id)
        }
        // Sonnet 4 and 4.5 above 200k: 6 / 22.50, read 0.60, writes 7.50 / 12 (overlay); Gemini 2.5 Pro 2.50 / 15.
        for id in ["claude-sonnet-4-5-20250929", "claude-sonnet-4-20250514"] {
            XCTAssertEqual(
                table.resolve(id)?.price.tiers,
                [PriceTier(above: 200_000, rates: ClassRates(input: 6e-6, output: 2.25e-5, cacheRead: 6e-7, cacheWrite5m: 7.5e-6, cacheWrite1h: 1.2e-5))],
                id)
        }
        XCTAssertEqual(table.resolve("gemini-2.5-pro")?.price.tiers.first?.rates.input, 2.5e-6)
        XCTAssertEqual(table.resolve("gpt-5.4")?.price.tiers.first?.above, 272_000)
        XCTAssertEqual(
            table.resolve("gpt-6.2-sol")?.price.tiers,
            [PriceTier(above: 272_000, rates: ClassRates(input: 4e-6, output: 1.5e-5, cacheRead: 2e-7, cacheWrite5m: 5e-6, cacheWrite1h: nil))])
        // No vendor list price: unpriced, never priced as another model.
        for id in ["gpt-5-codex-mini", "gpt-5.3-codex-spark", "codex-auto-review"] { XCTAssertNil(table.resolve(id), id) }
    }
}
