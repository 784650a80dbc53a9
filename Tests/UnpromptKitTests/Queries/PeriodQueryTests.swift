import Foundation
import Testing
import UnpromptKit

/// `UsageQueries.periods`, `days` and `month` on the corpus (`QueryCorpus`), totals worked out from its records.
struct PeriodQueryTests {
    let corpus: QueryCorpus

    init() throws { corpus = try QueryCorpus() }

    func totals(_ report: PeriodReport) -> [Int64: Int64] {
        Dictionary(uniqueKeysWithValues: report.entries.map { ($0.usage.period, $0.usage.total.counts.total) })
    }

    @Test func toolsAreFilteredInTheStoreAndUsesAreLeftOutOfAToolsView() throws {
        let queries = try corpus.queries()
        let codex = try queries.periods(by: .day, from: nil, through: nil, tools: ["codex"])
        #expect(totals(codex) == [20504: 73_000, QueryCorpus.today: 110])
        #expect(codex.total.counts.total == 73_110 && codex.total.events == 3)
        #expect(!codex.showsUses && codex.entries.allSatisfy { $0.days.isEmpty })

        // Both tools through February 28: every day but the codex call of March 10.
        let both = try queries.periods(by: .day, from: nil, through: 20512, tools: ["claude-code", "codex"])
        let expected: Int64 = 1_500 + 750 + 4_500 + 15_000 + 73_000 + 300
        #expect(both.total.counts.total == expected)
        #expect(both.entries.map(\.usage.period) == [20486, 20487, 20494, 20500, 20504, 20511])
    }

    @Test func everyToolGivesUsesTheWorkSplitAndTotalsThatAreTheSumOfTheDays() throws {
        let report = try corpus.queries().periods(by: .day, from: 20514, through: nil)
        #expect(report.showsUses)
        #expect(totals(report) == [20514: 3_000, 20517: 105, 20521: 600, QueryCorpus.today: 245])
        let today = try #require(report.entries.last?.days.first)
        // 09:10 to 11:20 with no gap over 2 hours: one use, all of it in work hours.
        #expect(today.uses == 1 && today.workUses == 1 && today.workTokens == 245)
        // 2026-03-02 08:00 is before work hours.
        #expect(report.entries.first?.days.first?.workTokens == 0)
        #expect(report.total.counts.total == 3_950 && report.total.events == 7)
        var cost = CostReading()
        for entry in report.entries { cost += entry.readings.total.cost }
        #expect(report.totalReadings.cost == cost)
        #expect(report.totalReadings.unpricedTokens == ["claude-imaginary-9": 105])
    }

    @Test func aDaysBottleLevelComparesItsWaterWithTheFullestOfItsThirtyDays() throws {
        let report = try corpus.queries().periods(by: .day, from: nil, through: 20512)
        let levels = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.usage.period, $0.bottleLevel) })
        // The first day fills its own bottle; 2026-02-20's 73,000 Codex tokens are the fullest day of all.
        #expect(levels[20486] == 1 && levels[20504] == 1)
        let after = try #require(levels[20511] ?? nil)
        #expect(after > 0 && after < 0.01, "300 Sonnet tokens beside 73,000 of GPT-5")
    }

    @Test func monthsAreTheSameBucketsGroupedByMonth() throws {
        let report = try corpus.queries().periods(by: .month, from: nil, through: nil)
        #expect(totals(report) == [2026 * 12 + 1: 95_050, 2026 * 12 + 2: 3_950])
        #expect(report.entries.allSatisfy { $0.bottleLevel == nil })
    }

    @Test func weeksAreTheSameBucketsGroupedByLocalWeekWithTheirDays() throws {
        let report = try corpus.queries().periods(by: .week(.monday), from: nil, through: nil)
        // Weeks from Monday: 02-02, 02-09, 02-16 (15,000 and Codex's 73,000), 02-23, 03-02, 03-09.
        #expect(totals(report) == [20486: 2_250, 20493: 4_500, 20500: 88_000, 20507: 300, 20514: 3_105, 20521: 845])
        #expect(report.total.counts.total == 99_000 && report.today == QueryCorpus.today)
        let last = try #require(report.entries.last)
        #expect(last.days.map(\.day) == Array(20521...20527), "every day of the week, those after today too")
        #expect(last.days.map(\.tokens) == [600, 245, 0, 0, 0, 0, 0])
        #expect(last.uses == 2 && last.workUses == 1 && last.workTokens == 245 && last.personalTokens == 600)
        // A range cuts a week: only its days within the range.
        let cut = try corpus.queries().periods(by: .week(.monday), from: 20522, through: nil)
        #expect(totals(cut) == [20521: 245] && cut.entries[0].days.map(\.day) == Array(20522...20527))
        // A view of chosen tools has no days, hence no uses.
        let codex = try corpus.queries().periods(by: .week(.monday), from: nil, through: nil, tools: ["codex"])
        #expect(totals(codex) == [20500: 73_000, 20521: 110] && codex.entries.allSatisfy { $0.days.isEmpty && $0.uses == 0 })
    }

    @Test func aMonthsUsesAreItsDaysUses() throws {
        let report = try corpus.queries().periods(by: .month, from: nil, through: nil)
        // February: one use on each of its six days with usage; March: 03-02, 03-05, 03-09 and today.
        #expect(report.entries.map(\.uses) == [6, 4])
        #expect(report.entries.map(\.days.count) == [28, 31])
        let work: [Int64] = [1_500 + 4_500 + 15_000 + 73_000, 105 + 245]
        #expect(report.entries.map(\.workTokens) == work)
    }

    @Test func aMonthHoldsItsDaysUpToTodayAndTheirSums() throws {
        let queries = try corpus.queries()
        let march = try queries.month()
        #expect(march.month == 2026 * 12 + 2 && march.days.count == 10)
        #expect(march.tokens == 3_950 && march.uses == 4)
        // 03-05 15:00 (Thursday) and today are in work hours; 03-02 08:00 and 03-09 18:40 are not.
        #expect(march.workTokens == 105 + 245 && march.workUses == 2)
        #expect(march.personalTokens == 3_000 + 600 && march.personalUses == 2)
        #expect(try queries.month(2026 * 12 + 3).days.isEmpty, "April is after today")
    }

    @Test func aViewInAnotherZoneRegroupsTheSameBuckets() throws {
        let kolkata = try #require(ViewZone.resolve("Asia/Kolkata", environment: [:]))
        let report = try corpus.queries(zone: kolkata).periods(by: .day, from: 20514, through: nil)
        // 2026-03-09 18:40Z is 00:10 on the 10th in Kolkata.
        #expect(totals(report) == [20514: 3_000, 20517: 105, QueryCorpus.today: 845])
    }
}
