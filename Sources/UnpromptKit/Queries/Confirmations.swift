/// One day's proposal, as `confirm` asks about it: its uses personal and at work, tokens and cost, measured
/// and split as the views show them but without the day's own confirmation (a new answer replaces it).
public struct DayProposal: Sendable {
    public let day: Int64
    /// The day's numbers as proposed: the split by the work hours in force and the context of the days around it.
    public let reading: DayReading
    /// Cost and water of the day's buckets.
    public let readings: ReadingCell
    /// The work hours of the day, as proposed.
    public let hours: WorkHours
    /// The answer the day holds now, if any (shown beside the proposal, and replaced by a new one).
    public let current: Confirmation?
    /// Whether it is the view's today.
    public let isToday: Bool

    /// No use and no tokens that day.
    public var isEmpty: Bool { reading.tokens == 0 && reading.uses == 0 }
}

/// Confirmed days in a row, ending today or yesterday (yesterday when today is not confirmed yet). It counts
/// days, whatever they hold.
public struct Streak: Sendable, Equatable {
    public let days: Int
    /// The streak's last day; nil when it is empty.
    public let lastDay: Int64?

    public init(days: Int, lastDay: Int64?) {
        self.days = days
        self.lastDay = lastDay
    }
}

/// What the views say about confirmations: the streak, and the day whose proposal is waiting, if any.
public struct ConfirmationStatus: Sendable, Equatable {
    public let streak: Streak
    /// What `confirm` proposes by default (`UsageQueries.pendingDay`).
    public let proposal: Int64?
}

/// Why a day cannot be confirmed.
public enum ConfirmationError: Error {
    /// The day is after the view's today: nothing of it has been measured yet.
    case afterToday(Int64)
    case store(StoreError)
}

extension UsageQueries {
    /// How far back a waiting proposal is looked for: the days a snapshot carries, so a widget sees each one.
    public static let proposalDays = Snapshot.dayCount
    /// When no work hours end on a day, its proposal comes at this minute (18:00).
    public static let defaultProposalMinute = 18 * 60

    /// The local minute of `day` at which its proposal is made: when the last of its work ranges ends (past
    /// 1,440 for a range that ends after midnight), 18:00 on a day without any.
    public func proposalMinute(ofDay day: Int64) -> Int {
        let weekday = WorkHours.weekday(ofDay: day)
        let ends = schedule.hours(onDay: day).groups.filter { $0.days.contains(weekday) }.flatMap(\.ranges)
            .map { $0.crossesMidnight ? $0.end + 1440 : $0.end }
        return ends.max() ?? Self.defaultProposalMinute
    }

    /// The day `confirm` proposes by default: today once its work hours have ended (18:00 on a day without
    /// any), unless it is confirmed; otherwise the latest day before today that is not confirmed, within the
    /// last `proposalDays` days and since the store's history began. Nil when there is none.
    public func pendingDay() throws(StoreError) -> Int64? {
        let today = currentDay
        let local = CivilDate.floorDivide(now, 1000) + Int64(zone.offsetMinutes(at: now) * 60)
        let minute = Int((local - CivilDate.floorDivide(local, 86_400) * 86_400) / 60)
        if schedule.confirmations[today] == nil, minute >= proposalMinute(ofDay: today) { return today }
        guard let first = try store?.firstUsageQuarter() else { return nil }
        let earliest = max(calendar.day(ofQuarter: first), today - Self.proposalDays + 1)
        var day = today - 1
        while day >= earliest {
            if schedule.confirmations[day] == nil { return day }
            day -= 1
        }
        return nil
    }

    /// Confirmed days in a row, ending today or yesterday.
    public func streak() -> Streak {
        var day = currentDay
        if schedule.confirmations[day] == nil { day -= 1 }
        let last = day
        var count = 0
        while schedule.confirmations[day] != nil {
            count += 1
            day -= 1
        }
        return Streak(days: count, lastDay: count > 0 ? last : nil)
    }

    public func confirmationStatus() throws(StoreError) -> ConfirmationStatus {
        ConfirmationStatus(streak: streak(), proposal: try pendingDay())
    }

    /// The day as `confirm` proposes it.
    public func proposal(for day: Int64) throws(StoreError) -> DayProposal {
        let proposed = schedule.removing(day: day)
        let reading = try days(from: day, through: day, schedule: proposed)[0]
        let rows = calendar.partition(try buckets(fromDay: day, throughDay: day), by: .day, fromDay: day, throughDay: day)[day] ?? []
        return DayProposal(
            day: day, reading: reading, readings: ReadingCell(rows, readings), hours: proposed.hours(onDay: day),
            current: schedule.confirmations[day], isToday: day == currentDay)
    }

    /// The confirmation `context` makes of `proposal` at the clock's moment, with the numbers it confirms (the
    /// day split with the context applied); nothing is kept.
    public func confirmation(of proposal: DayProposal, context: Confirmation.Context) throws(StoreError) -> Confirmation {
        let day = proposal.day
        let draft = Confirmation(
            day: day, quarters: calendar.firstQuarter(ofDay: day)..<calendar.firstQuarter(ofDay: day + 1), confirmedAt: now,
            context: context, hours: context.hours ?? proposal.hours, numbers: Confirmation.Numbers())
        let reading = try days(from: day, through: day, schedule: schedule.removing(day: day).replacing(draft))[0]
        return draft.with(numbers: Confirmation.Numbers(reading))
    }

    /// Confirms `day` with `context` (none: as proposed), in place of any earlier answer, and returns the
    /// queries that see it.
    public func confirm(day: Int64, context: Confirmation.Context) throws(ConfirmationError) -> UsageQueries {
        guard day <= currentDay else { throw .afterToday(day) }
        do throws(StoreError) {
            let confirmation = try confirmation(of: try proposal(for: day), context: context)
            guard let store else { throw StoreError(message: "no store to keep the answer in", busy: false) }
            let kept = try store.save(confirmation)
            return replacing(confirmations: Array(schedule.confirmations.values.filter { $0.day != day }) + [kept])
        } catch {
            throw .store(error)
        }
    }

    /// Removes the day's confirmation; `removed` is false when it had none.
    public func undo(day: Int64) throws(StoreError) -> (queries: UsageQueries, removed: Bool) {
        guard let store else { return (self, false) }
        let removed = try store.removeConfirmation(day: day, at: now)
        return (replacing(confirmations: Array(schedule.confirmations.values.filter { $0.day != day })), removed)
    }

    private func replacing(confirmations: [Confirmation]) -> UsageQueries {
        UsageQueries(
            store: store, readings: readings, zone: zone, workHours: schedule.base, now: now,
            derivedWindows: derivedWindows, confirmations: confirmations, devices: devices)
    }
}
