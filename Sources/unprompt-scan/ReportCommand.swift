import Foundation
import UnpromptKit

/// `daily`, `weekly` and `monthly [--since D] [--until D] [--last N] [--tz ZONE] [--tool ID]... [--no-scan]
/// [--cost-mode M] [--wide] [--columns LIST] [--store PATH] [--json]` (and `weekly --start-of-week mon|sun`):
/// usage per local day, week or month (`PeriodReport`), with a per-tool and per-model breakdown, each with
/// its cost and water readings (and, per day, the bottle level: see `BottleLevel`), laid out to fit the
/// terminal (`PeriodTable`).
///
/// They first run the same incremental scan as a plain `unprompt-scan` (only new bytes are read), unless
/// `--no-scan` is given, then group the store's quarter-hour buckets in the time zone asked for. The zone is
/// a grouping only: a view in another zone reads the same buckets and never rescans.
///
/// `--since`/`--until` are local dates, inclusive (`DateBound`: `YYYY-MM-DD`, `YYYY-MM`, `today`,
/// `yesterday`, `7d`, `4w`, `3m`); a week or month is cut by them. `--last N` is the last N whole periods.
enum ReportCommand {
    enum View: String {
        case daily
        case weekly
        case monthly
    }

    static func run(_ arguments: Arguments, view: View, catalog: ReaderCatalog, environment: [String: String])
        throws(UsageError) -> ExitCode
    {
        let period: LocalCalendar.Period
        switch view {
        case .daily: period = .day
        case .weekly: period = .week(try PeriodOptions.weekStart(arguments, environment: environment))
        case .monthly: period = .month
        }
        let layout = try TableOptions.layout(arguments, environment: environment, columns: PeriodTable.ids(period), view: view.rawValue)
        let request = try ViewOpener.request(arguments, environment: environment, scan: false)
        let range = try PeriodOptions.range(arguments, period: period, today: request.zone.calendar.day(ofMilliseconds: request.now))
        let tools = arguments.all("--tool")
        for id in tools where !catalog.descriptors.contains(where: { $0.id == id }) {
            throw UsageError("--tool: no reader named '\(id)'; `unprompt-scan readers list` shows them")
        }
        let csv = arguments.has(Option.csv.name)
        if csv, arguments.has(Option.json.name) { throw UsageError("--csv and --json are two formats: give one") }
        // CSV rows end with CRLF, the last one too: nothing is added after them.
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment, terminator: csv ? "" : "\n") {
            queries throws(StoreError) in
            let report = try queries.periods(by: period, from: range.fromDay, through: range.throughDay, tools: tools)
            if csv { return PeriodCSV.text(report) }
            return arguments.has("--json") ? json(report, view, queries).text : text(report, view, queries, layout)
        }
    }

    /// `{"daily":[{"date":…,"totals":…,"events":…,"cost":…,"water":…,"bottleLevel":…,"byModel":…,
    /// "costByModel":…,"waterByModel":…,"byTool":…,"confirmed":…,"context":[…],"uses":…,"work":{"tokens","uses"},
    /// "personal":{…}}…],"timeZone":…,"readings":…}` (`uses`, `work` and `personal` without `--tool`); `"weekly"`
    /// with `"week"` (its first day), `"days"` (`date`, `tokens`, `band` of each of its days in the range, without
    /// `--tool`) and `"startOfWeek"`; `"monthly"` with `"month"`. Only days have a bottle level and a confirmation.
    static func json(_ report: PeriodReport, _ view: View, _ queries: UsageQueries) -> JSON {
        let entries = report.entries.map { entry -> JSON in
            let usage = entry.usage
            let label = PeriodTable.label(report.period, usage.period)
            let key = report.period == .day ? "date" : report.period == .month ? "month" : "week"
            let bottle: JSON? = report.period == .day ? (entry.bottleLevel.map { .number(ReadingsFormat.rounded($0)) } ?? .null) : nil
            var json = UsageView.json(usage, label: (key, label), readings: entry.readings, bottle: bottle)
            if report.period == .day, case .object(let fields) = json { json = .object(fields + ConfirmationFormat.json(entry.confirmation)) }
            guard case .object(let fields) = json, report.showsUses else { return json }
            var extra: [(String, JSON)] = [
                ("uses", .int(entry.uses)),
                ("work", .object([("tokens", .integer(entry.workTokens)), ("uses", .int(entry.workUses))])),
                ("personal", .object([("tokens", .integer(entry.personalTokens)), ("uses", .int(entry.personalUses))])),
            ]
            if case .week = report.period {
                extra.append(("days", .array(entry.days.map { day in
                    .object([
                        ("date", .string(CivilDate.dateString(ofDay: day.day))), ("tokens", .integer(day.tokens)),
                        ("band", .string(day.band.rawValue)),
                    ])
                })))
            }
            return .object(fields + extra)
        }
        var fields: [(String, JSON)] = [(view.rawValue, .array(entries)), ("timeZone", .string(queries.zone.name))]
        if case .week(let start) = report.period { fields.append(("startOfWeek", .string(start.rawValue))) }
        return .object(fields + [("readings", queries.readings.json)])
    }

    static func text(_ report: PeriodReport, _ view: View, _ queries: UsageQueries, _ layout: TableLayout) -> String {
        var scope = "time zone \(queries.zone.name)"
        if case .week(let start) = report.period { scope += ", weeks from " + (start == .monday ? "Monday" : "Sunday") }
        if let fromDay = report.fromDay { scope += ", from \(CivilDate.dateString(ofDay: fromDay))" }
        if let throughDay = report.throughDay { scope += ", through \(CivilDate.dateString(ofDay: throughDay))" }
        if !report.tools.isEmpty { scope += ", tool " + report.tools.joined(separator: ", ") }
        guard !report.entries.isEmpty else { return Prose.wrap("no usage recorded (\(scope))", width: layout.width).joined(separator: "\n") }
        let workHoursSet = !queries.workHours.isEmpty
        var lines = Prose.wrap(["\(view.rawValue) usage in tokens (\(scope))", queries.readings.caption], width: layout.width)
        let table = PeriodTable.table(report, workHoursSet: workHoursSet)
        let shown = Set(table.shown(layout))
        lines += table.render(layout)
        if PeriodTable.showsBands(report, color: layout.color, shown: shown) {
            lines += PeriodTable.legend(color: layout.color, width: layout.width)
        }
        let total = report.totalReadings
        var notes = ReadingsFormat.notes(total.cost, mode: queries.readings.mode, unpricedTokens: total.unpricedTokens)
        if shown.contains(PeriodTable.bottle.id) {
            notes.append("bottle: the day's central water estimate as a share of the fullest day in the 30 days up to it")
        }
        let uses = shown.contains(PeriodTable.uses.id) ? ["uses: runs of activity from any tool with gaps of at most 2 hours, by the day they start"] : []
        let work = shown.contains(PeriodTable.work.id) ? ["work: tokens in your work hours"] : []
        if !(uses + work).isEmpty { notes.append((uses + work).joined(separator: "; ")) }
        return (lines + Prose.wrap(notes, width: layout.width)).joined(separator: "\n")
    }
}
