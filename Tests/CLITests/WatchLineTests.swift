import Foundation
import Testing
@testable import UnpromptKit
@testable import unprompt_scan

/// What `watch` prints for a round (`WatchScan.Round`): one line when it counted something, nothing otherwise.
struct WatchLineTests {
    /// 2026-01-05T10:00:00.250Z.
    static let time: Int64 = 1_767_607_200_250

    func round(_ counted: [WatchScan.Count], sources: Int = 2) -> WatchScan.Round {
        WatchScan.Round(counted: counted, sourcesRead: sources, newProblems: [], storeErrors: [], fatal: false, finishedAt: Self.time)
    }

    @Test func aRoundThatCountedSomethingIsOneLineByTool() {
        let round = round([WatchScan.Count(tool: "a-tool", events: 1_200), WatchScan.Count(tool: "b-tool", events: 1)])
        #expect(WatchCommand.line(round, json: false) == "\(WatchCommand.clockTime(Self.time)) +1,201 events (a-tool: 1,200, b-tool: 1)")
        #expect(
            WatchCommand.line(round, json: true)
                == #"{"time":"2026-01-05T10:00:00.250Z","events":1201,"sources":2,"tools":{"a-tool":1200,"b-tool":1}}"#)
        #expect(WatchCommand.line(self.round([WatchScan.Count(tool: "a-tool", events: 1)]), json: false)?.hasSuffix(" +1 event (a-tool: 1)") == true)
    }

    @Test func aQuietRoundPrintsNothing() {
        #expect(WatchCommand.line(round([], sources: 0), json: false) == nil)
        #expect(WatchCommand.line(round([], sources: 0), json: true) == nil)
    }

    @Test func theClockIsTheLocalTimeOfDayAndProblemsNameTheirToolAndSource() {
        let parts = Calendar.current.dateComponents(in: TimeZone.current, from: Date(timeIntervalSince1970: 1_767_607_200.25))
        #expect(WatchCommand.clockTime(Self.time) == String(format: "%02d:%02d:%02d", parts.hour!, parts.minute!, parts.second!))
        #expect(WatchCommand.problem(WatchScan.Problem(tool: "a-tool", source: 3, line: 7, reason: "unreadable")) == "a-tool: read 3, line 7: unreadable")
        #expect(WatchCommand.problem(WatchScan.Problem(tool: "a-tool", source: 0, line: 0, reason: "folder")) == "a-tool: folder")
    }
}
