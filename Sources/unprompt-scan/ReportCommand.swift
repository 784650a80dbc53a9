import Foundation
import UnpromptKit

/// `daily` and `monthly [--since D] [--until D] [--tz ZONE] [--tool ID]... [--no-scan] [--cost-mode M]
/// [--store PATH] [--json]`: usage per local day or month, with a per-tool and per-model breakdown, each with
/// its cost and water readings (and, per day, the bottle level: see `BottleLevel`).
///
/// They first run the same incremental scan as a plain `unprompt-scan` (only new bytes are read), unless
/// `--no-scan` is given, then group the store's quarter-hour buckets in the time zone asked for. The zone is
/// a grouping only: a view in another zone reads the same buckets and never rescans.
///
/// `--since`/`--until` are local dates `YYYY-MM-DD`, inclusive; `YYYY-MM` stands for the month's first day
/// (`--since`) or last day (`--until`). `monthly` filters by the same dates, then groups by month.
enum ReportCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let period: LocalCalendar.Period = arguments.words.first == "monthly" ? .month : .day
        let command = period == .day ? "daily" : "monthly"
        if arguments.words.count > 1 { throw UsageError("\(command) takes no argument '\(arguments.words[1])'") }
        let zone = try ZoneOption.resolve(try arguments.single("--tz"), environment: environment)
        let fromDay = try LocalDateOption.parse(try arguments.single("--since"), flag: "--since", period: period, end: false)
        let throughDay = try LocalDateOption.parse(try arguments.single("--until"), flag: "--until", period: period, end: true)
        if let fromDay, let throughDay, fromDay > throughDay {
            throw UsageError("--since is after --until")
        }
        let tools = arguments.all("--tool")
        for id in tools where !catalog.descriptors.contains(where: { $0.id == id }) {
            throw UsageError("--tool: no reader named '\(id)'; `unprompt-scan readers list` shows them")
        }
        let context: ViewContext
        switch try ViewContext.open(arguments, catalog: catalog, environment: environment) {
        case .ready(let ready): context = ready
        case .failed(let code): return code
        }
        let store = context.store
        let readings = context.readings
        let status = context.status

        // A day's bottle level compares it with the days before it, so those are read too.
        let historyFrom = period == .day ? fromDay.map { $0 - BottleLevel.windowDays + 1 } : fromDay
        var rows: [BucketRow] = []
        if let store {
            let bounds = LocalCalendar.quarterBounds(fromDay: historyFrom, throughDay: throughDay)
            do {
                rows = try store.buckets(
                    fromQuarter: bounds.lowerBound, toQuarter: bounds.upperBound, tool: tools.count == 1 ? tools[0] : nil)
            } catch {
                printError("unprompt-scan: store: \(error.message)")
                return .store
            }
            if tools.count > 1 { rows = rows.filter { tools.contains($0.tool) } }
        }
        let calendar = LocalCalendar(timeZone: zone.timeZone)
        let periods = calendar.group(rows, by: period, fromDay: fromDay, throughDay: throughDay)
        let breakdowns = calendar.partition(rows, by: period, fromDay: fromDay, throughDay: throughDay)
            .mapValues { ReadingsBreakdown($0, readings) }
        var bottle: [Int64: Double] = [:]
        if period == .day {
            let liters = calendar.partition(rows, by: .day, fromDay: historyFrom, throughDay: throughDay)
                .mapValues { readings.water.reading(of: $0).liters.central }
            bottle = BottleLevel.levels(liters: liters, days: periods.map(\.period))
        }
        // Uses and the work/personal split are of all tools (a use is activity from any tool), so a view of
        // chosen tools leaves them out rather than mixing the two.
        var days: [Int64: DayReading] = [:]
        if period == .day, tools.isEmpty, let first = periods.first?.period, let last = periods.last?.period {
            do {
                for day in try context.days(from: first, through: last) { days[day.day] = day }
            } catch {
                printError("unprompt-scan: store: \(error.message)")
                return .store
            }
        }
        let view = PeriodReadings(
            readings: readings, breakdowns: breakdowns, bottle: bottle, days: days, workHoursSet: !context.workHours.isEmpty)

        if arguments.has("--json") {
            print(json(periods, period: period, zone: zone, view).text)
        } else {
            print(text(periods, period: period, zone: zone, fromDay: fromDay, throughDay: throughDay, tools: tools, view))
        }
        return status
    }

    /// The readings of every period shown.
    struct PeriodReadings {
        let readings: Readings
        let breakdowns: [Int64: ReadingsBreakdown]
        let bottle: [Int64: Double]
        /// Per day (daily without `--tool`): uses and the work/personal split.
        let days: [Int64: DayReading]
        let workHoursSet: Bool
    }

    /// `{"daily":[{"date":…,"totals":…,"events":…,"cost":…,"water":…,"bottleLevel":…,"byModel":…,
    /// "costByModel":…,"waterByModel":…,"byTool":…,"uses":…,"work":{"tokens","uses"},"personal":{…}}…],
    /// "timeZone":…,"readings":…}` (`uses`, `work` and `personal` without `--tool`), or `"monthly"` with
    /// `"month"` (and no bottle level or uses).
    static func json(_ periods: [PeriodUsage], period: LocalCalendar.Period, zone: ZoneOption, _ view: PeriodReadings) -> JSON {
        let entries = periods.map { usage -> JSON in
            let label = period == .day
                ? ("date", CivilDate.dateString(ofDay: usage.period)) : ("month", CivilDate.monthString(ofMonth: usage.period))
            let bottle: JSON? = period == .day ? (view.bottle[usage.period].map { .number(ReadingsFormat.rounded($0)) } ?? .null) : nil
            let entry = UsageView.json(usage, label: label, readings: view.breakdowns[usage.period], bottle: bottle)
            guard case .object(let fields) = entry, let day = view.days[usage.period] else { return entry }
            return .object(fields + [
                ("uses", .int(day.uses)),
                ("work", .object([("tokens", .integer(day.workTokens)), ("uses", .int(day.workUses))])),
                ("personal", .object([("tokens", .integer(day.personalTokens)), ("uses", .int(day.personalUses))])),
            ])
        }
        return .object([
            (period == .day ? "daily" : "monthly", .array(entries)), ("timeZone", .string(zone.name)),
            ("readings", view.readings.json),
        ])
    }

    static func text(
        _ periods: [PeriodUsage], period: LocalCalendar.Period, zone: ZoneOption, fromDay: Int64?, throughDay: Int64?,
        tools: [String], _ view: PeriodReadings
    ) -> String {
        var scope = "time zone \(zone.name)"
        if let fromDay { scope += ", from \(CivilDate.dateString(ofDay: fromDay))" }
        if let throughDay { scope += ", through \(CivilDate.dateString(ofDay: throughDay))" }
        if !tools.isEmpty { scope += ", tool " + tools.joined(separator: ", ") }
        guard !periods.isEmpty else { return "no usage recorded (\(scope))" }
        var lines = ["\(period == .day ? "daily" : "monthly") usage in tokens (\(scope))", view.readings.caption]
        let splitHeader = view.days.isEmpty ? [] : ["uses"] + (view.workHoursSet ? ["work"] : [])
        let readingHeader = ["cost", "water"] + (period == .day ? ["bottle"] : []) + splitHeader
        var table = TextTable(
            header: UsageView.header(period == .day ? "date / tool / model" : "month / tool / model") + readingHeader)
        var grand = UsageCell()
        var grandReadings = ReadingCell()
        for usage in periods {
            let label = period == .day
                ? CivilDate.dateString(ofDay: usage.period) : CivilDate.monthString(ofMonth: usage.period)
            let breakdown = view.breakdowns[usage.period]
            var columns = period == .day ? [ReadingsFormat.bottle(view.bottle[usage.period])] : []
            if !view.days.isEmpty {
                let day = view.days[usage.period]
                columns.append(day.map { String($0.uses) } ?? "")
                if view.workHoursSet { columns.append(day.map { CountsFormat.grouped(Int($0.workTokens)) } ?? "") }
            }
            UsageView.add(usage, label: label, to: &table, readings: breakdown, periodColumns: columns)
            grand += usage.total
            if let breakdown {
                grandReadings.cost += breakdown.total.cost
                grandReadings.water += breakdown.total.water
                grandReadings.unpricedTokens.merge(breakdown.total.unpricedTokens, uniquingKeysWith: +)
            }
        }
        table.add(UsageView.row("total", grand) + ReadingsBreakdown.columns(grandReadings))
        lines += table.render()
        lines += ReadingsFormat.notes(grandReadings.cost, mode: view.readings.mode, unpricedTokens: grandReadings.unpricedTokens)
        if period == .day {
            lines.append("bottle: the day's central water estimate as a share of the fullest day in the 30 days up to it")
        }
        if !view.days.isEmpty {
            lines.append(
                "uses: runs of activity from any tool with gaps of at most 2 hours, by the day they start"
                    + (view.workHoursSet ? "; work: tokens in your work hours" : ""))
        }
        return lines.joined(separator: "\n")
    }
}

