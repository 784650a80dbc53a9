import UnpromptTestSupport
import XCTest

@testable import UnpromptKit

/// Vertex AI writes a model's version after an `@` (`claude-sonnet-4-5@20250929`): such an id is kept, in the
/// spelling the price table prices, while an e-mail address in a model field still never passes.
final class VertexModelIDTests: XCTestCase {
    func testVertexModelIDsKeepTheirModelAndDate() {
        let cases: [(logged: String, stored: String)] = [
            ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5-20250929"),
            ("claude-haiku-4-5@20251001", "claude-haiku-4-5-20251001"),
            ("claude-opus-4-1@20250805", "claude-opus-4-1-20250805"),
            ("  claude-3-5-sonnet@20240620 ", "claude-3-5-sonnet-20240620"),
            ("claude-sonnet-4-5@latest", "claude-sonnet-4-5"),
            ("claude-opus-4-5@default", "claude-opus-4-5"),
            ("anthropic/claude-sonnet-4-5@20250929", "anthropic/claude-sonnet-4-5-20250929"),
            // Vertex's resource name: a path, whose last part is the model.
            ("publishers/anthropic/models/claude-sonnet-4-5@20250929", "claude-sonnet-4-5-20250929"),
        ]
        for (logged, stored) in cases {
            XCTAssertEqual(ModelID.sanitize(logged), stored, logged)
        }
    }

    func testVertexModelIDCanaryAddressesStillBecomeUnknown() {
        let addresses = [
            "CANARY@corp.example.com", "CANARY.name@example.org", "CANARY@20250929.example.com", "CANARY@2025-09-29",
            "CANARY@202509290", "CANARY@2025092", "CANARY@20251329", "CANARY@20250900", "CANARY@19990101",
            "CANARY@Latest", "CANARY@latest.example.com", "CANARY@corp@20250929", "claude-sonnet-4-5@CANARY",
            "@20250929", "CANARY/@20250929", "claude@20250929@latest", "CANARY@", "CANARY@ 20250929",
        ]
        for address in addresses {
            XCTAssertEqual(ModelID.sanitize(address), ModelID.unknown, address)
        }
    }

    /// The stored ids are what the bundled price table prices, each at its own dated row.
    func testVertexModelIDsArePricedAsTheirDatedModel() throws {
        let table = try PriceTable.load(directory: Repository.root + "/pricing", override: nil)
        for (logged, key) in [
            ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5-20250929"),
            ("claude-haiku-4-5@20251001", "claude-haiku-4-5-20251001"),
            ("claude-sonnet-4-5@latest", "claude-sonnet-4-5"),
        ] {
            XCTAssertEqual(table.resolve(ModelID.sanitize(logged))?.key, key, logged)
        }
    }
}
