import Foundation
import Testing
import UnpromptKit
import UnpromptTestSupport

/// The document Claude Code pipes to its `statusLine` command (`StatusLineSample`), read with claude-code's
/// `status_line` rule.
struct StatusLinePayloadTests {

    /// 2026-03-10T11:30:00Z.
    static let now: Int64 = 1_773_142_200_000

    let claude: StatusLineReader

    init() throws {
        let found = StatusLinePayload.readers(in: [Repository.readers])
        #expect(found.errors.isEmpty && found.found.map(\.tool) == ["claude-code"], "only claude-code declares a status line")
        claude = try #require(found.found.first)
    }

    func readings(_ text: String) throws(StatusLinePayloadError) -> [LimitSample] {
        try StatusLinePayload.readings(Array(text.utf8), of: claude, now: Self.now)
    }

    @Test func bothWindowsAreReadAsTakenNowAndNothingElse() throws {
        let samples = try readings(StatusLineSample.claudeCode)
        #expect(samples == [
            LimitSample(
                tool: "claude-code", time: Self.now, window: "five_hour", usedPercent: 23.5, windowMinutes: 300,
                resetsAt: 1_773_154_800_000),
            LimitSample(
                tool: "claude-code", time: Self.now, window: "seven_day", usedPercent: 41, windowMinutes: 10_080,
                resetsAt: 1_773_446_400_000),
        ])
        // A sample holds a tool id, a window name and numbers: no string of the document can ride along.
        #expect(!"\(samples)".contains("CANARY"))
    }

    @Test func eitherWindowMayBeAbsentAndAFreePlanHasNone() throws {
        let weekOnly = #"{"rate_limits":{"seven_day":{"used_percentage":105,"resets_at":1773446400}}}"#
        #expect(try readings(weekOnly).map(\.window) == ["seven_day"], "a week past 100 % is still a reading")
        #expect(try readings(#"{"model":{"id":"claude-opus-4-1"},"cwd":"/home/CANARY"}"#).isEmpty, "no rate_limits: nothing")
        #expect(try readings(#"{"rate_limits":{"five_hour":{"resets_at":1773154800}}}"#).isEmpty, "no used share: no reading")
        let noReset = try readings(#"{"rate_limits":{"five_hour":{"used_percentage":3}}}"#)
        #expect(noReset.map(\.resetsAt) == [nil] && noReset.map(\.usedPercent) == [3])
        #expect(try readings("[]").isEmpty && readings("{}").isEmpty)
    }

    @Test func aValueThatIsNoShareGivesNoReading() throws {
        #expect(try readings(#"{"rate_limits":{"five_hour":{"used_percentage":-4,"resets_at":1773154800}}}"#).isEmpty)
        #expect(try readings(#"{"rate_limits":{"five_hour":{"used_percentage":"much","resets_at":1773154800}}}"#).isEmpty)
        let isoReset = try readings(#"{"rate_limits":{"five_hour":{"used_percentage":7,"resets_at":"2026-03-10T15:00:00Z"}}}"#)
        #expect(isoReset.map(\.resetsAt) == [nil], "resets_at is epoch seconds; anything else is no reset, never a guess")
    }

    @Test func aDocumentThatIsNotJSONIsRefusedWithoutQuotingIt() {
        #expect(throws: StatusLinePayloadError.self) { try readings(#"{"cwd":"/home/CANARY","rate_limits":"#) }
        do {
            _ = try readings("CANARY not json")
        } catch {
            #expect(error.message.hasPrefix("standard input is not JSON") && !error.message.contains("CANARY"))
        }
        #expect(throws: StatusLinePayloadError.self) {
            try StatusLinePayload.readings([UInt8](repeating: 0x20, count: StatusLinePayload.maxBytes + 1), of: claude, now: Self.now)
        }
    }

    @Test func theWholeDescriptorHasTheSameStatusLineAndABadOneIsAnErrorAtItsPlace() throws {
        let whole = try DescriptorLoader.load(path: Repository.readers + "/claude-code.yaml")
        #expect(whole.statusLine?.windows.map(\.name) == claude.rule.windows.map(\.name))
        #expect(try DescriptorLoader.load(path: Repository.readers + "/codex.yaml").statusLine == nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("status-line-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "schema: 1\nid: tool-a\nstatus_line:\n  windows:\n    - { name: five_hour, used_percent: a.b, extra: 1 }\n"
            .write(toFile: directory + "/tool-a.yaml", atomically: true, encoding: .utf8)
        try "schema: 1\nid: tool-b\nname: B\n".write(toFile: directory + "/tool-b.yaml", atomically: true, encoding: .utf8)
        let found = StatusLinePayload.readers(in: [directory])
        #expect(found.found.isEmpty)
        let error = try #require(found.errors.first)
        #expect(found.errors.count == 1, "tool-b declares none and is not read further: \(found.errors)")
        #expect(error.description.hasPrefix(directory + "/tool-a.yaml:5:") && error.description.contains("unknown key 'extra'"), "\(error)")
    }
}
