import Foundation
import Testing
import UnpromptKit

/// Work hours through time and context (`WorkSchedule`), and the answers as written (`Confirmation.Context`).
struct WorkScheduleTests {
    static let monday: Int64 = 20458  // 2026-01-05

    static func hours(_ text: String) throws -> WorkHours { try WorkHours.parse(text).get() }

    /// A confirmation of `day` with `answers`, keeping `hours` (the day's frozen hours, or the new ones with
    /// hours-changed), given at `at`.
    static func confirmation(_ day: Int64, _ answers: [String] = [], hours: String = "none", at: Int64 = 0) throws
        -> UnpromptKit.Confirmation
    {
        let context = try UnpromptKit.Confirmation.Context.parse(answers).get()
        return UnpromptKit.Confirmation(
            day: day, quarters: (day * 96)..<((day + 1) * 96), confirmedAt: at, context: context,
            hours: try context.hours ?? Self.hours(hours), numbers: UnpromptKit.Confirmation.Numbers())
    }

    @Test func noWorkMakesTheDaysOwnRangesPersonalAndWorkedMakesItsRangeWork() throws {
        let base = try Self.hours("Mon-Fri 09:00-18:00")
        let schedule = WorkSchedule(
            base: base,
            confirmations: [
                try Self.confirmation(Self.monday, ["no-work"], hours: "Mon-Fri 09:00-18:00"),
                try Self.confirmation(Self.monday + 1, ["worked 20:00-23:00"], hours: "Mon-Fri 09:00-18:00"),
            ])
        #expect(!schedule.isWork(day: Self.monday, minute: 10 * 60))
        #expect(schedule.isWork(day: Self.monday + 1, minute: 10 * 60), "the hours still hold beside the range")
        #expect(schedule.isWork(day: Self.monday + 1, minute: 21 * 60))
        #expect(!schedule.isWork(day: Self.monday + 1, minute: 23 * 60), "the range ends at 23:00")
        #expect(!schedule.isWork(day: Self.monday + 1, minute: 19 * 60))
        #expect(schedule.isWork(day: Self.monday + 2, minute: 10 * 60), "the next day is as the hours say")
        #expect(!WorkSchedule(base: base).removing(day: Self.monday).isWork(day: Self.monday + 5, minute: 600), "Saturday")
    }

    @Test func noWorkAndWorkedTogetherMeanOnlyTheRangeIsWork() throws {
        let schedule = WorkSchedule(
            base: try Self.hours("Mon-Fri 09:00-18:00"),
            confirmations: [try Self.confirmation(Self.monday, ["no-work", "worked 20:00-22:00"], hours: "Mon-Fri 09:00-18:00")])
        #expect(!schedule.isWork(day: Self.monday, minute: 10 * 60))
        #expect(schedule.isWork(day: Self.monday, minute: 21 * 60))
    }

    /// A range belongs to the day it starts on, past midnight too: a night's no-work frees the next morning,
    /// and a worked range over midnight is work on the next day's first hours.
    @Test func aNightRangeBelongsToTheDayItStartsOn() throws {
        let sunday = Self.monday - 1
        let saturday = Self.monday - 2
        let schedule = WorkSchedule(
            base: try Self.hours("Sun-Thu 22:00-06:00"),
            confirmations: [
                try Self.confirmation(sunday, ["no-work"], hours: "Sun-Thu 22:00-06:00"),
                try Self.confirmation(saturday, ["worked 23:00-02:00"], hours: "Sun-Thu 22:00-06:00"),
            ])
        #expect(!schedule.isWork(day: sunday, minute: 23 * 60))
        #expect(!schedule.isWork(day: Self.monday, minute: 3 * 60), "Sunday's shift, which was not worked")
        #expect(schedule.isWork(day: Self.monday, minute: 23 * 60), "Monday's own shift")
        #expect(schedule.isWork(day: saturday, minute: 23 * 60 + 30))
        #expect(schedule.isWork(day: sunday, minute: 60), "Saturday's range, past midnight")
        #expect(!schedule.isWork(day: sunday, minute: 2 * 60))
    }

