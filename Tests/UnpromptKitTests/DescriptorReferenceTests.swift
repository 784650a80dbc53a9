import Foundation
import Testing
import UnpromptKit
import UnpromptTestSupport

/// CONTRIBUTING.md's descriptor reference shows each section's keys as `DescriptorKeys` declares them, so the
/// reference cannot go stale. `UNPROMPT_UPDATE_DOCS=1 swift test --filter DescriptorReferenceTests` rewrites it.
struct DescriptorReferenceTests {
    static let contributing = Repository.root + "/CONTRIBUTING.md"

    @Test func theReferenceTablesAreTheKeyTables() throws {
        let text = try String(contentsOfFile: Self.contributing, encoding: .utf8)
        let regenerated = try DescriptorReference.regenerated(text).get()
        if ProcessInfo.processInfo.environment["UNPROMPT_UPDATE_DOCS"] == "1" {
            try regenerated.write(toFile: Self.contributing, atomically: true, encoding: .utf8)
            return
        }
        #expect(regenerated == text, "CONTRIBUTING.md's key tables differ from DescriptorKeys; UNPROMPT_UPDATE_DOCS=1 rewrites them")
    }

    @Test func aStaleTableIsFound() throws {
        let section = DescriptorKeys.sourceList
        let stale = "before\n" + DescriptorReference.block(section).replacingOccurrences(of: "`paths`", with: "`path`") + "\nafter"
        let fixed = try DescriptorReference.regenerated(stale, sections: [section]).get()
        #expect(fixed != stale && fixed == "before\n" + DescriptorReference.block(section) + "\nafter")
        #expect(throws: DescriptorReference.MissingSection.self) { try DescriptorReference.regenerated("no markers", sections: [section]).get() }
    }
}
