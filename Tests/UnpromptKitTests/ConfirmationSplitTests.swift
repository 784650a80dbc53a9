import Foundation
import Testing
import UnpromptKit
import UnpromptTestSupport

/// Days with confirmations (`DayReadings` with a `WorkSchedule`): context moves the split and marks the day,
/// never a count; "since" is measured over the day's quarter-hours as confirmed.
struct ConfirmationSplitTests {
    static let hour: Int64 = 3_600_000
    static let monday: Int64 = 20458  // 2026-01-05

    /// Milliseconds of a UTC time on a day number.
    static func at(_ day: Int64, _ hours: Int64, _ minutes: Int64 = 0) -> Int64 { (day * 24 + hours) * hour + minutes * 60_000 }

    static func days(
        _ times: [(Int64, Int64)], zone: String = "UTC", schedule: WorkSchedule, from: Int64, through: Int64
    ) -> [DayReading] {
        RecordTimes.days(times, zone: zone, schedule: schedule, from: from, through: through)
    }

    /// The confirmation a day's reading makes in `zone`, numbers included.
    static func confirm(
        _ day: Int64, _ answers: [String], times: [(Int64, Int64)], zone: String = "UTC", base: WorkHours,
        others: [UnpromptKit.Confirmation] = [], at: Int64 = 0
    ) throws -> UnpromptKit.Confirmation {
        let calendar = LocalCalendar(timeZone: TimeZone(identifier: zone)!)
        let context = try UnpromptKit.Confirmation.Context.parse(answers).get()
        let schedule = WorkSchedule(base: base, confirmations: others)
        let draft = UnpromptKit.Confirmation(
            day: day, quarters: calendar.firstQuarter(ofDay: day)..<calendar.firstQuarter(ofDay: day + 1), confirmedAt: at,
            context: context, hours: context.hours ?? schedule.hours(onDay: day), numbers: UnpromptKit.Confirmation.Numbers())
        let reading = days(times, zone: zone, schedule: schedule.replacing(draft), from: day, through: day)[0]
        return draft.with(numbers: UnpromptKit.Confirmation.Numbers(reading))
    }

    /// A week: Monday 10:00 and 20:30, Tuesday 09:30, Wednesday 11:00 and 21:00, Thursday 08:00.
    static let week: [(Int64, Int64)] = [
        (at(monday, 10), 100), (at(monday, 20, 30), 200), (at(monday + 1, 9, 30), 400), (at(monday + 2, 11), 800),
        (at(monday + 2, 21), 1600), (at(monday + 3, 8), 3200),
    ]

    @Test func noWorkAndWorkedInTheSameWeekMoveOnlyTheSplit() throws {
        let base = try WorkHours.parse("Mon-Fri 09:00-18:00").get()
        let plain = Self.days(Self.week, schedule: WorkSchedule(base: base), from: Self.monday, through: Self.monday + 6)
        #expect(plain.map(\.workTokens) == [100, 400, 800, 0, 0, 0, 0])
        #expect(plain.map(\.workUses) == [1, 1, 1, 0, 0, 0, 0])
        let confirmations = [
            try Self.confirm(Self.monday + 1, ["no-work"], times: Self.week, base: base),
            try Self.confirm(Self.monday + 2, ["worked 20:00-22:00"], times: Self.week, base: base),
            try Self.confirm(Self.monday + 3, ["worked 07:00-09:00", "elsewhere"], times: Self.week, base: base),
        ]
        let answered = Self.days(
            Self.week, schedule: WorkSchedule(base: base, confirmations: confirmations), from: Self.monday, through: Self.monday + 6)
        #expect(answered.map(\.workTokens) == [100, 0, 2400, 3200, 0, 0, 0])
        #expect(answered.map(\.workUses) == [1, 0, 2, 1, 0, 0, 0])
        #expect(answered.map(\.tokens) == plain.map(\.tokens), "the counts never move")
        #expect(answered.map(\.uses) == plain.map(\.uses))
        #expect(answered.map(\.band) == plain.map(\.band))
        #expect(answered.map { $0.confirmation?.kinds ?? [] } == [[], [.noWork], [.worked], [.worked, .elsewhere], [], [], []])
        #expect(answered[3].confirmation?.incomplete == true)
        // Each kept the numbers it confirmed, with its context applied, and nothing came since.
        #expect(confirmations.map(\.numbers.workTokens) == [0, 2400, 3200])
        #expect(confirmations.map(\.numbers.tokens) == [400, 2400, 3200])
        #expect(answered.allSatisfy { $0.usesSince == 0 && $0.tokensSince == 0 })
    }

