import Foundation
import UnpromptKit

/// `daily` and `monthly [--since D] [--until D] [--tz ZONE] [--tool ID]... [--no-scan] [--cost-mode M]
/// [--store PATH] [--json]`: usage per local day or month (`PeriodReport`), with a per-tool and per-model
/// breakdown, each with its cost and water readings (and, per day, the bottle level: see `BottleLevel`).
///
/// They first run the same incremental scan as a plain `unprompt-scan` (only new bytes are read), unless
/// `--no-scan` is given, then group the store's quarter-hour buckets in the time zone asked for. The zone is
/// a grouping only: a view in another zone reads the same buckets and never rescans.
///
/// `--since`/`--until` are local dates `YYYY-MM-DD`, inclusive; `YYYY-MM` stands for the month's first day
/// (`--since`) or last day (`--until`). `monthly` filters by the same dates, then groups by month.
enum ReportCommand {
    static func run(_ arguments: Arguments, period: LocalCalendar.Period, catalog: ReaderCatalog, environment: [String: String])
        throws(UsageError) -> ExitCode
    {
        let fromDay = try LocalDateOption.parse(arguments.single("--since"), flag: "--since", period: period, end: false)
        let throughDay = try LocalDateOption.parse(arguments.single("--until"), flag: "--until", period: period, end: true)
        if let fromDay, let throughDay, fromDay > throughDay {
            throw UsageError("--since is after --until")
        }
        let tools = arguments.all("--tool")
        for id in tools where !catalog.descriptors.contains(where: { $0.id == id }) {
            throw UsageError("--tool: no reader named '\(id)'; `unprompt-scan readers list` shows them")
        }
        let csv = arguments.has(Option.csv.name)
        if csv, arguments.has(Option.json.name) { throw UsageError("--csv and --json are two formats: give one") }
        // CSV rows end with CRLF, the last one too: nothing is added after them.
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment, terminator: csv ? "" : "\n") {
            queries throws(StoreError) in
            let report = try queries.periods(by: period, from: fromDay, through: throughDay, tools: tools)
            if csv { return PeriodCSV.text(report) }
            return arguments.has("--json") ? json(report, queries).text : text(report, queries)
        }
    }

    /// `{"daily":[{"date":…,"totals":…,"events":…,"cost":…,"water":…,"bottleLevel":…,"byModel":…,
    /// "costByModel":…,"waterByModel":…,"byTool":…,"confirmed":…,"context":[…],"uses":…,"work":{"tokens","uses"},
    /// "personal":{…}}…],"timeZone":…,"readings":…}` (`uses`, `work` and `personal` without `--tool`), or
    /// `"monthly"` with `"month"` (and no bottle level, confirmation or uses).
    static func json(_ report: PeriodReport, _ queries: UsageQueries) -> JSON {
        let daily = report.period == .day
        let entries = report.entries.map { entry -> JSON in
            let usage = entry.usage
            let label = daily
                ? ("date", CivilDate.dateString(ofDay: usage.period)) : ("month", CivilDate.monthString(ofMonth: usage.period))
            let bottle: JSON? = daily ? (entry.bottleLevel.map { .number(ReadingsFormat.rounded($0)) } ?? .null) : nil
            var json = UsageView.json(usage, label: label, readings: entry.readings, bottle: bottle)
            if daily, case .object(let fields) = json { json = .object(fields + ConfirmationFormat.json(entry.confirmation)) }
            guard case .object(let fields) = json, let day = entry.day else { return json }
            return .object(fields + [
                ("uses", .int(day.uses)),
                ("work", .object([("tokens", .integer(day.workTokens)), ("uses", .int(day.workUses))])),
                ("personal", .object([("tokens", .integer(day.personalTokens)), ("uses", .int(day.personalUses))])),
            ])
        }
        return .object([
            (daily ? "daily" : "monthly", .array(entries)), ("timeZone", .string(queries.zone.name)),
            ("readings", queries.readings.json),
        ])
    }

    static func text(_ report: PeriodReport, _ queries: UsageQueries) -> String {
        let daily = report.period == .day
        var scope = "time zone \(queries.zone.name)"
        if let fromDay = report.fromDay { scope += ", from \(CivilDate.dateString(ofDay: fromDay))" }
        if let throughDay = report.throughDay { scope += ", through \(CivilDate.dateString(ofDay: throughDay))" }
        if !report.tools.isEmpty { scope += ", tool " + report.tools.joined(separator: ", ") }
        guard !report.entries.isEmpty else { return "no usage recorded (\(scope))" }
        let workHoursSet = !queries.workHours.isEmpty
        var lines = ["\(daily ? "daily" : "monthly") usage in tokens (\(scope))", queries.readings.caption]
        let splitHeader = report.showsUses ? ["uses"] + (workHoursSet ? ["work"] : []) : []
        let readingHeader = ["cost", "water"] + (daily ? ["bottle"] : []) + splitHeader
        var table = TextTable(header: UsageView.header(daily ? "date / tool / model" : "month / tool / model") + readingHeader)
        for entry in report.entries {
            let usage = entry.usage
            let label = daily ? CivilDate.dateString(ofDay: usage.period) : CivilDate.monthString(ofMonth: usage.period)
            var columns = daily ? [ReadingsFormat.bottle(entry.bottleLevel)] : []
            if report.showsUses {
                columns.append(entry.day.map { String($0.uses) } ?? "")
                if workHoursSet { columns.append(entry.day.map { CountsFormat.grouped(Int($0.workTokens)) } ?? "") }
            }
            UsageView.add(usage, label: label, to: &table, readings: entry.readings, periodColumns: columns)
        }
        let total = report.totalReadings
        table.add(UsageView.row("total", report.total) + ReadingsFormat.columns(total))
        lines += table.render()
        lines += ReadingsFormat.notes(total.cost, mode: queries.readings.mode, unpricedTokens: total.unpricedTokens)
        if daily {
            lines.append("bottle: the day's central water estimate as a share of the fullest day in the 30 days up to it")
        }
        if report.showsUses {
            lines.append(
                "uses: runs of activity from any tool with gaps of at most 2 hours, by the day they start"
                    + (workHoursSet ? "; work: tokens in your work hours" : ""))
        }
        return lines.joined(separator: "\n")
    }
}
