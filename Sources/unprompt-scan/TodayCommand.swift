import Foundation
import UnpromptKit

/// `unprompt-scan today [--tz ZONE] [--no-scan] [--store PATH] [--config FILE] [--json]`: a scan (unless
/// `--no-scan`), then today (`TodaySummary`).
enum TodayCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        if arguments.words.count > 1 { throw UsageError("today takes no argument '\(arguments.words[1])'") }
        let context: ViewContext
        switch try ViewContext.open(arguments, catalog: catalog, environment: environment) {
        case .ready(let ready): context = ready
        case .failed(let code): return code
        }
        let result: TodaySummary.Result
        do {
            result = try TodaySummary.read(context)
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        print(arguments.has("--json") ? TodaySummary.json(result).text : TodaySummary.text(result))
        return context.status
    }
}
