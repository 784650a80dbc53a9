/// One end of a view's range, as `--since` and `--until` write it: a local date (`2026-03-01`), a month
/// (`2026-03`, its first day as a start and its last as an end), or a day counted back from today: `today`,
/// `yesterday`, `7d` (seven days before today), `4w` (28 days before), `3m` (the same day of the month three
/// months before, or that month's last day when it is shorter: 3m before May 31 is February 28 or 29).
///
/// "Today" is the local day of the clock in the view's zone, so a bound is a pure function of the clock and
/// the zone: it counts local days, never 24-hour spans, and a clock change between two days moves nothing.
public enum DateBound: Sendable, Equatable {
    case date(Int64)
    case month(Int64)
    case today
    case yesterday
    case daysAgo(Int64)
    case weeksAgo(Int64)
    case monthsAgo(Int64)

    /// The most days, weeks or months a bound counts back (and the most periods of `--last`).
    public static let maximumCount: Int64 = 10_000

    public enum ParseError: Error, Equatable {
        /// Neither a date, a month, `today`, `yesterday` nor a count with `d`, `w` or `m`.
        case malformed
        /// Shaped like a date, but no such day: `2023-02-29`.
        case notADate
        /// Shaped like a month, but no such month: `2026-13`.
        case notAMonth
        /// A count of 0, or over `maximumCount`.
        case countOutOfRange
    }

    public static func parse(_ text: String) throws(ParseError) -> DateBound {
        switch text {
        case "today": return .today
        case "yesterday": return .yesterday
        default: break
        }
        if let unit = text.last, "dwm".contains(unit), text.count > 1 {
            let count = try Self.count(String(text.dropLast()))
            switch unit {
            case "d": return .daysAgo(count)
            case "w": return .weeksAgo(count)
            default: return .monthsAgo(count)
            }
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int64(parts[0]), let month = Int64(parts[1])
        else { throw .malformed }
        if parts.count == 3 {
            guard let day = Int64(parts[2]), let number = CivilDate.day(year: year, month: month, day: day) else {
                throw .notADate
            }
            return .date(number)
        }
        guard (1...12).contains(month) else { throw .notAMonth }
        return .month(year * 12 + month - 1)
    }

    /// A count of periods, `1…maximumCount`, in ASCII digits (`--last N`, and the number of `7d`).
    public static func count(_ text: String) throws(ParseError) -> Int64 {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .malformed }
        guard let count = Int64(text), count >= 1, count <= maximumCount else { throw .countOutOfRange }
        return count
    }

    /// The local day it names when today is `today`: for a month, its first day, or its last as an `end`.
    public func day(today: Int64, end: Bool) -> Int64 {
        switch self {
        case .date(let day): return day
        case .month(let month): return end ? CivilDate.lastDay(ofMonth: month) : CivilDate.firstDay(ofMonth: month)
        case .today: return today
        case .yesterday: return today - 1
        case .daysAgo(let count): return today - count
        case .weeksAgo(let count): return today - 7 * count
        case .monthsAgo(let count):
            let date = CivilDate.civil(ofDay: today)
            let month = date.year * 12 + date.month - 1 - count
            let first = CivilDate.firstDay(ofMonth: month)
            return first + min(date.day, CivilDate.lastDay(ofMonth: month) - first + 1) - 1
        }
    }
}

/// The local days a period view covers (either end open when nil): from `--since` and `--until`, or the last
/// `N` periods (`--last N`): the period holding today and the `N − 1` before it, whole; with `--until`, the
/// period holding its day, through that day, and the `N − 1` before it.
public struct ViewRange: Sendable, Equatable {
    public let fromDay: Int64?
    public let throughDay: Int64?

    public init(fromDay: Int64?, throughDay: Int64?) {
        self.fromDay = fromDay
        self.throughDay = throughDay
    }

    public enum Problem: Error, Equatable {
        case sinceAfterUntil
        /// `--last` and `--since` both say where the range starts.
        case lastWithSince
    }

    public static func resolve(
        since: DateBound?, until: DateBound?, last: Int64?, period: LocalCalendar.Period, today: Int64
    ) throws(Problem) -> ViewRange {
        let throughDay = until?.day(today: today, end: true)
        if let last {
            guard since == nil else { throw .lastWithSince }
            let key = period.key(ofDay: throughDay ?? today)
            return ViewRange(
                fromDay: period.firstDay(ofKey: period.key(key, advancedBy: 1 - last)),
                throughDay: throughDay ?? period.lastDay(ofKey: key))
        }
        let fromDay = since?.day(today: today, end: false)
        if let fromDay, let throughDay, fromDay > throughDay { throw .sinceAfterUntil }
        return ViewRange(fromDay: fromDay, throughDay: throughDay)
    }
}
