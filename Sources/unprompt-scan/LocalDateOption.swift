import UnpromptKit

/// `--since`/`--until` as a local day number.
enum LocalDateOption {
    static func parse(_ text: String?, flag: String, period: LocalCalendar.Period, end: Bool) throws(UsageError) -> Int64? {
        guard let text else { return nil }
        let expected = period == .day
            ? "a local date YYYY-MM-DD (or a month YYYY-MM)" : "a month YYYY-MM (or a local date YYYY-MM-DD)"
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 4, parts[1].count == 2,
            parts.count == 2 || parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int64(parts[0]), let month = Int64(parts[1])
        else { throw UsageError("\(flag): expected \(expected), got '\(text)'") }
        if parts.count == 3 {
            guard let day = Int64(parts[2]), let number = CivilDate.day(year: year, month: month, day: day) else {
                throw UsageError("\(flag): '\(text)' is not a date")
            }
            return number
        }
        guard (1...12).contains(month) else { throw UsageError("\(flag): '\(text)' is not a month") }
        let first = CivilDate.day(year: year, month: month, day: 1)!
        return end ? first + CivilDate.daysIn(year: year, month: month) - 1 : first
    }
}