/// The incremental scan a view runs first: the same as a plain `unprompt-scan` (with its progress bar on a
/// terminal), with its report kept off standard output (which holds the view). Sources that could not be read are named on standard error and
/// make the exit status 1; the view still shows what the store holds.
enum ScanStep {
    static func run(store: UsageStore, catalog: ReaderCatalog, environment: [String: String], now: Int64) throws(StoreError)
        -> ExitCode
    {
        let report = try ScanCommand.scan(store, catalog: catalog, environment: environment, now: now)
        guard ScanCommand.exitCode(report) != .success else { return .success }
        printError(
            "unprompt-scan: \(CountsFormat.grouped(report.failed)) sources and \(CountsFormat.grouped(report.unlistedDirectories)) directories could not be read; nothing of them was counted (a plain `unprompt-scan` shows details)")
        for p in report.problems {
            printError("  " + (p.source == 0 ? "" : "read \(p.source), line \(p.line): ") + p.reason)
        }
        return .sourcesUnreadable
    }
}

/// `--tz ZONE`: an IANA zone name (`Asia/Kolkata`, `America/New_York`) or `UTC`. Without it, the `TZ`
/// environment variable (also as `:Zone` or a path into a zoneinfo directory), else the system zone.
struct ZoneOption {
    let timeZone: TimeZone
    /// The zone's name as printed: an IANA name or `UTC`, never a path.
    let name: String

