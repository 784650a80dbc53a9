import Foundation
import UnpromptTestSupport
import XCTest

@testable import UnpromptKit

/// A catastrophic regex in a user descriptor: its matching work per line is bounded (`BoundedMatch`), and
/// `readers validate` warns about the nested quantifiers that make it catastrophic (`PatternRisk`).
final class PatternRiskTests: XCTestCase {
    func testCatastrophicRegexNestedQuantifiersAreFound() {
        for risky in [#"^Tokens: (?<sent>(\d+)+)+y"#, "(a*)*", "(?:x+y?)+", "((ab)+c)*", "(a+){2,}", #"(\w+\s?)*$"#, "(a|b+)+"] {
            XCTAssertTrue(PatternRisk.nestsQuantifiers(risky), risky)
        }
        for safe in [
            #"^>?\s*Tokens: (?<sent>[\d.,]+k?) sent(?:, (?<write>[\d.,]+k?) cache write)?, (?<received>[\d.,]+k?) received\."#,
            "(a+)?", "(?>a+)+", "(a++)+", "[+*(]+", #"\d+"#, "(ab)+", "(a{2})+", #"\(a+\)+"#, "(a+)b+",
        ] {
            XCTAssertFalse(PatternRisk.nestsQuantifiers(safe), safe)
        }
    }

    func testCatastrophicRegexRunsOutInsteadOfTakingSeconds() throws {
        let regex = try NSRegularExpression(pattern: #"^Tokens: (?<sent>(\d+)+)+y"#)
        let started = Date()
        guard case .tooSlow = BoundedMatch.first(regex, in: "Tokens: " + String(repeating: "1", count: 40) + " x") else {
            return XCTFail("a catastrophic match must run out")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "bounded: milliseconds, where unbounded takes hours")
        guard case .match = BoundedMatch.first(regex, in: "Tokens: 12y") else { return XCTFail("a short line matches") }
        guard case .none = BoundedMatch.first(regex, in: "Tokens: 12 x") else { return XCTFail("and fails as it should") }
    }

    /// A linear pattern never runs out, however long the line: its work grows with the line, and so does the bound.
    func testCatastrophicRegexBoundLeavesLinearPatternsAlone() throws {
        let aider = try NSRegularExpression(
            pattern: #"^>?\s*Tokens: (?<sent>[\d.,]+k?) sent(?:, (?<write>[\d.,]+k?) cache write)?(?:, (?<hit>[\d.,]+k?) (?:cache hit|cached))?, (?<received>[\d.,]+k?) received\."#)
        let digits = String(repeating: "1,", count: 100_000)
        for line in ["> Tokens: " + digits + " sen", "> Tokens: " + digits + "k sent, " + digits + " received.", "x" + digits] {
            if case .tooSlow = BoundedMatch.first(aider, in: line) { XCTFail("a linear pattern ran out") }
        }
        let unanchored = try NSRegularExpression(pattern: "cache (write|hit)+ [0-9]+")
        if case .tooSlow = BoundedMatch.first(unanchored, in: String(repeating: "cache write ", count: 20_000)) {
            XCTFail("an unanchored linear pattern ran out")
        }
    }

    /// The shipped readers hold no pattern `readers validate` would warn about, and every place a descriptor can
    /// hold a pattern is found.
    func testCatastrophicRegexWarningsCoverEveryPatternAndNoShippedOne() throws {
        let catalog = ReaderCatalog(directories: [Repository.readers])
        XCTAssertTrue(catalog.errors.isEmpty)
        for descriptor in catalog.descriptors {
            for pattern in descriptor.patterns { XCTAssertFalse(PatternRisk.nestsQuantifiers(pattern.text), "\(descriptor.id): \(pattern.text)") }
        }
        XCTAssertEqual(catalog.descriptors.first { $0.id == "aider" }?.patterns.count, 3, "its three line patterns")
        XCTAssertEqual(
            catalog.descriptors.first { $0.id == "claude-code" }?.patterns.map { $0.text }.sorted(),
            [#"\|(\d{9,11})\s*$"#, #"usage limit reached\|\d{9,11}\s*$"#], "a condition's and a value's")
    }
}
