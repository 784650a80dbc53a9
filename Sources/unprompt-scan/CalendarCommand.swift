import Foundation
import UnpromptKit

/// `unprompt-scan calendar [--month YYYY-MM] [--tz ZONE] [--no-scan] [--store PATH] [--config FILE] [--json]`:
/// a month grid of local days. Every day up to today carries its own tokens (compact, `1.2M`) and its band
/// against the mean of the 30 days before it (`DayBand`): a color on a terminal, a letter and a legend with
/// `NO_COLOR` or when the output is not a terminal. There is no goal anywhere.
enum CalendarCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let requested = try month(arguments.single("--month"))
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment) { queries throws(StoreError) in
            let month = try queries.month(requested)
            return arguments.has("--json")
                ? json(month, queries).text
                : CalendarGrid(
                    month: month, zone: queries.zone, workHoursSet: !queries.workHours.isEmpty, color: Terminal.colors(environment),
                    width: Terminal.width(environment)
                ).render()
        }
    }

    /// `--month YYYY-MM` as a month number.
    static func month(_ text: String?) throws(UsageError) -> Int64? {
        guard let text else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let year = Int64(parts[0]),
            let month = Int64(parts[1]), (1...12).contains(month)
        else { throw UsageError("--month: expected a month YYYY-MM, got '\(text)'") }
        return year * 12 + month - 1
    }

    /// `{"month", "timeZone", "workHours", "baselineDays": 30, "days": [{"date", "tokens", "band", "baseline",
    /// "uses", "work": {"tokens", "uses"}, "personal": {…}, "confirmed", "context"}]}`: every day of the month up
    /// to today.
    static func json(_ month: CalendarMonth, _ queries: UsageQueries) -> JSON {
        .object([
            ("month", .string(CivilDate.monthString(ofMonth: month.month))),
            ("timeZone", .string(queries.zone.name)),
            ("workHours", queries.workHours.isEmpty ? .null : .string(queries.workHours.description)),
            ("baselineDays", .integer(DayBand.baselineDays)),
            ("days", .array(month.days.map { day in
                .object([
                    ("date", .string(CivilDate.dateString(ofDay: day.day))),
                    ("tokens", .integer(day.tokens)),
                    ("band", .string(day.band.rawValue)),
                    ("baseline", day.baseline.map { .number($0) } ?? .null),
                    ("uses", .int(day.uses)),
                    ("work", .object([("tokens", .integer(day.workTokens)), ("uses", .int(day.workUses))])),
                    ("personal", .object([("tokens", .integer(day.personalTokens)), ("uses", .int(day.personalUses))])),
                ] + ConfirmationFormat.json(day.confirmation))
            })),
        ])
    }
}

/// The month grid: weeks from Monday, two lines each (day numbers, then each day's tokens and band). The
/// grid is 62 columns wide; the title, the legend and the totals around it are broken to fit `width` (`Prose`).
struct CalendarGrid {
    let month: CalendarMonth
    let zone: ViewZone
    let workHoursSet: Bool
    let color: Bool
    /// The terminal's width; nil prints every line whole.
    var width: Int? = nil

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// One shade of one hue per band, lighter to darker: a scale, not a verdict (no red, no green).
    static func style(_ band: DayBand) -> String {
        switch band {
        case .zero: "\u{1B}[2m"
        case .less: "\u{1B}[38;5;16;48;5;153m"
        case .average: "\u{1B}[38;5;16;48;5;111m"
        case .more: "\u{1B}[38;5;231;48;5;68m"
        case .muchMore: "\u{1B}[38;5;231;48;5;25m"
        }
    }

    static let reset = "\u{1B}[0m"

    static func letter(_ band: DayBand) -> String {
        switch band {
        case .zero: "Z"
        case .less: "L"
        case .average: "A"
        case .more: "M"
        case .muchMore: "M+"
        }
    }

    static func meaning(_ band: DayBand) -> String {
        switch band {
        case .zero: "zero"
        case .less: "less (under 2/3 of the mean)"
        case .average: "average (2/3 to 3/2 of it)"
        case .more: "more (to 3 times it)"
        case .muchMore: "much more (over 3 times)"
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    func render() -> String {
        let year = CivilDate.floorDivide(month.month, 12)
        let first = CivilDate.firstDay(ofMonth: month.month)
        let last = CivilDate.lastDay(ofMonth: month.month)
        var lines = Prose.wrap(
            "\(Self.monthNames[Int(month.month - year * 12)]) \(year) (\(zone.name)): tokens per day, each compared with the mean of the \(DayBand.baselineDays) days before it",
            width: width)
        lines.append(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { pad($0, 6) + "   " }.joined().trimmingTrailing())
        let byDay = Dictionary(uniqueKeysWithValues: month.days.map { ($0.day, $0) })
        var weekStart = first - Int64(WorkHours.weekday(ofDay: first))
        while weekStart <= last {
            var numbers = ""
            var values = ""
            for day in weekStart..<(weekStart + 7) {
                guard day >= first, day <= last else {
                    numbers += String(repeating: " ", count: 9)
                    values += String(repeating: " ", count: 9)
                    continue
                }
                let mark = ConfirmationFormat.mark(byDay[day]?.confirmation)
                numbers += pad(String(CivilDate.civil(ofDay: day).day), 6) + " " + mark + String(repeating: " ", count: 2 - mark.count)
                guard let reading = byDay[day] else {
                    // After today: nothing measured yet.
                    values += String(repeating: " ", count: 9)
                    continue
                }
                let number = pad(LocalFormat.compact(reading.tokens), 6)
                values += color
                    ? Self.style(reading.band) + number + Self.reset + "   "
                    : number + " " + Self.letter(reading.band) + String(repeating: " ", count: 2 - Self.letter(reading.band).count)
            }
            lines.append(numbers.trimmingTrailing())
            lines.append(values.trimmingTrailing())
            weekStart += 7
        }
        let legend = DayBand.allCases.map { band in
            (color ? Self.style(band) + " " + Self.letter(band) + " " + Self.reset : Self.letter(band)) + " " + Self.meaning(band)
        }
        lines.append("")
        lines += Prose.parts(legend, width: width)
        if month.days.contains(where: { $0.confirmation != nil }) { lines += Prose.wrap(ConfirmationFormat.legend, width: width) }
        let uses = month.uses
        var summary = ["total: \(CountsFormat.grouped(Int(month.tokens))) tokens, \(uses) use\(uses == 1 ? "" : "s")"]
        if workHoursSet {
            let (work, personal) = (month.workUses, month.personalUses)
            summary += [
                "work: \(CountsFormat.grouped(Int(month.workTokens))) tokens, \(work) use\(work == 1 ? "" : "s")",
                "personal: \(CountsFormat.grouped(Int(month.personalTokens))) tokens, \(personal) use\(personal == 1 ? "" : "s")",
            ]
        }
        lines += Prose.parts(summary, joiner: "; ", width: width)
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailing() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