    static func resolve(_ flag: String?, environment: [String: String]) throws(UsageError) -> ZoneOption {
        if let flag {
            if flag.uppercased() == "UTC" { return ZoneOption(timeZone: TimeZone(identifier: "UTC")!, name: "UTC") }
            guard !flag.isEmpty, let zone = TimeZone(identifier: flag) else {
                throw UsageError("--tz: unknown time zone '\(flag)'; give an IANA name such as Asia/Kolkata, or UTC")
            }
            return ZoneOption(timeZone: zone, name: zone.identifier)
        }
        if var tz = environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if let range = tz.range(of: "zoneinfo/", options: .backwards) { tz = String(tz[range.upperBound...]) }
            if tz.uppercased() == "UTC" { return ZoneOption(timeZone: TimeZone(identifier: "UTC")!, name: "UTC") }
            if !tz.hasPrefix("/"), let zone = TimeZone(identifier: tz) {
                return ZoneOption(timeZone: zone, name: zone.identifier)
            }
        }
        let current = TimeZone.current
        return ZoneOption(timeZone: current, name: current.identifier)
    }
}

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

/// How one period (or today) is shown: the same rows and keys in every view.
enum UsageView {
    static func header(_ first: String) -> [String] {
        [first, "input", "output", "cache read", "cache write 5m", "cache write 1h", "reasoning", "total", "events"]
    }

