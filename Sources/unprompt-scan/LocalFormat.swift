import Foundation
import UnpromptKit

/// Instants, durations and counts as the views print them: local times in the view's zone, compact
/// numbers for grid cells.
enum LocalFormat {
    /// `HH:MM` (or `HH:MM:SS`) of an instant in the calendar's zone.
    static func time(_ milliseconds: Int64, _ calendar: LocalCalendar, seconds: Bool = false) -> String {
        let local = local(milliseconds, calendar)
        let inDay = local - CivilDate.floorDivide(local, 86_400) * 86_400
        return seconds
            ? String(format: "%02lld:%02lld:%02lld", inDay / 3600, inDay % 3600 / 60, inDay % 60)
            : String(format: "%02lld:%02lld", inDay / 3600, inDay % 3600 / 60)
    }

    /// `HH:MM` when the instant is on `today`, else `YYYY-MM-DD HH:MM`, in the calendar's zone.
    static func moment(_ milliseconds: Int64, _ calendar: LocalCalendar, today: Int64) -> String {
        let day = calendar.day(ofMilliseconds: milliseconds)
        return (day == today ? "" : CivilDate.dateString(ofDay: day) + " ") + time(milliseconds, calendar)
    }

    private static func local(_ milliseconds: Int64, _ calendar: LocalCalendar) -> Int64 {
        let seconds = CivilDate.floorDivide(milliseconds, 1000)
        return seconds + Int64(calendar.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }

    /// A duration as its two largest units: `4d 3h`, `2h 13m`, `12m`, `40s`.
    static func duration(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds) / 1000
        let (days, hours, minutes) = (seconds / 86_400, seconds % 86_400 / 3600, seconds % 3600 / 60)
        if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
        if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
        if minutes > 0 { return "\(minutes)m" }
        return "\(seconds)s"
    }

    /// A countdown to the second: `3d 12h 30m`, `1h 27m 05s`, `27m 05s`, `5s`.
    static func countdown(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds) / 1000
        let (days, hours, minutes, rest) = (seconds / 86_400, seconds % 86_400 / 3600, seconds % 3600 / 60, seconds % 60)
        if days > 0 { return "\(days)d \(hours)h \(minutes)m" }
        if hours > 0 { return String(format: "%lldh %02lldm %02llds", hours, minutes, rest) }
        if minutes > 0 { return String(format: "%lldm %02llds", minutes, rest) }
        return "\(rest)s"
    }

    /// A window length in minutes: `5-hour`, `7-day`, `90-minute`.
    static func window(minutes: Int64) -> String {
        if minutes % 1440 == 0 { return "\(minutes / 1440)-day" }
        if minutes % 60 == 0 { return "\(minutes / 60)-hour" }
        return "\(minutes)-minute"
    }

    /// A limit window's label: its name, then its length unless the name already says it: `weekly, 7-day`,
    /// `primary, 5-hour`, but `five_hour` and `5h` alone.
    static func windowLabel(_ name: String, minutes: Int64?) -> String {
        guard let minutes, windowLength(named: name) != minutes else { return name }
        return name + ", " + window(minutes: minutes)
    }

    /// The length in minutes that a window's name spells, if it spells one: `five_hour`, `5-hour`, `5h`, `7d`,
    /// `seven_day`, `90_minutes`, `two weeks`.
    static func windowLength(named name: String) -> Int64? {
        let words = name.lowercased().split { $0 == "_" || $0 == "-" || $0 == " " }.map(String.init)
        let units: [String: Int64] = [
            "m": 1, "min": 1, "minute": 1, "minutes": 1, "h": 60, "hour": 60, "hours": 60, "d": 1440, "day": 1440,
            "days": 1440, "w": 10_080, "week": 10_080, "weeks": 10_080,
        ]
        let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
        func count(_ word: String) -> Int64? { Int64(word) ?? numbers.firstIndex(of: word).map { Int64($0) + 1 } }
        switch words.count {
        case 1:
            let word = words[0]
            let digits = word.prefix { $0.isASCII && $0.isNumber }
            guard let value = Int64(digits), let unit = units[String(word.dropFirst(digits.count))] else { return nil }
            return value * unit
        case 2:
            guard let value = count(words[0]), let unit = units[words[1]], words[1].count > 1 else { return nil }
            return value * unit
        default: return nil
        }
    }

    /// A count in at most four characters and a unit: `950`, `1.2k`, `12k`, `120k`, `1.2M`, `3.4B`. Rounded
    /// down, so a cell never shows more than was counted.
    static func compact(_ value: Int64) -> String {
        guard value >= 1000 else { return String(value) }
        let units: [(Int64, String)] = [(1_000_000_000_000, "T"), (1_000_000_000, "B"), (1_000_000, "M"), (1000, "k")]
        let (size, suffix) = units.first { value >= $0.0 }!
        let whole = value / size
        if whole >= 10 { return "\(whole)\(suffix)" }
        let tenth = value % size * 10 / size
        return "\(whole).\(tenth)\(suffix)"
    }
}