    /// Base Mon-Fri 09:00-18:00; from Tuesday 2026-02-10 Mon-Fri 10:00-19:00; from Tuesday 2026-03-03 Mon-Thu
    /// 08:00-16:00. Each holds from its day until the next; the days before keep theirs.
    @Test func hoursChangedTwiceAcrossMonthsHoldFromTheirDayUntilTheNext() throws {
        let february10: Int64 = 20494
        let march3: Int64 = 20515
        let schedule = WorkSchedule(
            base: try Self.hours("Mon-Fri 09:00-18:00"),
            confirmations: [
                try Self.confirmation(march3, ["hours-changed Mon-Thu 08:00-16:00"], at: 300),
                try Self.confirmation(february10, ["hours-changed Mon-Fri 10:00-19:00"], at: 200),
            ])
        #expect(schedule.hours(onDay: Self.monday) == (try Self.hours("Mon-Fri 09:00-18:00")))
        #expect(schedule.hours(onDay: february10 - 1) == (try Self.hours("Mon-Fri 09:00-18:00")))
        #expect(schedule.hours(onDay: february10) == (try Self.hours("Mon-Fri 10:00-19:00")))
        #expect(schedule.hours(onDay: march3 - 1) == (try Self.hours("Mon-Fri 10:00-19:00")))
        #expect(schedule.hours(onDay: march3) == (try Self.hours("Mon-Thu 08:00-16:00")))
        #expect(schedule.hours(onDay: march3 + 60) == (try Self.hours("Mon-Thu 08:00-16:00")))
        // Monday 2026-02-09 at 09:30 is work; Wednesday 02-11 at 09:30 is not, at 18:30 it is; Friday 03-06 is off.
        #expect(schedule.isWork(day: february10 - 1, minute: 9 * 60 + 30))
        #expect(!schedule.isWork(day: february10 + 1, minute: 9 * 60 + 30))
        #expect(schedule.isWork(day: february10 + 1, minute: 18 * 60 + 30))
        #expect(!schedule.isWork(day: march3 + 3, minute: 10 * 60))
        // Without the February change, its days are the base's again; March's still holds.
        let undone = schedule.removing(day: february10)
        #expect(undone.hours(onDay: february10 + 1) == (try Self.hours("Mon-Fri 09:00-18:00")))
        #expect(undone.hours(onDay: march3 + 1) == (try Self.hours("Mon-Thu 08:00-16:00")))
    }

    @Test func aConfirmedDayKeepsItsHoursUnlessAChangeOnOrBeforeItWasGivenLater() throws {
        let day = Self.monday + 7
        let frozen = try Self.confirmation(day, hours: "Mon-Fri 09:00-18:00", at: 100)
        let base = try Self.hours("Mon-Fri 07:00-15:00")
        // The settings file's hours changed after the day was confirmed: the day keeps its own.
        #expect(WorkSchedule(base: base, confirmations: [frozen]).hours(onDay: day) == (try Self.hours("Mon-Fri 09:00-18:00")))
        let earlier = try Self.confirmation(day - 3, ["hours-changed Mon-Fri 10:00-19:00"], at: 50)
        #expect(
            WorkSchedule(base: base, confirmations: [frozen, earlier]).hours(onDay: day) == (try Self.hours("Mon-Fri 09:00-18:00")),
            "a change given before the day's answer is already in it")
        let later = try Self.confirmation(day - 3, ["hours-changed Mon-Fri 10:00-19:00"], at: 200)
        #expect(
            WorkSchedule(base: base, confirmations: [frozen, later]).hours(onDay: day) == (try Self.hours("Mon-Fri 10:00-19:00")),
            "the newer word about the days from day - 3 on")
        let after = try Self.confirmation(day + 1, ["hours-changed Mon-Fri 10:00-19:00"], at: 200)
        #expect(
            WorkSchedule(base: base, confirmations: [frozen, after]).hours(onDay: day) == (try Self.hours("Mon-Fri 09:00-18:00")),
            "a change never reaches the days before it")
    }

    @Test func answersAreParsedOneKindEachAndALaterOneReplacesAnEarlier() throws {
        let context = try UnpromptKit.Confirmation.Context.parse([
            "elsewhere", "worked 20:00-23:00", "no-work", "worked 21:00-01:00", "hours-changed Mon-Fri 10:00-19:00",
        ]).get()
        #expect(context.kinds == [.noWork, .worked, .hoursChanged, .elsewhere])
        #expect(context.worked == WorkHours.Range(start: 21 * 60, end: 60))
        #expect(context.hours == (try Self.hours("Mon-Fri 10:00-19:00")))
        #expect(context.bits == 15)
        #expect(context.answers == ["no-work", "worked 21:00-01:00", "hours-changed Mon-Fri 10:00-19:00", "elsewhere"])
        #expect(try UnpromptKit.Confirmation.Context.parse(context.answers).get() == context)
        #expect(UnpromptKit.Confirmation.Kind.kinds(ofBits: 2 | 8) == [.worked, .elsewhere])
        #expect(try UnpromptKit.Confirmation.Context.parse(["hours-changed none"]).get().hours == WorkHours.none)

        for (answer, message) in [
            ("busy", "unknown context 'busy'"), ("worked", "worked HH:MM-HH:MM"), ("worked 20:10-23:00", "quarter-hour"),
            ("no-work today", "takes nothing after it"), ("hours-changed", "needs the new hours"),
            ("hours-changed Mon-Fri 9-18", "column"), ("5 uses", "unknown context '5'"),
        ] {
            guard case .failure(let problem) = UnpromptKit.Confirmation.Context.parse([answer]) else {
                Issue.record("'\(answer)' was accepted")
                continue
            }
            #expect(problem.message.contains(message), "\(answer): \(problem.message)")
        }
    }

    @Test func localDatesAreTodayYesterdayOrAnExistingDate() {
        #expect(LocalDateExpression.parse("today")?.day(today: 20522) == 20522)
        #expect(LocalDateExpression.parse("Yesterday")?.day(today: 20522) == 20521)
        #expect(LocalDateExpression.parse("2026-03-01")?.day(today: 0) == 20513)
        for text in ["2026-02-30", "2026-3-1", "20260301", "tomorrow", "", "2026-03-01T00:00", "2026-03", "7d", "1W"] {
            #expect(LocalDateExpression.parse(text) == nil, "\(text)")
        }
    }
}
