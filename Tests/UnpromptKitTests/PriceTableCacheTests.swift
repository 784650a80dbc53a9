import Foundation
import Testing
import UnpromptTestSupport

@testable import UnpromptKit

/// The price table's cache: the shipped files this program found valid, byte for byte, are read row by row, each
/// row as a whole load reads it; any other files, and the person's override always, are checked whole.
struct PriceTableCacheTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-price-cache-\(UUID().uuidString)").path
    var pricing: String { root + "/pricing" }
    var cache: PriceTableCache { PriceTableCache(CacheFile(path: root + "/cache/unprompt/prices.cache", program: "build-1")) }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.root + "/pricing", toPath: pricing)
    }

    @Test func rowsReadOneByOneAreTheRowsOfAWholeLoad() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let whole = try PriceTable.load(directory: pricing, override: nil)
        _ = try PriceTable.load(directory: pricing, override: nil, cache: cache)
        let byRow = try PriceTable.load(directory: pricing, override: nil, cache: cache)
        let keys = whole.layers.flatMap { $0.rows.keys } + ["sample_spec", "no-such-model", "claude-sonnet-4-5-20250929-fast"]
        #expect(keys.count > 500)
        for key in keys {
            let (a, b) = (whole.resolve(key), byRow.resolve(key))
            #expect(a?.key == b?.key && a?.layer == b?.layer && a?.price == b?.price && a?.fast == b?.fast, "\(key)")
        }
        for name in ["overlay", "bundled"] {
            #expect(whole.layer(name)?.rows == byRow.layer(name)?.rows && whole.layer(name)?.skipped == byRow.layer(name)?.skipped)
        }
    }

    /// A remembered key is what spares the check: a table whose bytes it names is read row by row, however it was
    /// written; one byte changed, and the table is checked whole again, and refused.
    @Test func onlyTheBytesFoundValidAreReadUnchecked() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bundled = pricing + "/" + PriceTable.bundledFile
        var text = try String(contentsOfFile: bundled, encoding: .utf8)
        text = "{\"broken-row\": {\"input_cost_per_token\": \"3 dollars\", \"output_cost_per_token\": 1e-6}," + text.dropFirst()
        try text.write(toFile: bundled, atomically: true, encoding: .utf8)
        #expect(throws: PriceDataError.self) { try PriceTable.load(directory: pricing, override: nil, cache: cache) }
        let files = try [pricing + "/overlay.json", bundled].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        cache.remember(cache.key(of: files))
        let table = try PriceTable.load(directory: pricing, override: nil, cache: cache)
        #expect(table.resolve("claude-sonnet-4-5-20250929") != nil, "read, its row unchecked")
        try (text + " ").write(toFile: bundled, atomically: true, encoding: .utf8)
        #expect(throws: PriceDataError.self) { try PriceTable.load(directory: pricing, override: nil, cache: cache) }
    }

    @Test func theOverrideIsCheckedEveryTime() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try PriceTable.load(directory: pricing, override: nil, cache: cache)
        let override = root + "/prices.json"
        try #"{"my-model": {"input_cost_per_token": "3 dollars", "output_cost_per_token": 1e-6}}"#
            .write(toFile: override, atomically: true, encoding: .utf8)
        #expect {
            try PriceTable.load(directory: pricing, override: override, cache: cache)
        } throws: { error in
            "\(error)" == "\(override): row 'my-model', field 'input_cost_per_token': expected a number of USD per token (at least 0, below 1)"
        }
    }
}
