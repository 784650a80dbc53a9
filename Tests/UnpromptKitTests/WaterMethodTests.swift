import Foundation
import UnpromptTestSupport
import XCTest
@testable import UnpromptKit

/// The water method against the worked examples of docs/METHOD.md.
final class WaterMethodTests: XCTestCase {
    static var method: WaterMethod {
        get throws { try WaterMethod.load(path: Repository.root + "/water/water-method-v1.json") }
    }

    /// 1M output tokens, medium class: 300 / 1,000 / 3,000 Wh × (WUE/PUE + EWIF) mL per Wh:
    /// low 0.12/1.09 + 1.5 = 1.6101 → 0.483 L; central 0.30/1.12 + 3.1 = 3.3679 → 3.368 L;
    /// high 1.0/1.20 + 4.5 = 5.3333 → 16.0 L. On site: 0.033 / 0.268 / 2.5 L.
    func testOneMillionOutputTokens() throws {
        let reading = try Self.method.reading(TokenCounts(output: 1_000_000), model: "claude-sonnet-4-5")
        XCTAssertEqual(reading.liters.low, 0.3 * (0.12 / 1.09 + 1.5), accuracy: 1e-9)
        XCTAssertEqual(reading.liters.central, 1.0 * (0.30 / 1.12 + 3.1), accuracy: 1e-9)
        XCTAssertEqual(reading.liters.high, 3.0 * (1.0 / 1.20 + 4.5), accuracy: 1e-9)
        XCTAssertEqual(reading.liters.low, 0.483, accuracy: 0.001)
        XCTAssertEqual(reading.liters.central, 3.368, accuracy: 0.001)
        XCTAssertEqual(reading.liters.high, 16.0, accuracy: 0.001)
        XCTAssertEqual(reading.onSiteLiters.central, 0.268, accuracy: 0.001)
        XCTAssertEqual(reading.onSiteLiters.high, 2.5, accuracy: 1e-9)
    }

    /// A heavy Claude Code day: 0.2M input, 2M 5-minute writes, 50M cache reads, 0.5M output →
    /// 0.5M + 0.01M + 0.1M + 0.25M = 0.86M output-equivalent → 258 / 860 / 2,580 Wh → 0.415 / 2.90 / 13.76 L.
    func testAHeavyClaudeCodeDay() throws {
        let counts = TokenCounts(input: 200_000, cacheRead: 50_000_000, cacheWrite5m: 2_000_000, output: 500_000)
        let reading = try Self.method.reading(counts, model: "claude-sonnet-4-5-20250929")
        XCTAssertEqual(reading.liters.low, 0.415, accuracy: 0.001)
        XCTAssertEqual(reading.liters.central, 2.896, accuracy: 0.001)
        XCTAssertEqual(reading.liters.high, 13.76, accuracy: 0.01)
    }

    /// Reasoning is inside output and not added again; 1-hour writes weigh as 5-minute ones.
    func testReasoningAndCacheWritesWeighOnce() throws {
        let method = try Self.method
        let withReasoning = method.reading(TokenCounts(output: 1_000, reasoning: 800), model: "gpt-5")
        XCTAssertEqual(withReasoning, method.reading(TokenCounts(output: 1_000), model: "gpt-5"))
        XCTAssertEqual(
            method.reading(TokenCounts(cacheWrite1h: 1_000), model: "gpt-5"), method.reading(TokenCounts(cacheWrite5m: 1_000), model: "gpt-5"))
    }

    func testModelClasses() throws {
        let method = try Self.method
        let expected: [(String, String)] = [
            ("claude-haiku-4-5-20251001", "small"), ("gpt-5-mini", "small"), ("gemini-2.5-flash-lite", "small"),
            ("gpt-4.1-nano", "small"), ("o4-mini", "medium"), ("claude-sonnet-4-5-20250929", "medium"),
            ("gpt-5-codex", "medium"), ("gemini-2.5-pro", "medium"), ("gemini-2.5-flash", "medium"),
            ("claude-opus-4-1-20250805", "large"), ("us.anthropic.claude-opus-4-20250514-v1:0", "large"),
            ("o3-pro", "large"), ("gpt-5-pro", "large"), ("qwen3-coder-plus", "unknown"), ("new-model", "unknown"),
        ]
        for (model, modelClass) in expected { XCTAssertEqual(method.modelClass(model), modelClass, model) }
        // Large is 3 × medium, small a quarter.
        let medium = method.reading(TokenCounts(output: 1_000), model: "claude-sonnet-4-5").liters.central
        XCTAssertEqual(method.reading(TokenCounts(output: 1_000), model: "claude-opus-4-1").liters.central, 3 * medium, accuracy: 1e-12)
        XCTAssertEqual(method.reading(TokenCounts(output: 1_000), model: "claude-haiku-4-5").liters.central, medium / 4, accuracy: 1e-12)
    }

    /// The fullest day of the 30 up to a day fills the bottle; days without use count as empty.
    func testBottleLevelIsRelativeToTheUsersOwnRecentDays() {
        let liters: [Int64: Double] = [100: 2, 110: 4, 120: 1, 150: 0.5]
        let levels = BottleLevel.levels(liters: liters, days: [100, 110, 120, 140, 150])
        XCTAssertEqual(levels[100], 1)
        XCTAssertEqual(levels[110], 1)
        XCTAssertEqual(levels[120], 0.25)
        XCTAssertEqual(levels[140], 0, "day 140's window (111…140) holds day 120: an empty day is 0 %")
        XCTAssertEqual(levels[150], 1, "day 110 has left the window (121…150)")
        XCTAssertNil(BottleLevel.levels(liters: [:], days: [5])[5], "no water at all in the window: no level")
    }

    func testABadFactorIsRefusedNamingTheField() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("water-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = try String(contentsOfFile: Repository.root + "/water/water-method-v1.json", encoding: .utf8)
        text = text.replacingOccurrences(of: #""pue": {"low": 1.09"#, with: #""pue": {"low": 1.5"#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try WaterMethod.load(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path): field 'pue' must have low ≤ central ≤ high")
        }
    }
}
