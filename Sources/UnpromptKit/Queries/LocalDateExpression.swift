/// A local date as a person writes it on the command line: `today`, `yesterday` or `YYYY-MM-DD`, resolved
/// against the view's today (so it follows `--tz` and the clock).
public enum LocalDateExpression: Sendable, Equatable {
    case today
    case yesterday
    /// A day number (days since 1970-01-01).
    case date(Int64)

    public static let written = "today, yesterday or a date YYYY-MM-DD"

    /// Nil when the text is none of the forms, or names a date that does not exist (`2026-02-30`): the forms of
    /// `DateBound` that name one day, in any case (`Today`).
    public static func parse(_ text: String) -> LocalDateExpression? {
        switch try? DateBound.parse(text.lowercased()) {
        case .today?: .today
        case .yesterday?: .yesterday
        case .date(let day)?: .date(day)
        default: nil
        }
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
