import Foundation
import UnpromptKit

/// `unprompt-scan --dry-run [--tool ID]… [--root DIR] [--cost-mode M] [--json] [PATH…]`: reads with the
/// descriptors and prints what would be counted, with its cost and water. It writes nothing anywhere.
enum DryRunCommand {
    static func run(_ arguments: Arguments, paths: [String], catalog: ReaderCatalog, environment: [String: String])
        throws(UsageError) -> ExitCode
    {
        let wanted = arguments.all("--tool")
        var descriptors = catalog.descriptors
        if !wanted.isEmpty {
            for id in wanted where !descriptors.contains(where: { $0.id == id }) {
                throw UsageError("--tool: no reader named '\(id)'; `unprompt-scan readers list` shows them")
            }
            descriptors = descriptors.filter { wanted.contains($0.id) }
        }
        let layout = try TableOptions.layout(arguments, environment: environment, columns: UsageTable.ids(columns), view: "--dry-run")
        guard let readings = Readings.open(mode: try CostModeOption.parse(arguments), environment: environment) else {
            return .invalidData
        }
        if !paths.isEmpty, descriptors.count != 1 {
            throw UsageError("with file paths, name exactly one reader with --tool ID")
        }
        let discovery = SourceDiscovery(
            environment: environment, home: HomeDirectory.path(environment), rootOverride: arguments.single("--root"))
        // Times written without a zone (Aider's) are read in the system's zone, as a scan reads them.
        // Where a reader looked is said for one asked for by name or below --root: a tool that is not installed finds nothing.
        let dryRun = DryRun(
            discovery: discovery, timeZone: TimeZone.current, now: try Clock.now(environment),
            explainsMissingSources: !wanted.isEmpty || arguments.single("--root") != nil)
        let reports = descriptors.map { dryRun.run($0, explicitPaths: paths) }
        if arguments.has("--json") {
            print(JSON.object([("readers", .array(reports.map { json($0, readings) })), ("readings", readings.json)]).text)
        } else {
            print(Prose.wrap(readings.caption, width: layout.width).joined(separator: "\n"))
            for (descriptor, report) in zip(descriptors, reports) { print(text(report, name: descriptor.name, readings, layout: layout)) }
        }
        return reports.contains { $0.failedSources > 0 || $0.unlistedDirectories > 0 } ? .sourcesUnreadable : .success
    }

    static func json(_ report: ReaderReport, _ readings: Readings) -> JSON {
        let cells = ReaderReportReadings(report, readings)
        return .object([
            ("id", .string(report.id)),
            ("sources", .int(report.sources)),
            ("lines", .int(report.lines)),
            ("records", .int(report.records)),
            ("events", .int(report.totals.events)),
            ("skipped", .object(report.skipped.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("totals", CountsFormat.json(report.totals.total)),
            ("loggedCost", .number(ReadingsFormat.rounded(report.totals.loggedCost))),
            ("cost", ReadingsFormat.json(cells.total.cost)),
            ("water", ReadingsFormat.json(cells.total.water)),
            ("byModel", .object(report.totals.byModel.sorted { $0.key < $1.key }.map { ($0.key, CountsFormat.json($0.value)) })),
            ("costByModel", .object(cells.byModel.sorted { $0.key < $1.key }.map { ($0.key, ReadingsFormat.json($0.value.cost)) })),
            ("waterByModel", .object(cells.byModel.sorted { $0.key < $1.key }.map { ($0.key, ReadingsFormat.json($0.value.water)) })),
            ("byDay", .object(report.totals.byDay.sorted { $0.key < $1.key }.map { (CivilDate.dateString(ofDay: $0.key), CountsFormat.json($0.value)) })),
            ("costByDay", .object(cells.byDay.sorted { $0.key < $1.key }.map { (CivilDate.dateString(ofDay: $0.key), ReadingsFormat.json($0.value.cost)) })),
            ("limits", .array(report.latestLimits.map(LimitFormat.json))),
            ("limitSamples", .int(report.limitSamples)),
            ("problems", .array(report.problems.map { problem in
                .object([("source", .int(problem.source)), ("line", .int(problem.line)), ("reason", .string(problem.reason))])
            })),
            ("warnings", .array(report.warnings.map { .object([("code", .string($0.code)), ("message", .string($0.message))]) })),
        ])
    }

    /// The counts table's columns: the dry run counts no events per model or day.
    static let columns = UsageTable.columns("", events: false)

    static func text(_ report: ReaderReport, name: String, _ readings: Readings, layout: TableLayout) -> String {
        let cells = ReaderReportReadings(report, readings)
        var lines: [String] = []
        lines.append("\(report.id) (\(name))")
        lines.append(
            "  sources \(CountsFormat.grouped(report.sources)) · lines \(CountsFormat.grouped(report.lines)) · records \(CountsFormat.grouped(report.records)) · events \(CountsFormat.grouped(report.totals.events))")
        let skipped = report.skipped.sorted { $0.key < $1.key }.map { "\($0.key) \(CountsFormat.grouped($0.value))" }
        lines.append("  skipped: " + (skipped.isEmpty ? "none" : skipped.joined(separator: ", ")))
        if !report.problems.isEmpty {
            lines.append("  first problems (sources are numbered in reading order; paths are never printed):")
            for problem in report.problems {
                let place = problem.source == 0 ? "" : "source \(problem.source), line \(problem.line): "
                lines.append("    \(place)\(problem.reason)")
            }
        }
        if !report.warnings.isEmpty {
            lines.append("  warnings:")
            lines += report.warnings.map { "    \($0.code): \($0.message)" }
        }
        var table = Table(columns)
        table.add(UsageTable.cells("total", report.totals.total, events: nil, cells.total))
        if !report.totals.byModel.isEmpty {
            table.heading("by model")
            for (model, counts) in report.totals.byModel.sorted(by: { $0.key < $1.key }) {
                table.add(UsageTable.cells("  " + model, counts, events: nil, cells.byModel[model]))
            }
            table.heading("by UTC day")
            for (day, counts) in report.totals.byDay.sorted(by: { $0.key < $1.key }) {
                table.add(UsageTable.cells("  " + CivilDate.dateString(ofDay: day), counts, events: nil, cells.byDay[day]))
            }
        }
        lines += table.render(layout.indented(by: 2)).map { "  " + $0 }
        if report.totals.loggedCost != 0 {
            lines.append("  cost logged by the tool: $\(CostFormat.text(report.totals.loggedCost))")
        }
        lines += ReadingsFormat.notes(cells.total.cost, mode: readings.mode, unpricedTokens: cells.total.unpricedTokens).map { "  " + $0 }
        if report.limitSamples > 0 {
            lines.append("  limits (\(CountsFormat.grouped(report.limitSamples)) samples; latest per window):")
            for sample in report.latestLimits { lines.append("    " + LimitFormat.text(sample)) }
        }
        // The table's lines fit already; the others are broken at spaces.
        return Prose.wrap(lines, width: layout.width).joined(separator: "\n") + "\n"
    }
}
