import Foundation
import UnpromptTestSupport
import XCTest
@testable import UnpromptKit

/// Real model ids, as tools log them (docs/formats/), and the row of the bundled table (with its overlay and
/// aliases) each is priced with.
final class ModelNormalizerTests: XCTestCase {
    static let realIDs: [(id: String, key: String?)] = [
        // Claude Code / Anthropic API: dated and undated.
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929"),
        ("claude-opus-4-6", "claude-opus-4-6"),
        ("claude-opus-4-5-20251101", "claude-opus-4-5-20251101"),
        ("claude-haiku-4-5-20251001", "claude-haiku-4-5-20251001"),
        // Retired ids still in old logs (overlay).
        ("claude-opus-4-20250514", "claude-opus-4-20250514"),
        ("claude-opus-4-1-20250805", "claude-opus-4-1-20250805"),
        ("claude-sonnet-4-20250514", "claude-sonnet-4-20250514"),
        ("claude-3-7-sonnet-20250219", "claude-3-7-sonnet-20250219"),
        ("claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20240620"),
        ("claude-3-5-haiku-20241022", "claude-3-5-haiku-20241022"),
        // Bedrock and Vertex.
        ("us.anthropic.claude-sonnet-4-20250514-v1:0", "us.anthropic.claude-sonnet-4-20250514-v1:0"),
        ("global.anthropic.claude-opus-4-6-v1", "global.anthropic.claude-opus-4-6-v1"),
        ("vertex_ai/claude-opus-4-6@default", "vertex_ai/claude-opus-4-6@default"),
        ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5"),
        // Gateways (OpenRouter, OpenCode): the provider path is removed, Claude's dots become dashes.
        ("anthropic/claude-sonnet-4.5", "claude-sonnet-4-5"),
        ("openrouter/anthropic/claude-opus-4.1", "claude-opus-4-1"),
        ("openai/gpt-5", "gpt-5"),
        ("openai/gpt-5.4", "gpt-5.4"),
        // Codex.
        ("gpt-5-codex", "gpt-5-codex"),
        ("gpt-5.1-codex-max", "gpt-5.1-codex-max"),
        ("gpt-5", "gpt-5"),
        ("gpt-5-2025-08-07", "gpt-5-2025-08-07"),
        ("gpt-5-mini", "gpt-5-mini"),
        ("o3", "o3"),
        ("o4-mini", "o4-mini"),
        ("gpt-4.1", "gpt-4.1"),
        // Gemini CLI: the Gemini API's rows first.
        ("gemini-2.5-pro", "gemini/gemini-2.5-pro"),
        ("gemini-2.5-flash", "gemini/gemini-2.5-flash"),
        ("gemini-3-pro-preview", "gemini/gemini-3-pro-preview"),
        ("gemini-3.1-pro-preview", "gemini/gemini-3.1-pro-preview"),
        ("gemini-3-pro", "gemini/gemini-3-pro-preview"),
        // Cursor's order, thinking variants, Droid's decoration.
        ("claude-4.5-sonnet-thinking", "claude-sonnet-4-5"),
        ("claude-4-opus", "claude-opus-4"),
        ("custom:Claude-Opus-4.5-Thinking-[Anthropic]-0", "claude-opus-4-5"),
        ("claude-opus-4-6[1m]", "claude-opus-4-6"),
        // Qwen, Kimi, GLM, DeepSeek, Grok: their providers' rows.
        ("qwen3-coder-plus", "dashscope/qwen3-coder-plus"),
        ("kimi-k2.5", "moonshot/kimi-k2.5"),
        ("glm-4.6", "zai/glm-4.6"),
        ("deepseek-chat", "deepseek/deepseek-chat"),
        ("grok-code-fast-1", "xai/grok-code-fast-1"),
        // Not models, or not priced by any rule: unpriced, never guessed.
        ("<synthetic>", nil),
        ("default", nil),
        ("kimi-for-coding", nil),
        ("claude-opus-9", nil),
    ]

    func testRealIDsResolveToTheirPriceRows() throws {
        let table = try PriceTableTests.bundled
        for (id, key) in Self.realIDs {
            XCTAssertEqual(table.resolve(id)?.key, key, id)
        }
    }

    /// A newer version is never priced with an older one's row.
    func testNoPrefixMatch() throws {
        let table = try PriceTableTests.bundled
        XCTAssertNil(table.resolve("claude-opus-4-9"))
        XCTAssertNil(table.resolve("gpt-5.9-codex"))
        XCTAssertEqual(table.resolve("claude-opus-4-1")?.key, "claude-opus-4-1")
    }

    func testSpeedSuffixIsNoted() {
        let candidates = ModelNormalizer.candidates("claude-opus-4-8-fast")
        XCTAssertEqual(candidates.last, ModelNormalizer.Candidate(key: "claude-opus-4-8", fast: true))
        XCTAssertFalse(candidates.first!.fast)
    }

    /// Each suffix rule, written without regular expressions, removes what its pattern matches at the end of the
    /// id, and nothing when it does not match: checked against the patterns themselves on ids of every shape.
    func testSuffixRulesMatchExactlyWhatTheirPatternsMatch() {
        let patterns = [
            #"\[1m\]$"#, #"@[a-z0-9._-]+$"#, #"-v[0-9]+(:[0-9]+)?$"#, #"-\[[a-z0-9 ._-]+\](-[0-9]+)?$"#, #"-thinking$"#,
            #"-fast$"#, #"-20[0-9]{6}$"#, #"-20[0-9]{2}-[0-9]{2}-[0-9]{2}$"#,
        ]
        XCTAssertEqual(patterns.count, ModelNormalizer.suffixRules.count)
        let stems = ["claude-sonnet-4-5", "a", "", "x@y", "gpt-5-v", "m-v2", "claude-3@", "-20", "k[1m"]
        let endings = [
            "", "[1m]", "[1M]", "@20250929", "@a.b_c-d", "@", "@A1", "@x@y", "-v1", "-v1:0", "-v:1", "-v1:", "-v12:34",
            "-v1-v2", "-vx", "-[anthropic]-0", "-[a b]", "-[]", "-thinking", "-thinking-fast", "-fast", "-fast-fast",
            "-20250929", "-2025092", "-202509291", "-2025-09-29", "-2025-9-29", "-20ab0929", "-1999-01-01", "-20250929[1m]",
        ]
        for stem in stems {
            for ending in endings {
                let id = stem + ending
                for (pattern, rule) in zip(patterns, ModelNormalizer.suffixRules) {
                    XCTAssertEqual(rule.match(id), id.range(of: pattern, options: .regularExpression), "\(pattern) on '\(id)'")
                }
            }
        }
    }
}
