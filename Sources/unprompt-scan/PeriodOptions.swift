import UnpromptKit

/// The range and weeks of `daily`, `weekly` and `monthly`: `--since`, `--until` and `--last` (`DateBound`,
/// `ViewRange`, resolved against today in the view's zone), and `--start-of-week`.
enum PeriodOptions {
    static func range(_ arguments: Arguments, period: LocalCalendar.Period, today: Int64) throws(UsageError) -> ViewRange {
        let since = try bound(arguments.single(Option.since.name), flag: Option.since.name)
        let until = try bound(arguments.single(Option.until.name), flag: Option.until.name)
        var last: Int64?
        if let text = arguments.single(Option.last.name) {
            do {
                last = try DateBound.count(text)
            } catch {
                throw UsageError("--last takes a number of periods from 1 to \(DateBound.maximumCount), got '\(text)'")
            }
        }
        do {
            return try ViewRange.resolve(since: since, until: until, last: last, period: period, today: today)
        } catch {
            switch error {
            case .sinceAfterUntil: throw UsageError("--since is after --until")
            case .lastWithSince: throw UsageError("--last and --since both say where the view starts: give one of them")
            }
        }
    }

    static func bound(_ text: String?, flag: String) throws(UsageError) -> DateBound? {
        guard let text else { return nil }
        do {
            return try DateBound.parse(text)
        } catch {
            switch error {
            case .malformed:
                throw UsageError(
                    "\(flag): expected a local date YYYY-MM-DD, a month YYYY-MM, today, yesterday, or Nd, Nw, Nm (days, weeks, months ago), got '\(text)'")
            case .notADate: throw UsageError("\(flag): '\(text)' is not a date")
            case .notAMonth: throw UsageError("\(flag): '\(text)' is not a month")
            case .countOutOfRange: throw UsageError("\(flag): '\(text)' counts back 1 to \(DateBound.maximumCount) days, weeks or months")
            }
        }
    }

    /// `--start-of-week mon|sun`, else the locale's (`WeekStart.preferred`).
    static func weekStart(_ arguments: Arguments, environment: [String: String]) throws(UsageError) -> LocalCalendar.WeekStart {
        guard let text = arguments.single(Option.startOfWeek.name) else { return .preferred(environment: environment) }
        guard let start = LocalCalendar.WeekStart(rawValue: text) else {
            throw UsageError("--start-of-week: expected mon or sun, got '\(text)'")
        }
        return start
    }
}
