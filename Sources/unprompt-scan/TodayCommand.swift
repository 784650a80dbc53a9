import Foundation
import UnpromptKit

/// `unprompt-scan today [--tz ZONE] [--no-scan] [--store PATH] [--config FILE] [--json]`: a scan (unless
/// `--no-scan`), then today (`TodaySummary`).
enum TodayCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment) { queries throws(StoreError) in
            let result = try queries.today()
            return arguments.has("--json") ? TodaySummary.json(result, queries).text : TodaySummary.text(result, queries)
        }
    }
}
