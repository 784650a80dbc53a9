/// Calendar arithmetic on the proleptic Gregorian calendar, with days numbered from 1970-01-01 (day 0) and
/// months from year 0 (`year * 12 + month - 1`). Pure integer functions, the same everywhere a date is
/// read or shown, so the same instant is always the same day.
public enum CivilDate: Sendable {

    public static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The year, month and day of a day number.
    public static func civil(ofDay day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = day + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The day number of a date, or nil when the date does not exist (`2023-02-29`, month 13).
    public static func day(year: Int64, month: Int64, day: Int64) -> Int64? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(year: year, month: month) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day of a `YYYY-MM-DD` date, or nil when the text is not one.
    public static func day(parsing text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2])
        else { return nil }
        return Self.day(year: year, month: month, day: day)
    }

    public static func daysIn(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func month(ofDay day: Int64) -> Int64 {
        let date = civil(ofDay: day)
        return date.year * 12 + date.month - 1
    }

    /// The first day of a month number.
    public static func firstDay(ofMonth month: Int64) -> Int64 {
        Self.day(year: floorDivide(month, 12), month: month - floorDivide(month, 12) * 12 + 1, day: 1)!
    }

    /// The last day of a month number.
    public static func lastDay(ofMonth month: Int64) -> Int64 { firstDay(ofMonth: month + 1) - 1 }

    /// `YYYY-MM-DD`.
    public static func dateString(ofDay day: Int64) -> String {
        let date = civil(ofDay: day)
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` of milliseconds since 1970.
    public static func instantString(milliseconds: Int64) -> String {
        let seconds = floorDivide(milliseconds, 1000)
        let day = floorDivide(seconds, 86_400)
        let inDay = seconds - day * 86_400
        return dateString(ofDay: day) + "T" + pad(inDay / 3600, 2) + ":" + pad(inDay % 3600 / 60, 2) + ":"
            + pad(inDay % 60, 2) + "." + pad(milliseconds - seconds * 1000, 3) + "Z"
    }

    /// `YYYY-MM`.
    public static func monthString(ofMonth month: Int64) -> String {
        let year = floorDivide(month, 12)
        return pad(year, 4) + "-" + pad(month - year * 12 + 1, 2)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The UTC day of milliseconds since 1970.
    public static func day(ofMilliseconds milliseconds: Int64) -> Int64 {
        floorDivide(floorDivide(milliseconds, 1000), 86_400)
    }
}
