import Foundation
import Testing
import UnpromptKit

/// `UsageQueries.today` and `snapshot` on the corpus (`QueryCorpus`).
struct TodayQueryTests {
    let corpus: QueryCorpus

    init() throws { corpus = try QueryCorpus() }

    @Test func todayIsMeasuredAtTheScanAndEstimatedAtThePaceAfterIt() throws {
        let scanned = try corpus.queries().today()
        #expect(scanned.day == QueryCorpus.today && scanned.dayStart == QueryCorpus.today * 86_400_000)
        #expect(scanned.reading.tokens == 245 && scanned.usage.total.events == 4)
        #expect(scanned.measuredAt == QueryCorpus.now)
        // The quarter-hours 11:15 and 11:30 hold the 11:20 call's 45 tokens: 45 over 15 minutes.
        #expect(scanned.pace == 0.05)
        #expect(scanned.estimate == LiveEstimate.Reading(tokens: 245, live: true))
        #expect(Set(scanned.usage.byTool.keys) == ["claude-code", "codex"])

        // Two minutes later, without a scan: 245 + 0.05 × 120.
        let queries = try corpus.queries()
        let later = UsageQueries(
            store: queries.store, readings: queries.readings, zone: .utc, workHours: .none,
            now: QueryCorpus.now + 2 * QueryCorpus.minute, descriptors: [])
        #expect(try later.today().estimate == LiveEstimate.Reading(tokens: 251, live: true))
    }

    @Test func aMeasurementAfterTheClocksMomentIsNotUsed() throws {
        let queries = try corpus.queries()
        let earlier = UsageQueries(
            store: queries.store, readings: queries.readings, zone: .utc, workHours: .none,
            now: QueryCorpus.now - 30 * QueryCorpus.minute, descriptors: [])
        let today = try earlier.today()
        #expect(today.measuredAt == nil && today.pace == 0)
        #expect(today.estimate == LiveEstimate.Reading(tokens: 245, live: false), "the buckets before 11:00 hold all 245")
    }

    @Test func aDayWithoutEventsCostsNothingAndAnUnpricedOneHasNoCost() throws {
        let queries = try corpus.queries()
        let empty = UsageQueries(
            store: queries.store, readings: queries.readings, zone: .utc, workHours: .none,
            now: QueryCorpus.now + 2 * 86_400_000, descriptors: [])
        let today = try empty.today()
        #expect(today.usage.isEmpty && today.reading.tokens == 0)
        #expect(today.readings.total.cost.shownUSD == 0)
        let days = try queries.snapshot().days
        let unpriced = try #require(days.first { $0.reading.day == 20517 })
        #expect(unpriced.readings.cost.shownUSD == nil && unpriced.readings.cost.uncostedTokens == 105)
    }

    @Test func theSnapshotHoldsTodayTheLimitsAndThirtyFiveDays() throws {
        let snapshot = try corpus.queries().snapshot()
        #expect(snapshot.generatedAt == QueryCorpus.now && snapshot.utcOffsetMinutes == 0 && snapshot.workHoursSet)
        #expect(snapshot.days.count == 35)
        #expect(snapshot.days.first?.reading.day == QueryCorpus.today - 34 && snapshot.days.last?.reading.day == QueryCorpus.today)
        #expect(snapshot.days.allSatisfy { $0.dayStart == $0.reading.day * 86_400_000 })
        let tokens: Int64 = snapshot.days.reduce(0) { $0 + $1.reading.tokens }
        let expected: Int64 = 4_500 + 15_000 + 73_000 + 300 + 3_950
        #expect(tokens == expected, "February 4 to March 10")
        #expect(snapshot.today.reading.tokens == 245 && snapshot.limits.readings.count == 3)
    }

    @Test func withoutAStoreEveryQueryAnswersAsForAnEmptyOne() throws {
        let opened = try UsageQueries.open(corpus.request(scan: false), descriptors: corpus.descriptors, step: QueryCorpus.step)
        #expect(opened.queries.store == nil && opened.scan == nil)
        #expect(!FileManager.default.fileExists(atPath: corpus.storePath), "a view without a scan creates no store")
        let today = try opened.queries.today()
        #expect(today.reading.tokens == 0 && today.measuredAt == nil)
        #expect(try opened.queries.limits().readings.isEmpty)
        #expect(try opened.queries.periods(by: .day, from: nil, through: nil).entries.isEmpty)
    }
}
