/// The hours a person works, in their own time zone: groups of weekdays, each with one or more time
/// ranges. Days no group names are days off; a day named by several groups has all their ranges. A range whose end is before its start runs over midnight
/// into the next day (a night shift, `Sun-Thu 22:00-06:00`), and belongs to the day it starts on.
///
/// Times are quarter-hours (`:00`, `:15`, `:30`, `:45`), because usage is kept in quarter-hour buckets:
/// every bucket is then wholly work or wholly personal, in any zone (every UTC offset is a multiple of 15
/// minutes). Work time is shown, never counted against anyone.
///
/// The written form is `Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00`: days (names, ranges `Mon-Fri`
/// and lists `Mon, Wed`), then ranges; a day name after a range, or `;`, starts the next group. `none`
/// means no work hours.
public struct WorkHours: Sendable, Equatable, CustomStringConvertible {
    /// One time range, in minutes after local midnight. `end` is 1…1440 and differs from `start`; an `end`
    /// at or before `start` runs past midnight.
    public struct Range: Sendable, Equatable {
        public let start: Int
        public let end: Int

        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        public var crossesMidnight: Bool { end <= start }

        /// Whether `minute` of the day the range starts on is in it.
        public func startsAt(minute: Int) -> Bool { minute >= start && (crossesMidnight || minute < end) }

        /// Whether `minute` of the next day is in it (the part past midnight).
        public func carries(minute: Int) -> Bool { crossesMidnight && minute < end }
    }

    /// Days (0 = Monday … 6 = Sunday, in order, no repeats) and their ranges.
    public struct Group: Sendable, Equatable {
        public let days: [Int]
        public let ranges: [Range]
    }

    public let groups: [Group]

    public init(groups: [Group]) { self.groups = groups }

    /// One range with its weekdays as bits (Monday = 1, Tuesday = 2, … Sunday = 64): how the store and an
    /// export keep work hours, as numbers only.
    public struct Row: Sendable, Equatable {
        public let weekdays: Int64
        public let range: Range

        public init(weekdays: Int64, range: Range) {
            self.weekdays = weekdays
            self.range = range
        }
    }

    /// The hours as rows, in order.
    public var rows: [Row] {
        groups.flatMap { group in
            let weekdays = group.days.reduce(Int64(0)) { $0 | (1 << Int64($1)) }
            return group.ranges.map { Row(weekdays: weekdays, range: $0) }
        }
    }

    /// Rows in order back into groups: consecutive ranges of the same weekdays are one group.
    public init(rows: [Row]) {
        var groups: [(weekdays: Int64, ranges: [Range])] = []
        for row in rows {
            if groups.last?.weekdays == row.weekdays {
                groups[groups.count - 1].ranges.append(row.range)
            } else {
                groups.append((row.weekdays, [row.range]))
            }
        }
        self.groups = groups.map { group in
            Group(days: (0..<7).filter { group.weekdays & (1 << Int64($0)) != 0 }, ranges: group.ranges)
        }
    }

    public static let none = WorkHours(groups: [])

    public var isEmpty: Bool { groups.isEmpty }

    public static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The weekday of a day number (0 = Monday): 1970-01-01 was a Thursday.
    public static func weekday(ofDay day: Int64) -> Int { Int(day + 3 - CivilDate.floorDivide(day + 3, 7) * 7) }

    /// Whether a local moment — its weekday and minute after midnight — is in work hours.
    public func contains(weekday: Int, minute: Int) -> Bool {
        starts(weekday: weekday, minute: minute) || carries(into: weekday, minute: minute)
    }

    /// Whether a range that starts on `weekday` holds its `minute`: the part of the work hours that belongs to
    /// that day.
    public func starts(weekday: Int, minute: Int) -> Bool {
        groups.contains { $0.days.contains(weekday) && $0.ranges.contains { $0.startsAt(minute: minute) } }
    }

    /// Whether a range that started the day before `weekday` and runs past midnight holds `minute`: the part
    /// that belongs to the day before.
    public func carries(into weekday: Int, minute: Int) -> Bool {
        let yesterday = (weekday + 6) % 7
        return groups.contains { $0.days.contains(yesterday) && $0.ranges.contains { $0.carries(minute: minute) } }
    }

    /// Whether a quarter-hour bucket is work time in `calendar`'s zone, by its first instant's local time.
    public func contains(quarter: Int64, in calendar: LocalCalendar) -> Bool {
        guard !isEmpty else { return false }
        let local = Self.localTime(ofQuarter: quarter, in: calendar)
        return contains(weekday: Self.weekday(ofDay: local.day), minute: local.minute)
    }

