import Foundation
import UnpromptKit

/// `unprompt-scan today [--tz ZONE] [--no-scan] [--store PATH] [--config FILE] [--json]`: a scan (unless
/// `--no-scan`), then today (`TodaySummary`).
enum TodayCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment) { queries throws(StoreError) in
            let result = try queries.today()
            if arguments.has("--json") { return TodaySummary.json(result, queries).text }
            return TodaySummary.text(result, queries)
                + ConfirmationFormat.todayLines(result, queries, terminal: isatty(STDOUT_FILENO) == 1)
        }
    }
}