    /// Every kind of answer on every day of a seeded history: the tokens and uses of every day, and their sums,
    /// are the same as with no answer at all.
    @Test func theCountsNeverMoveWhateverTheAnswers() throws {
        var generator = SeededRandom(seed: 15)
        var times: [(Int64, Int64)] = []
        for day in 0..<28 {
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                times.append((Self.at(Self.monday + Int64(day), Int64.random(in: 0...23), Int64.random(in: 0...59)), Int64.random(in: 1...10_000)))
            }
        }
        let base = try WorkHours.parse("Mon-Fri 09:00-12:30 13:30-18:00; Sun-Thu 22:00-02:00").get()
        let answers: [[String]] = [
            [], ["no-work"], ["worked 19:00-23:30"], ["hours-changed Mon-Sun 00:00-24:00"], ["elsewhere"], ["no-work", "worked 23:00-03:00"],
            ["hours-changed none", "worked 08:00-09:00"],
        ]
        var confirmations: [UnpromptKit.Confirmation] = []
        for day in 0..<28 where day % 2 == 0 {
            confirmations.append(
                try Self.confirm(Self.monday + Int64(day), answers[day / 2 % answers.count], times: times, base: base, others: confirmations))
        }
        for zone in ["UTC", "Asia/Kathmandu", "America/St_Johns"] {
            let plain = Self.days(times, zone: zone, schedule: WorkSchedule(base: base), from: Self.monday - 1, through: Self.monday + 28)
            let answered = Self.days(
                times, zone: zone, schedule: WorkSchedule(base: base, confirmations: confirmations), from: Self.monday - 1,
                through: Self.monday + 28)
            #expect(answered.map(\.tokens) == plain.map(\.tokens), "\(zone)")
            #expect(answered.map(\.uses) == plain.map(\.uses), "\(zone)")
            #expect(answered.reduce(0) { $0 + $1.tokens } == times.reduce(0) { $0 + $1.1 }, "\(zone)")
            #expect(answered.allSatisfy { $0.workTokens <= $0.tokens && $0.workUses <= $0.uses })
        }
    }

    /// Paris: 2026-03-29 has 23 hours (02:00 CET is 03:00 CEST), 2026-10-25 has 25 (03:00 CEST is 02:00 CET
    /// again). One token every quarter-hour; `worked 01:00-04:00` holds the local quarter-hours that exist.
    @Test func onDaylightSavingDaysAWorkedRangeHoldsTheLocalHoursThatExist() throws {
        let spring: Int64 = 20541
        let autumn: Int64 = 20751
        let paris = LocalCalendar(timeZone: TimeZone(identifier: "Europe/Paris")!)
        for (day, quarters, worked) in [(spring, 92, 8), (autumn, 100, 16)] {
            let first = paris.firstQuarter(ofDay: day)
            let last = paris.firstQuarter(ofDay: day + 1)
            #expect(last - first == Int64(quarters))
            let times = (first..<last).map { ($0 * Bucket.quarterMilliseconds + 60_000, Int64(1)) }
            let confirmation = try Self.confirm(day, ["worked 01:00-04:00"], times: times, zone: "Europe/Paris", base: .none)
            #expect(confirmation.quarters == first..<last)
            #expect(confirmation.numbers.tokens == Int64(quarters) && confirmation.numbers.workTokens == Int64(worked))
            let reading = Self.days(
                times, zone: "Europe/Paris", schedule: WorkSchedule(base: .none, confirmations: [confirmation]), from: day,
                through: day)[0]
            #expect(reading.tokens == Int64(quarters) && reading.workTokens == Int64(worked), "\(day)")
            #expect(reading.tokensSince == 0)
        }
    }

    @Test func aConfirmedDayThatGetsMoreLogsStaysConfirmedAndShowsWhatCameSince() throws {
        let base = try WorkHours.parse("Mon-Fri 09:00-18:00").get()
        let confirmation = try Self.confirm(Self.monday, ["no-work"], times: Self.week, base: base)
        #expect(confirmation.numbers == UnpromptKit.Confirmation.Numbers(uses: 2, workUses: 0, tokens: 300, workTokens: 0))
        // Later: a record at 11:00 (inside the first use's two hours), and two uses at 17:00 and 23:45.
        let more = Self.week + [(Self.at(Self.monday, 11), 5), (Self.at(Self.monday, 17), 7), (Self.at(Self.monday, 23, 45), 11)]
        let reading = Self.days(
            more, schedule: WorkSchedule(base: base, confirmations: [confirmation]), from: Self.monday, through: Self.monday)[0]
        #expect(reading.confirmation == confirmation)
        #expect(reading.usesSince == 2 && reading.tokensSince == 23)
        #expect(reading.tokens == 323 && reading.workTokens == 0, "still no work that day")
    }

    /// Confirmed in UTC, seen in Kolkata (+05:30): the date stays confirmed with its context, its split in the
    /// new zone is the new zone's day, and "since" still compares the day as it was confirmed: nothing changed.
    @Test func aChangeOfTimeZoneKeepsTheAnswerAndMovesNothingSince() throws {
        let base = try WorkHours.parse("Mon-Fri 09:00-18:00").get()
        let confirmation = try Self.confirm(Self.monday + 2, ["no-work"], times: Self.week, base: base)
        let schedule = WorkSchedule(base: base, confirmations: [confirmation])
        let kolkata = Self.days(Self.week, zone: "Asia/Kolkata", schedule: schedule, from: Self.monday, through: Self.monday + 3)
        let utc = Self.days(Self.week, schedule: schedule, from: Self.monday, through: Self.monday + 3)
        #expect(kolkata.map { $0.confirmation != nil } == [false, false, true, false])
        // Wednesday 21:00Z is Thursday 02:30 in Kolkata: Wednesday there holds only the 11:00Z record (16:30 IST).
        #expect(kolkata[2].tokens == 800 && utc[2].tokens == 2400)
        #expect(kolkata[2].workTokens == 0, "no work on that date, in any zone")
        #expect(kolkata[2].tokensSince == 0 && kolkata[2].usesSince == 0)
        #expect(kolkata.reduce(0) { $0 + $1.tokens } == utc.reduce(0) { $0 + $1.tokens })
    }
}
