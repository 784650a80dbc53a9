import Foundation
import Testing

@testable import UnpromptKit

/// Giving back the code start-up ran: the process's file-backed memory shrinks, and the process goes on.
struct ProgramCodeTests {
    #if os(Linux)
        @Test func releasedCodeLeavesTheProcessMemory() throws {
            let before = try Self.residentFileKiB()
            let released = ProgramCode.releaseStartupPages()
            let after = try Self.residentFileKiB()
            #expect(released > 1 << 20)
            // The code this test runs comes back, a few pages of it; what the test runner ran before does not.
            #expect(after < before - 1024)
        }

        /// The resident file-backed memory of this process, in KiB, as Linux reports it.
        private static func residentFileKiB() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        }
    #else
        @Test func nothingIsReleasedElsewhere() {
            #expect(ProgramCode.releaseStartupPages() == 0)
        }
    #endif
}
