import Foundation
import Testing
import UnpromptKit

/// Proposals, answers, undo and streaks through the query layer and the store, on the corpus
/// (`QueryCorpus`: work hours Mon-Fri 09:00-18:00, the clock Tuesday 2026-03-10 11:30Z, history from 02-02).
struct ConfirmationQueryTests {
    let corpus: QueryCorpus

    init() throws { corpus = try QueryCorpus() }

    static let hour: Int64 = 3_600_000
    static let february2: Int64 = 20486
    static let march1: Int64 = 20513

    /// 2026-03-10 at `hours` UTC (minutes too).
    func at(_ hours: Int64, _ minutes: Int64 = 0, day: Int64 = QueryCorpus.today) -> Int64 {
        day * 86_400_000 + hours * Self.hour + minutes * 60_000
    }

    /// The corpus's queries at `now`, with the store's confirmations read again (as a new view opens them).
    func queries(now: Int64 = QueryCorpus.now, workHours: String? = nil) throws -> UsageQueries {
        let opened = try corpus.queries(now: now)
        guard let workHours else { return opened }
        return UsageQueries(
            store: opened.store, readings: opened.readings, zone: .utc, workHours: try WorkHours.parse(workHours).get(), now: now,
            descriptors: corpus.descriptors, confirmations: try opened.store!.confirmations())
    }

    func context(_ answers: String...) throws -> UnpromptKit.Confirmation.Context { try UnpromptKit.Confirmation.Context.parse(answers).get() }

    @Test func theProposalIsTodayOnceItsWorkHoursEndElseTheLatestDayNotConfirmed() throws {
        #expect(try queries().pendingDay() == QueryCorpus.today - 1, "11:30: the work day is not over")
        #expect(try queries(now: at(17, 59)).pendingDay() == QueryCorpus.today - 1)
        #expect(try queries(now: at(18)).pendingDay() == QueryCorpus.today, "18:00, when Tuesday's hours end")
        _ = try queries().confirm(day: QueryCorpus.today - 1, context: .none)
        #expect(try queries().pendingDay() == QueryCorpus.today - 2, "a Sunday without use is proposed too")
        _ = try queries().confirm(day: QueryCorpus.today, context: .none)
        #expect(try queries(now: at(19)).pendingDay() == QueryCorpus.today - 2, "today is confirmed already")

        // A night shift ends tomorrow: today is proposed tomorrow. A day without hours: at 18:00.
        let night = try queries(now: at(23, 59, day: QueryCorpus.today + 1), workHours: "Sun-Thu 22:00-06:00")
        #expect(night.proposalMinute(ofDay: QueryCorpus.today + 1) == 30 * 60)
        #expect(try night.pendingDay() == QueryCorpus.today - 2, "not Wednesday, at 23:59, whose shift ends on Thursday")
        // Wednesday, not confirmed, by other hours; today keeps the hours it was confirmed with.
        #expect(try queries(workHours: "none").proposalMinute(ofDay: QueryCorpus.today + 1) == 18 * 60)
        let split = try queries(workHours: "Mon-Fri 08:00-12:00 13:00-16:30")
        #expect(split.proposalMinute(ofDay: QueryCorpus.today + 1) == 16 * 60 + 30)
        #expect(split.proposalMinute(ofDay: QueryCorpus.today) == 18 * 60)
        #expect(try queries().proposalMinute(ofDay: QueryCorpus.today + 4) == 18 * 60, "Saturday")
    }

    @Test func onlyTheLastThirtyFiveDaysSinceHistoryBeganAreProposed() throws {
        // The history begins on 02-02; the window on 02-04. Every day of the window confirmed: nothing waits.
        var current = try queries()
        for day in (QueryCorpus.today - UsageQueries.proposalDays + 1)..<QueryCorpus.today {
            current = try current.confirm(day: day, context: .none)
        }
        #expect(try current.pendingDay() == nil)
        #expect(try self.queries(now: at(18)).pendingDay() == QueryCorpus.today)
        _ = try self.queries().undo(day: Self.february2 + 5)
        #expect(try self.queries().pendingDay() == Self.february2 + 5)
        // Before any history, nothing before today is proposed.
        let empty = UsageQueries(
            store: nil, readings: current.readings, zone: .utc, workHours: .none, now: QueryCorpus.now, descriptors: [])
        #expect(try empty.pendingDay() == nil)
    }

