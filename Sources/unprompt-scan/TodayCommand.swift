import Foundation
import UnpromptKit

/// `unprompt-scan today [--live] [--tz ZONE] [--no-scan] [--wide] [--columns LIST] [--store PATH] [--config FILE]
/// [--json]`: a scan (unless `--no-scan`), then today (`TodaySummary`); `--live` keeps it on screen
/// (`LiveTodayCommand`).
enum TodayCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let layout = try TableOptions.layout(
            arguments, environment: environment, columns: UsageTable.ids(TodaySummary.columns), view: "today")
        if arguments.has(Option.live.name) {
            return try LiveTodayCommand.run(arguments, layout: layout, catalog: catalog, environment: environment)
        }
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment) { queries throws(StoreError) in
            let result = try queries.today()
            if arguments.has("--json") { return TodaySummary.json(result, queries).text }
            return TodaySummary.text(result, limits: try queries.limits(), queries, layout: layout)
                + ConfirmationFormat.todayLines(result, queries, terminal: isatty(STDOUT_FILENO) == 1)
        }
    }
}