    static func row(_ label: String, _ cell: UsageCell) -> [String] {
        [label] + CountsFormat.columns(cell.counts) + [CountsFormat.grouped(Int(cell.counts.total)), CountsFormat.grouped(Int(cell.events))]
    }

    /// The period's line, then one line per tool and, under it, one per model; with `readings`, each line
    /// ends with its cost and water (and the period's line with `periodColumns`).
    static func add(
        _ usage: PeriodUsage, label: String, to table: inout TextTable, indent: String = "  ",
        readings: ReadingsBreakdown? = nil, periodColumns: [String] = []
    ) {
        table.add(row(label, usage.total) + (readings.map { ReadingsBreakdown.columns($0.total) + periodColumns } ?? []))
        addBreakdown(usage, to: &table, indent: indent, readings: readings)
    }

    static func addBreakdown(_ usage: PeriodUsage, to table: inout TextTable, indent: String, readings: ReadingsBreakdown? = nil) {
        for tool in usage.byTool.keys.sorted() {
            let toolReadings = readings.map { ReadingsBreakdown.columns($0.byTool[tool]) } ?? []
            table.add(row(indent + tool, usage.total(ofTool: tool)) + toolReadings)
            for (model, cell) in usage.byTool[tool]!.sorted(by: { $0.key < $1.key }) {
                let modelReadings = readings.map { ReadingsBreakdown.columns($0.byToolModel[tool]?[model]) } ?? []
                table.add(row(indent + "  " + model, cell) + modelReadings)
            }
        }
    }

    /// `{label, "totals", "events", "byModel": {model: counts}, "byTool": {tool: {"totals", "events",
    /// "byModel"}}}`: counts objects have exactly the dry run's six keys. With `readings`, the period and each
    /// tool also have `"cost"` and `"water"`, and `"costByModel"` / `"waterByModel"` beside `"byModel"`;
    /// `bottle` adds `"bottleLevel"`.
    static func json(_ usage: PeriodUsage, label: (String, String)?, readings: ReadingsBreakdown? = nil, bottle: JSON? = nil) -> JSON {
        var entries: [(String, JSON)] = []
        if let label { entries.append((label.0, .string(label.1))) }
        entries += [("totals", CountsFormat.json(usage.total.counts)), ("events", .integer(usage.total.events))]
        if let readings { entries += ReadingsBreakdown.json(readings.total) }
        if let bottle { entries.append(("bottleLevel", bottle)) }
        entries.append(("byModel", byModel(usage.byModel)))
        if let readings { entries += readingsByModel(readings.byModel, models: usage.byModel.keys) }
        entries.append(("byTool", .object(usage.byTool.keys.sorted().map { tool in
            let total = usage.total(ofTool: tool)
            var fields: [(String, JSON)] = [("totals", CountsFormat.json(total.counts)), ("events", .integer(total.events))]
            if let cell = readings?.byTool[tool] { fields += ReadingsBreakdown.json(cell) }
            fields.append(("byModel", byModel(usage.byTool[tool]!)))
            if let models = readings?.byToolModel[tool] { fields += readingsByModel(models, models: usage.byTool[tool]!.keys) }
            return (tool, .object(fields))
        })))
        return .object(entries)
    }

    private static func readingsByModel(_ cells: [String: ReadingCell], models: some Sequence<String>) -> [(String, JSON)] {
        let names = models.sorted()
        return [
            ("costByModel", .object(names.compactMap { name in cells[name].map { (name, ReadingsFormat.json($0.cost)) } })),
            ("waterByModel", .object(names.compactMap { name in cells[name].map { (name, ReadingsFormat.json($0.water)) } })),
        ]
    }

    private static func byModel(_ cells: [String: UsageCell]) -> JSON {
        .object(cells.sorted { $0.key < $1.key }.map { ($0.key, CountsFormat.json($0.value.counts)) })
    }
}
