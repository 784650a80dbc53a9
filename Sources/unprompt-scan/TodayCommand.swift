import Foundation
import UnpromptKit

/// `unprompt-scan today [--tz ZONE] [--no-scan] [--store PATH] [--config FILE] [--json]`: a scan (unless
/// `--no-scan`), then today (`TodaySummary`).
enum TodayCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        if arguments.words.count > 1 { throw UsageError("today takes no argument '\(arguments.words[1])'") }
        return try ViewContext.show(arguments, catalog: catalog, environment: environment) { context throws(StoreError) in
            let result = try TodaySummary.read(context)
            return arguments.has("--json") ? TodaySummary.json(result).text : TodaySummary.text(result)
        }
    }
}
