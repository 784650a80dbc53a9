import Foundation
import Testing
import UnpromptTestSupport

/// The independent check of the price dimensions: the generator writes Opus 4.8 requests in fast mode, US-only,
/// with web searches, web fetches and 1-hour writes, and prices each one from its own small table of the vendor's
/// published rates (bench/corpus/prices.py), never through the price table's code.
struct PriceDimensionCorpusTests {
    @Test(arguments: [1, 2])
    func aCorpusWithFastModeAndWebSearchesCostsWhatTheGeneratorSays(seed: Int) throws {
        let (corpus, expected) = try Generator.run(
            "claude", ["--size-mb", "2", "--days", "6", "--seed", "\(seed)", "--dense", "--price-dimensions"])
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        for trap in ["fastRequests", "usOnlyRequests", "webSearchRequests", "webFetchRequests", "oneHourCacheWrites"] {
            #expect((number(expected["traps"]?[trap]) ?? 0) > 0, "the corpus writes \(trap)")
        }
        guard case .object(let want)? = expected["cost"]?["listUSD"]?["byModel"],
            let standard = number(expected["cost"]?["standardDimensionsUSD"]?["byModel"]?["claude-opus-4-8"])
        else {
            Issue.record("expected_totals.json lacks the costs")
            return
        }
        let home = try ReadingsCommandTests.Home()
        let monthly = try home.json(["monthly", "--tz", "UTC"], claudeHome: corpus)
        let stored = ReadingsCommandTests().costByModel(monthly)
        for (model, cost) in want {
            let usd = number(cost) ?? .nan
            #expect(abs((stored[model] ?? .nan) - usd) <= 0.000001, "\(model): store \(stored[model] ?? .nan), generator \(usd)")
        }
        let opus = stored["claude-opus-4-8"] ?? .nan
        #expect(abs(opus - standard) > 0.01, "fast mode, the US region and web searches changed the cost")
        // The corpus may span two months: the calls of all of them.
        guard case .array(let months)? = monthly["monthly"], !months.isEmpty else {
            Issue.record("no month")
            return
        }
        let searches = months.reduce(0) { $0 + (number($1["cost"]?["webSearches"]) ?? .nan) }
        let fetches = months.reduce(0) { $0 + (number($1["cost"]?["webFetches"]) ?? .nan) }
        #expect(searches == number(expected["traps"]?["webSearchRequests"]))
        #expect(fetches == number(expected["traps"]?["webFetchRequests"]))
    }

    /// Codex's tier and cache writes, priced: fixture codex/tier-and-cache-writes, whose README works out a
    /// priority call and a standard one on GPT-5.6 at $0.1416 + $0.1002 = $0.2418, the tier stated and speed
    /// and region assumed.
    @Test func codexsTierAndCacheWritesArePriced() throws {
        let root = Repository.fixtures + "/codex/tier-and-cache-writes"
        let output = try Binary.run(["--dry-run", "--reader", "codex", "--root", root, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        guard case .array(let readers)? = try JSONTree(parsing: output.stdout)["readers"], readers.count == 1 else {
            Issue.record("not one reader: \(output.stdout)")
            return
        }
        let cost = readers[0]["cost"]
        #expect(abs((number(cost?["usd"]) ?? .nan) - 0.2418) <= 0.000001, "\(String(describing: cost))")
        #expect(cost?["assumed"] == .array([.string("standard-region"), .string("standard-speed")]))
    }

    func number(_ tree: JSONTree?) -> Double? {
        if case .number(let value)? = tree { return value }
        return nil
    }
}
