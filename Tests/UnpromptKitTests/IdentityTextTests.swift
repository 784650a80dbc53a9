import Foundation
import Testing

@testable import UnpromptKit

/// An identity's text names every source's checkpoint in the store (`SourceKey`), so it never changes: its halves in
/// lowercase hexadecimal, without leading zeros, as `String(_:radix:)` writes them.
struct IdentityTextTests {
    @Test func theTextIsBothHalvesInHexadecimal() {
        var generator = SeededRandom(seed: 14)
        let values: [UInt64] = [0, 1, 9, 10, 15, 16, 255, 256, 0xFFFF_FFFF, 1 << 63, UInt64.max]
            + (0..<200).map { _ in generator.next() >> (generator.next() % 64) }
        for high in values {
            for low in values.prefix(12) + [high] {
                let expected = String(high, radix: 16) + ":" + String(low, radix: 16)
                #expect(Identity(high: high, low: low).description == expected)
            }
        }
    }
}
