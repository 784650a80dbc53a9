import Testing
@testable import UnpromptKit

/// The distance behind the dry run's `near-miss` warning: edits, with two neighbours swapped as one.
struct NearMissTests {
    @Test(arguments: [
        ("input_tokens", "input_tokens", 0), ("inptu_tokens", "input_tokens", 1), ("input_token", "input_tokens", 1),
        ("inpt_tokens", "input_tokens", 1), ("imput_tokens", "input_tokens", 1), ("output_tokens", "input_tokens", 3),
        ("cache_read", "cache_write", 4), ("", "abc", 3), ("ab", "ba", 1), ("ca", "abc", 3),
    ])
    func editsBetweenTwoKeys(_ a: String, _ b: String, _ expected: Int) {
        #expect(NearMiss.distance(Array(a.utf8), Array(b.utf8)) == expected)
        #expect(NearMiss.distance(Array(b.utf8), Array(a.utf8)) == expected)
    }
}
