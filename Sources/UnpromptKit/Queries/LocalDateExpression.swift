/// A local date as a person writes it on the command line: `today`, `yesterday` or `YYYY-MM-DD`, resolved
/// against the view's today (so it follows `--tz` and the clock).
public enum LocalDateExpression: Sendable, Equatable {
    case today
    case yesterday
    /// A day number (days since 1970-01-01).
    case date(Int64)

    public static let written = "today, yesterday or a date YYYY-MM-DD"

    /// Nil when the text is none of the forms, or names a date that does not exist (`2026-02-30`).
    public static func parse(_ text: String) -> LocalDateExpression? {
        switch text.lowercased() {
        case "today": return .today
        case "yesterday": return .yesterday
        default: break
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
            let number = CivilDate.day(year: year, month: month, day: day)
        else { return nil }
        return .date(number)
    }

    /// The day number, with `today` the view's local day.
    public func day(today: Int64) -> Int64 {
        switch self {
        case .today: today
        case .yesterday: today - 1
        case .date(let day): day
        }
    }
}
