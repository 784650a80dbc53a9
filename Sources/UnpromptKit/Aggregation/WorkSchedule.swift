/// Work hours through time, and the days the person confirmed: which quarter-hours are work.
///
/// Work hours are effective-dated. The settings file's hours hold until the first `hours-changed` answer; each
/// such answer's hours hold from its day until the next one's. A confirmed day keeps the hours it was confirmed
/// with, unless an `hours-changed` on or before it was given later (the person's newer word about those
/// days). So no change rewrites the days before it, and a confirmed day's split depends only on what its
/// confirmations hold: every device with the same confirmations and buckets shows the same split.
///
/// A quarter-hour is work when a range that starts on its local day holds it, or a range of the day before
/// that runs past midnight does (a range belongs to the day it starts on). On a day with `no-work` its own
/// ranges are personal; its `worked` range is work, whatever the hours.
public struct WorkSchedule: Sendable {
    /// The settings file's hours: before any change.
    public let base: WorkHours
    /// By day.
    public let confirmations: [Int64: Confirmation]
    /// Days with `hours-changed`, in order.
    private let changes: [Confirmation]

    public init(base: WorkHours, confirmations: [Confirmation] = []) {
        self.base = base
        var byDay: [Int64: Confirmation] = [:]
        for confirmation in confirmations { byDay[confirmation.day] = confirmation }
        self.confirmations = byDay
        changes = byDay.values.filter(\.changesHours).sorted { $0.day < $1.day }
    }

    /// With `confirmation` in place of its day's (a proposal with new context, before it is kept).
    public func replacing(_ confirmation: Confirmation) -> WorkSchedule {
        WorkSchedule(base: base, confirmations: confirmations.values.filter { $0.day != confirmation.day } + [confirmation])
    }

    /// Without the day's confirmation: the day as it is proposed.
    public func removing(day: Int64) -> WorkSchedule {
        WorkSchedule(base: base, confirmations: confirmations.values.filter { $0.day != day })
    }

    /// The work hours whose ranges starting on `day` are its work (see the type's rules).
    public func hours(onDay day: Int64) -> WorkHours {
        let change = changes.last { $0.day <= day }
        guard let own = confirmations[day] else { return change?.hours ?? base }
        if let change, change.day != day, change.confirmedAt > own.confirmedAt { return change.hours }
        return own.hours
    }

    /// Whether the quarter-hour is work time in `calendar`'s zone, by its first instant's local time.
    public func isWork(quarter: Int64, in calendar: LocalCalendar) -> Bool {
        if confirmations.isEmpty { return base.contains(quarter: quarter, in: calendar) }
        let local = WorkHours.localTime(ofQuarter: quarter, in: calendar)
        return isWork(day: local.day, minute: local.minute)
    }

    /// Whether `minute` of the local `day` is work time.
    public func isWork(day: Int64, minute: Int) -> Bool {
        let today = confirmations[day]
        let yesterday = confirmations[day - 1]
        if let range = today?.context.worked, range.startsAt(minute: minute) { return true }
        if let range = yesterday?.context.worked, range.carries(minute: minute) { return true }
        let weekday = WorkHours.weekday(ofDay: day)
        if today?.noWork != true, hours(onDay: day).starts(weekday: weekday, minute: minute) { return true }
        if yesterday?.noWork != true, hours(onDay: day - 1).carries(into: weekday, minute: minute) { return true }
        return false
    }
}