    @Test func anAnswerIsKeptInTheStoreAndALaterOneReplacesIt() throws {
        let march5 = QueryCorpus.today - 5
        let proposal = try queries().proposal(for: march5)
        #expect(proposal.reading.tokens == 105 && proposal.reading.workTokens == 105 && proposal.reading.uses == 1)
        #expect(proposal.current == nil && !proposal.isToday && proposal.readings.cost.uncostedEvents == 1)
        _ = try queries().confirm(day: march5, context: try context("no-work"))

        let kept = try #require(try queries().schedule.confirmations[march5])
        #expect(kept.kinds == [.noWork] && kept.confirmedAt == QueryCorpus.now)
        #expect(kept.numbers == UnpromptKit.Confirmation.Numbers(uses: 1, workUses: 0, tokens: 105, workTokens: 0))
        #expect(kept.hours == (try WorkHours.parse("Mon-Fri 09:00-18:00").get()), "the hours in force, as numbers and back")
        #expect(kept.quarters == (march5 * 96)..<((march5 + 1) * 96))
        #expect(try queries().days(from: march5, through: march5)[0].workTokens == 0)
        let again = try queries().proposal(for: march5)
        #expect(again.current == kept && again.reading.workTokens == 105, "proposed without its own answer")

        let later = try queries(now: QueryCorpus.now + 60_000)
        _ = try later.confirm(day: march5, context: try context("worked 20:00-21:00", "elsewhere"))
        let store = try #require(try queries().store)
        #expect(try store.confirmations().count == 1)
        let replaced = try #require(try store.confirmations().first)
        #expect(replaced.kinds == [.worked, .elsewhere] && replaced.context.worked == WorkHours.Range(start: 1200, end: 1260))
        #expect(replaced.confirmedAt == QueryCorpus.now + 60_000 && replaced.incomplete)
        #expect(replaced.numbers.workTokens == 105, "15:00 is in the hours again")

        let (after, removed) = try queries().undo(day: march5)
        #expect(removed && after.schedule.confirmations.isEmpty)
        #expect(try store.confirmations().isEmpty)
        #expect(try queries().undo(day: march5).removed == false)
        #expect(throws: ConfirmationError.self) { try queries().confirm(day: QueryCorpus.today + 1, context: .none) }
    }

    @Test func theStreakCountsConfirmedDaysInARowAcrossTheMonthsEnd() throws {
        var current = try queries()
        #expect(current.streak() == Streak(days: 0, lastDay: nil))
        // 02-25 to 03-10: fourteen days, most of them without use.
        for day in (QueryCorpus.today - 13)...QueryCorpus.today { current = try current.confirm(day: day, context: .none) }
        #expect(current.streak() == Streak(days: 14, lastDay: QueryCorpus.today))
        #expect(try self.queries().streak() == Streak(days: 14, lastDay: QueryCorpus.today), "read back from the store")
        #expect(try self.queries().today().confirmations.streak.days == 14)
        _ = try self.queries().undo(day: Self.march1 + 2)
        #expect(try self.queries().streak() == Streak(days: 7, lastDay: QueryCorpus.today))
        #expect(try self.queries(now: at(9, day: QueryCorpus.today + 1)).streak() == Streak(days: 7, lastDay: QueryCorpus.today))
        #expect(try self.queries(now: at(9, day: QueryCorpus.today + 2)).streak() == Streak(days: 0, lastDay: nil))
        // Ending yesterday: the days before the gap.
        _ = try self.queries().undo(day: QueryCorpus.today)
        let before = try self.queries(now: at(9, day: Self.march1 + 2))
        #expect(before.streak() == Streak(days: 4 + 1 + 1, lastDay: Self.march1 + 1), "02-25 to 03-02 across the month's end")
    }

    /// 03-02 08:00 (3,000 tokens, before the hours) worked; 03-05 15:00 (105, in them) not: the split moves, the
    /// counts of every view do not.
    @Test func noWorkAndWorkedInOneWeekMoveTheSplitAndNoCount() throws {
        let before = try queries()
        let month = try before.month()
        let daily = try before.periods(by: .day, from: nil, through: nil)
        let snapshot = try before.snapshot()
        #expect(month.workTokens == 350 && month.workUses == 2)

        _ = try before.confirm(day: Self.march1 + 1, context: try context("worked 07:00-09:00"))
        _ = try before.confirm(day: Self.march1 + 4, context: try context("no-work"))
        let after = try queries()
        let answeredMonth = try after.month()
        #expect(answeredMonth.workTokens == 3_000 + 245 && answeredMonth.workUses == 2)
        #expect(answeredMonth.tokens == month.tokens && answeredMonth.uses == month.uses)
        #expect(answeredMonth.days.map(\.tokens) == month.days.map(\.tokens))
        let answeredDaily = try after.periods(by: .day, from: nil, through: nil)
        #expect(answeredDaily.total == daily.total && answeredDaily.totalReadings == daily.totalReadings)
        #expect(answeredDaily.entries.map(\.usage) == daily.entries.map(\.usage))
        #expect(answeredDaily.entries.compactMap(\.confirmation).map(\.day) == [Self.march1 + 1, Self.march1 + 4])
        let answeredSnapshot = try after.snapshot()
        #expect(answeredSnapshot.days.map(\.reading.tokens) == snapshot.days.map(\.reading.tokens))
        #expect(answeredSnapshot.today.estimate == snapshot.today.estimate)
        #expect(answeredSnapshot.days.filter { $0.reading.confirmation != nil }.count == 2)
    }

    /// From Monday 03-02 the hours are 07:00-15:00: 03-02 08:00 and today's morning are work, 03-05 15:00 is
    /// not; February keeps the old hours; today's hours are the new ones, and its proposal comes at 15:00.
    @Test func hoursChangedApplyFromTheirDayOnAndNeverBefore() throws {
        let february = try queries().month(2026 * 12 + 1)
        _ = try queries().confirm(day: Self.march1 + 1, context: try context("hours-changed Mon-Fri 07:00-15:00"))
        let queries = try self.queries()
        #expect(queries.workHours == (try WorkHours.parse("Mon-Fri 07:00-15:00").get()))
        let march = try queries.month()
        #expect(march.days.map(\.workTokens).filter { $0 > 0 } == [3_000, 245])
        #expect(try queries.month(2026 * 12 + 1).days == february.days, "the days before keep their split")
        #expect(queries.proposalMinute(ofDay: QueryCorpus.today) == 15 * 60)
        #expect(try self.queries(now: at(15)).pendingDay() == QueryCorpus.today)
    }
}