    /// The local day of a quarter-hour's first instant, and its minute after that day's midnight.
    public static func localTime(ofQuarter quarter: Int64, in calendar: LocalCalendar) -> (day: Int64, minute: Int) {
        let local = quarter * LocalCalendar.quarterSeconds + calendar.offsetSeconds(atQuarter: quarter)
        let day = CivilDate.floorDivide(local, 86_400)
        return (day, Int((local - day * 86_400) / 60))
    }

    // MARK: Written form

    /// The written form, one group after another: parsing it gives these work hours back.
    public var description: String {
        guard !isEmpty else { return "none" }
        return groups.map { Self.days($0.days) + " " + $0.ranges.map(Self.range).joined(separator: " ") }
            .joined(separator: "; ")
    }

    /// `Mon-Fri`, `Mon, Wed, Fri`, `Sun-Thu`: runs of three or more days (around the week's end too) as
    /// ranges.
    public static func days(_ days: [Int]) -> String {
        let set = Set(days)
        if set.count == 7 { return "Mon-Sun" }
        // Start after a day off, so a run over the weekend stays one run.
        guard let start = (0..<7).first(where: { set.contains($0) && !set.contains(($0 + 6) % 7) }) else { return "" }
        var runs: [[Int]] = []
        for offset in 0..<7 where set.contains((start + offset) % 7) {
            let day = (start + offset) % 7
            if let last = runs.last?.last, (last + 1) % 7 == day {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        return runs.flatMap { run in
            run.count >= 3 ? [dayNames[run.first!] + "-" + dayNames[run.last!]] : run.map { dayNames[$0] }
        }.joined(separator: ", ")
    }

    public static func range(_ range: Range) -> String { time(range.start) + "-" + time(range.end) }

    static func time(_ minutes: Int) -> String {
        let hours = String(minutes / 60), rest = String(minutes % 60)
        return String(repeating: "0", count: 2 - hours.count) + hours + ":" + String(repeating: "0", count: 2 - rest.count) + rest
    }
}

/// A problem in written work hours: the character offset it was found at, and what was expected there.
public struct WorkHoursProblem: Error, Sendable, Equatable {
    public let offset: Int
    public let message: String
}

extension WorkHours {
    /// Parses the written form (see `WorkHours`).
    public static func parse(_ text: String) -> Result<WorkHours, WorkHoursProblem> {
        var parser = WorkHoursParser(text)
        do {
            return .success(try parser.parse())
        } catch {
            return .failure(error)
        }
    }

    /// Parses a list of days alone (`Mon-Fri`, `Mon, Wed`), as a config file's `days:` holds it.
    public static func parseDays(_ text: String) -> Result<[Int], WorkHoursProblem> {
        var parser = WorkHoursParser(text)
        do {
            return .success(try parser.daysOnly())
        } catch {
            return .failure(error)
        }
    }

    /// Parses one range alone (`09:00-18:00`), as a config file's `hours:` holds it.
    public static func parseRange(_ text: String) -> Result<Range, WorkHoursProblem> {
        var parser = WorkHoursParser(text)
        do {
            return .success(try parser.rangeOnly())
        } catch {
            return .failure(error)
        }
    }
}

/// Reads the written form of work hours token by token, keeping each token's offset for errors.
private struct WorkHoursParser {
    private struct Token {
        let text: Substring
        let offset: Int
    }

    private let text: String
    private var tokens: [Token] = []
    private var position = 0

    init(_ text: String) {
        self.text = text
        // Words are separated by spaces and commas; `;` is a token of its own.
        var current = ""
        var start = 0
        for (offset, character) in text.enumerated() {
            if character == " " || character == "\t" || character == "," || character == ";" {
                if !current.isEmpty { tokens.append(Token(text: Substring(current), offset: start)) }
                current = ""
                if character == ";" { tokens.append(Token(text: ";", offset: offset)) }
            } else {
                if current.isEmpty { start = offset }
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(Token(text: Substring(current), offset: start)) }
    }

    mutating func parse() throws(WorkHoursProblem) -> WorkHours {
        let words = tokens.filter { $0.text != ";" }
        if words.count == 1, ["none", "off"].contains(words[0].text.lowercased()) { return .none }
        guard !words.isEmpty else {
            throw WorkHoursProblem(offset: 0, message: "expected days and hours, such as 'Mon-Fri 09:00-18:00', or 'none'")
        }
        var groups: [WorkHours.Group] = []
        while position < tokens.count {
            if tokens[position].text == ";" {
                position += 1
                continue
            }
            let days = try dayList()
            guard position < tokens.count, tokens[position].text != ";" else {
                throw WorkHoursProblem(
                    offset: position < tokens.count ? tokens[position].offset : text.count,
                    message: "expected hours after the days, such as 09:00-18:00")
            }
            var ranges: [WorkHours.Range] = []
            while position < tokens.count, tokens[position].text != ";", isTimeLike(tokens[position].text) {
                ranges.append(try range(tokens[position]))
                position += 1
            }
            if position < tokens.count, tokens[position].text != ";", ranges.isEmpty {
                throw WorkHoursProblem(
                    offset: tokens[position].offset,
                    message: "expected hours such as 09:00-18:00, found '\(tokens[position].text)'")
            }
            groups.append(WorkHours.Group(days: days, ranges: ranges))
        }
        return WorkHours(groups: groups)
    }

    mutating func daysOnly() throws(WorkHoursProblem) -> [Int] {
        guard !tokens.isEmpty else { throw WorkHoursProblem(offset: 0, message: "expected days, such as Mon-Fri") }
        let days = try dayList()
        if position < tokens.count {
            throw WorkHoursProblem(offset: tokens[position].offset, message: "expected only days here, found '\(tokens[position].text)'")
        }
        return days
    }

    mutating func rangeOnly() throws(WorkHoursProblem) -> WorkHours.Range {
        guard tokens.count == 1 else {
            throw WorkHoursProblem(
                offset: tokens.count > 1 ? tokens[1].offset : 0, message: "expected one range, such as 09:00-18:00")
        }
        return try range(tokens[0])
    }

    /// Day names and day ranges up to the first token that is not one.
    private mutating func dayList() throws(WorkHoursProblem) -> [Int] {
        var days = Set<Int>()
        while position < tokens.count, let first = tokens[position].text.first, first.isLetter {
            let token = tokens[position]
            let parts = token.text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let start = try day(parts[0], offset: token.offset)
            if parts.count == 2 {
                let end = try day(parts[1], offset: token.offset + parts[0].count + 1)
                var current = start
                days.insert(current)
                while current != end {
                    current = (current + 1) % 7
                    days.insert(current)
                }
            } else {
                days.insert(start)
            }
            position += 1
        }
        guard !days.isEmpty else {
            let found = position < tokens.count ? tokens[position] : nil
            throw WorkHoursProblem(
                offset: found?.offset ?? text.count,
                message: "expected days such as Mon-Fri before the hours" + (found.map { ", found '\($0.text)'" } ?? ""))
        }
        return days.sorted()
    }

    private func day(_ name: Substring, offset: Int) throws(WorkHoursProblem) -> Int {
        let lower = name.lowercased()
        let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        if let index = full.firstIndex(where: { $0 == lower || ($0.hasPrefix(lower) && lower.count == 3) }) {
            return index
        }
        throw WorkHoursProblem(offset: offset, message: "unknown day '\(name)'; expected Mon, Tue, Wed, Thu, Fri, Sat or Sun")
    }

    private func isTimeLike(_ text: Substring) -> Bool { text.first?.isNumber ?? false }

    private func range(_ token: Token) throws(WorkHoursProblem) -> WorkHours.Range {
        let parts = token.text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw WorkHoursProblem(offset: token.offset, message: "expected a range such as 09:00-18:00, found '\(token.text)'")
        }
        let start = try time(parts[0], offset: token.offset, allowEndOfDay: false)
        let end = try time(parts[1], offset: token.offset + parts[0].count + 1, allowEndOfDay: true)
        guard start != end else {
            throw WorkHoursProblem(
                offset: token.offset,
                message: "the range '\(token.text)' is empty: its start and end are the same time (a whole day is 00:00-24:00)")
        }
        // An end at 00:00 is the coming midnight.
        return WorkHours.Range(start: start, end: end == 0 ? 1440 : end)
    }

    /// `HH:MM` on a quarter-hour, as minutes after midnight; `24:00` only as an end.
    private func time(_ text: Substring, offset: Int, allowEndOfDay: Bool) throws(WorkHoursProblem) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60
        else {
            throw WorkHoursProblem(offset: offset, message: "expected a time HH:MM, found '\(text)'")
        }
        guard hours < 24 || (allowEndOfDay && hours == 24 && minutes == 0) else {
            throw WorkHoursProblem(offset: offset, message: "'\(text)' is not a time of day (00:00 to 24:00)")
        }
        guard minutes % 15 == 0 else {
            throw WorkHoursProblem(
                offset: offset + parts[0].count + 1,
                message: "'\(text)' is not on a quarter-hour: usage is kept in quarter-hours, so give :00, :15, :30 or :45")
        }
        return hours * 60 + minutes
    }
}
