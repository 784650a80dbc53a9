import Foundation
import Testing
import UnpromptKit

/// `UsageQueries.limits` on the corpus (`QueryCorpus`): the windows derived from use are the descriptors'.
struct LimitsQueryTests {
    let corpus: QueryCorpus

    init() throws { corpus = try QueryCorpus() }

    static let hour: Int64 = 3_600_000
    /// 2026-03-10 at `hours` UTC.
    func at(_ hours: Int64) -> Int64 { QueryCorpus.today * 86_400_000 + hours * Self.hour }

    @Test func claudesWindowIsDerivedAsItsDescriptorSaysAndEndsAtTheLoggedReset() throws {
        let limits = try corpus.queries().limits()
        #expect(limits.derived == ["claude-code": 300])
        let window = try #require(limits.windows.first)
        #expect(limits.windows.count == 1 && window.tool == "claude-code" && window.minutes == 300)
        // From the hour of 09:10 for five hours, ended at 13:00 by the limit-reached record of 11:00.
        #expect(window.window == FiveHourWindow(start: at(9), end: at(13), tokens: 30 + 60 + 45, endFromLimit: true))
        #expect(window.cost.costedEvents == 3 && window.endsIn == 90 * QueryCorpus.minute)
        #expect(limits.tools == ["claude-code", "codex"])
    }

    @Test func aLimitReachedRecordIsAboutTheDerivedWindow() throws {
        let readings = try corpus.queries().limits().readings
        #expect(readings.map { "\($0.status.sample.tool) \($0.status.sample.window)" } == [
            "claude-code limit_reached", "codex five_hour", "codex weekly",
        ])
        #expect(readings.map(\.limitReached) == [true, false, false])
        #expect(readings.map(\.status.windowMinutes) == [300, 300, 10_080], "the first names no length: its window's")
        #expect(readings[0].status.resetsIn == 90 * QueryCorpus.minute && readings.allSatisfy { $0.sinceReset == nil })
    }

    @Test func eachCurrentReadingAndTheDerivedWindowHaveTheirPace() throws {
        let queries = try corpus.queries()
        let limits = try queries.limits()
        let paces = limits.readings.map(\.pace)
        #expect(paces[0] == nil, "a limit-reached record is about the derived window")
        // Codex's primary: 12 % at 10:00 of 5 hours resetting at 12:30 (from 07:30): 4.8 an hour, 100 % at 04:20
        // the next day. The secondary: 40 % after 82 hours of 7 days from the 7th: 100 % 205 hours in, on the
        // 15th at 13:00, after its reset on the 14th.
        let primary = try #require(paces[1])
        #expect(primary.windowStart == at(7) + 30 * QueryCorpus.minute && primary.elapsedShare == 0.5)
        #expect(primary.usedUpAt == at(28) + 20 * QueryCorpus.minute && !primary.usedUpBeforeReset)
        let secondary = try #require(paces[2])
        #expect(secondary.windowStart == at(-3 * 24) && secondary.usedUpAt == at(-3 * 24 + 205) && !secondary.usedUpBeforeReset)
        // Claude's window from 09:00: 135 tokens in 2.5 hours.
        #expect(limits.windows.map(\.tokensPerHour) == [54])
        let later = UsageQueries(
            store: queries.store, readings: queries.readings, zone: .utc, workHours: .none, now: at(15) + 30 * QueryCorpus.minute,
            descriptors: corpus.descriptors)
        #expect(try later.limits().readings.map { $0.pace == nil } == [true, true, false], "reset passed, stale, current")
    }

    @Test func laterTheResetsHavePassedAndTheWindowHasEnded() throws {
        let queries = try corpus.queries()
        let later = UsageQueries(
            store: queries.store, readings: queries.readings, zone: .utc, workHours: .none, now: at(15) + 30 * QueryCorpus.minute,
            descriptors: corpus.descriptors)
        let limits = try later.limits()
        #expect(limits.windows.isEmpty && limits.derived == ["claude-code": 300])
        // Claude's reset at 13:00 and Codex's primary at 12:30 have passed; the secondary resets on the 14th.
        #expect(limits.readings.map(\.sinceReset) == [150 * QueryCorpus.minute, 180 * QueryCorpus.minute, nil])
        #expect(limits.readings.map(\.status.stale) == [false, true, false], "the primary reading is 5 h 30 min old")
    }

    @Test func theWindowsLengthIsTheDescriptors() throws {
        // One hour, ended by no record: 09:10 and 09:40 make 09:00-10:00; 11:20 starts 11:00-12:00.
        let hourly = try corpus.claude(derivedWindow: "derived_window: { minutes: 60 }\n")
        let limits = try corpus.queries(descriptors: [hourly]).limits()
        #expect(limits.derived == ["claude-code": 60])
        #expect(limits.windows.map(\.window) == [FiveHourWindow(start: at(11), end: at(12), tokens: 45, endFromLimit: false)])
        let claude = try #require(limits.readings.first { $0.status.sample.tool == "claude-code" })
        #expect(!claude.limitReached && claude.status.windowMinutes == nil, "no window says it ends this one")
    }

    @Test func aToolWithoutADerivedWindowHasNone() throws {
        let without = try corpus.claude(derivedWindow: "")
        let limits = try corpus.queries(descriptors: [without]).limits()
        #expect(limits.windows.isEmpty && limits.derived.isEmpty)
        #expect(limits.readings.count == 3, "the logged readings stay")
    }
}
