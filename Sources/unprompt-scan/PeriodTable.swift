import UnpromptKit

/// The table of `daily`, `weekly` and `monthly` (`PeriodReport`): each period's line, its tools and their
/// models under it, and the total. After the usage columns come the period's own: per day the bottle level;
/// and, when every tool is shown, uses, the work tokens (with work hours) and, per week, each day's band.
///
/// With color, a day's total takes its band's color (`daily`) and a week's days their bands' (`weekly`), the
/// palette of `calendar`; a legend follows. Without, `weekly` writes the bands' letters.
enum PeriodTable {
    static let bottle = Table.Column("bottle", "bottle", .optional(6))
    static let uses = Table.Column("uses", "uses", .essential(4))
    static let work = Table.Column("work", "work", .optional(5))
    static let weekdayInitials = ["M", "T", "W", "T", "F", "S", "S"]

    /// Each day of the week, from `start`: its band's letter, two columns each.
    static func days(_ start: LocalCalendar.WeekStart) -> Table.Column {
        Table.Column("days", start.weekdays.map { weekdayInitials[$0] }.joined(separator: " "), .essential(5), alignment: .left)
    }

    static func columns(_ period: LocalCalendar.Period, showsUses: Bool, workHoursSet: Bool) -> [Table.Column] {
        let label: String
        var own: [Table.Column] = []
        switch period {
        case .day:
            label = "date / tool / model"
            own = [bottle]
        case .week: label = "week / tool / model"
        case .month: label = "month / tool / model"
        }
        if showsUses {
            own += [uses] + (workHoursSet ? [work] : [])
            if case .week(let start) = period { own.append(days(start)) }
        }
        return UsageTable.columns(label) + own
    }

    /// Every column `--columns` may name in a view of `period`.
    static func ids(_ period: LocalCalendar.Period) -> [String] {
        UsageTable.ids(columns(period, showsUses: true, workHoursSet: true))
    }

    /// A period's name: `2026-03-10`, a week's first day, `2026-03`.
    static func label(_ period: LocalCalendar.Period, _ key: Int64) -> String {
        period == .month ? CivilDate.monthString(ofMonth: key) : CivilDate.dateString(ofDay: key)
    }

    static func table(_ report: PeriodReport, workHoursSet: Bool) -> Table {
        let period = report.period
        var table = Table(columns(period, showsUses: report.showsUses, workHoursSet: workHoursSet))
        for entry in report.entries {
            let usage = entry.usage
            var cells = UsageTable.cells(label(period, usage.period), usage.total, entry.readings.total)
            if period == .day {
                cells.append(Table.Cell(ReadingsFormat.bottle(entry.bottleLevel)))
                if let day = entry.days.first { cells[UsageTable.totalColumn].fill = CalendarGrid.style(day.band) }
            }
            if report.showsUses {
                cells.append(Table.Cell(String(entry.uses)))
                if workHoursSet { cells.append(Table.Cell(CountsFormat.grouped(Int(entry.workTokens)))) }
                if case .week = period { cells.append(strip(entry, report: report)) }
            }
            table.add(cells)
            UsageTable.addBreakdown(usage, to: &table, indent: "  ", readings: entry.readings)
        }
        table.add(UsageTable.cells("total", report.total, report.totalReadings))
        return table
    }

    /// A week's days, each its band's letter in its band's style, two columns apart; blank before the range, or
    /// after today.
    static func strip(_ entry: PeriodReport.Entry, report: PeriodReport) -> Table.Cell {
        let byDay = Dictionary(uniqueKeysWithValues: entry.days.map { ($0.day, $0) })
        return Table.Cell(spans: (0..<7).flatMap { offset -> [Table.Span] in
            let day = entry.usage.period + Int64(offset)
            guard day <= report.today, let reading = byDay[day] else { return [Table.Span(text: "  ")] }
            let letter = CalendarGrid.letter(reading.band)
            return [
                Table.Span(text: letter, style: CalendarGrid.style(reading.band)),
                Table.Span(text: String(repeating: " ", count: 2 - letter.count)),
            ]
        })
    }

    /// Whether the table shows bands: each day's total in color in `daily`, each week's days in `weekly`.
    static func showsBands(_ report: PeriodReport, color: Bool, shown: Set<String>) -> Bool {
        guard report.showsUses else { return false }
        switch report.period {
        case .day: return color && shown.contains(UsageTable.total.id)
        case .week: return shown.contains("days")
        case .month: return false
        }
    }

    /// What the bands say, as `calendar` writes it: each band's color (or letter) and meaning.
    static func legend(color: Bool, width: Int?) -> [String] {
        let parts = DayBand.allCases.map { band in
            (color ? CalendarGrid.style(band) + " " + CalendarGrid.letter(band) + " " + CalendarGrid.reset : CalendarGrid.letter(band))
                + " " + CalendarGrid.meaning(band)
        }
        return Prose.wrap("bands: each day's tokens against the mean of the \(DayBand.baselineDays) days before it", width: width)
            + Prose.parts(parts, indent: "  ", width: width)
    }
}
